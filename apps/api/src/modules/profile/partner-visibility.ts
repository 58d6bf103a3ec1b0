import { isStaff, Role } from '@shk/contracts';
import type { Caller } from '../../http/auth.ts';
import type { Db } from '../../db/pool.ts';
import { isSupplierCustomer } from './profile.repo.ts';

/**
 * Whether the caller may read a business partner's company data: own partners, every supplier
 * (buyers look suppliers up), all partners for staff, and for sellers the buyers that have a
 * relation with their supplier.
 */
export async function canSeePartner(
  db: Db,
  caller: Caller,
  partner: { businessPartnerNo: string; isSupplier: boolean },
): Promise<boolean> {
  if (isStaff(caller.role)) return true;
  if (caller.partners.includes(partner.businessPartnerNo)) return true;
  if (partner.isSupplier && caller.role !== Role.None) return true;
  if (caller.role === Role.Seller && caller.bpNumber) {
    return isSupplierCustomer(db, caller.bpNumber, partner.businessPartnerNo);
  }
  return false;
}
