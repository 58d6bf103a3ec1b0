import { problemTitles, type BusinessPartner } from '@shk/contracts';
import type { Caller } from '../../http/auth.ts';
import type { Db } from '../../db/pool.ts';
import { HttpProblem, notFound } from '../../http/problem.ts';
import { canSeePartner } from './partner-visibility.ts';
import { findPartner, partnerNames, setCurrentPartner } from './profile.repo.ts';

const partnerNotFound = () => notFound('Geschäftspartner nicht gefunden');

/** The signed-in user's profile, the current business partner and partners' company data. */
export class ProfileService {
  constructor(private readonly db: Db) {}

  /** Number and name of each of the caller's business partners. */
  partners(caller: Caller) {
    return partnerNames(this.db, caller.partners);
  }

  /** Switches the current partner; only a partner the user belongs to (else 403). */
  async setCurrentPartner(caller: Caller, bpNumber: string) {
    if (!caller.partners.includes(bpNumber)) {
      throw new HttpProblem(403, problemTitles.notPartnerMember, { detail: `Geschäftspartner ${bpNumber}` });
    }
    await setCurrentPartner(this.db, caller.userId, bpNumber);
  }

  /** The current partner's company data (no visibility check: it is the caller's own). */
  async currentPartner(bpNumber: string): Promise<BusinessPartner> {
    const partner = await findPartner(this.db, bpNumber);
    if (!partner) throw partnerNotFound();
    const { isSupplier: _omit, ...rest } = partner;
    return rest;
  }

  /** A partner's company data; a partner the caller may not see is reported exactly like a missing one. */
  async partner(caller: Caller, bpNumber: string): Promise<BusinessPartner> {
    const partner = await findPartner(this.db, bpNumber);
    if (!partner || !(await canSeePartner(this.db, caller, partner))) throw partnerNotFound();
    const { isSupplier: _omit, ...rest } = partner;
    return rest;
  }
}
