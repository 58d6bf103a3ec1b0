import { z } from 'zod';
import { BusinessPartner, problemTitles, UpdateUserProfile, UserProfile } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf, currentPartnerOf } from '../../http/auth.ts';
import { HttpProblem, notFound } from '../../http/problem.ts';
import { findPartner, partnerNames, setCurrentPartner } from './profile.repo.ts';
import { canSeePartner } from './partner-visibility.ts';

export async function profileRoutes(app: App, { db }: AppDeps) {
  app.get('/v1/UserProfile', {
    config: { roles: 'authenticated' },
    schema: { tags: ['Profil'], summary: 'Profil des angemeldeten Benutzers', response: { 200: UserProfile } },
  }, async (request) => {
    const caller = callerOf(request);
    const available = await partnerNames(db, caller.partners);
    return {
      id: caller.userId,
      firstName: caller.firstName,
      lastName: caller.lastName,
      role: caller.role,
      email: caller.email,
      currentBpNumber: caller.bpNumber,
      currentBpName: available.find((p) => p.number === caller.bpNumber)?.name ?? null,
      idsContextId: caller.idsContextId,
      availableBusinessPartners: available,
    };
  });

  app.put('/v1/UserProfile', {
    config: { roles: 'authenticated' },
    schema: { tags: ['Profil'], summary: 'Aktuellen Geschäftspartner wechseln', body: UpdateUserProfile, response: { 204: z.null() } },
  }, async (request, reply) => {
    const caller = callerOf(request);
    if (!caller.partners.includes(request.body.bpNumber)) {
      throw new HttpProblem(403, problemTitles.notPartnerMember, { detail: `Geschäftspartner ${request.body.bpNumber}` });
    }
    await setCurrentPartner(db, caller.userId, request.body.bpNumber);
    return reply.status(204).send(null);
  });

  app.get('/v1/BusinessPartners/Current', {
    config: { roles: 'authenticated' },
    schema: { tags: ['Geschäftspartner'], summary: 'Aktueller Geschäftspartner', response: { 200: BusinessPartner } },
  }, async (request) => {
    const partner = await findPartner(db, currentPartnerOf(request));
    if (!partner) throw notFound('Geschäftspartner nicht gefunden');
    const { isSupplier: _omit, ...rest } = partner;
    return rest;
  });

  app.get('/v1/BusinessPartners/:businessPartnerNo', {
    config: { roles: 'authenticated' },
    schema: {
      tags: ['Geschäftspartner'], summary: 'Firmendaten eines Geschäftspartners',
      params: z.object({ businessPartnerNo: z.string().min(1).max(20) }),
      response: { 200: BusinessPartner },
    },
  }, async (request) => {
    const partner = await findPartner(db, request.params.businessPartnerNo);
    // A partner the caller may not see is reported exactly like a missing one.
    if (!partner || !(await canSeePartner(db, callerOf(request), partner))) throw notFound('Geschäftspartner nicht gefunden');
    const { isSupplier: _omit, ...rest } = partner;
    return rest;
  });
}
