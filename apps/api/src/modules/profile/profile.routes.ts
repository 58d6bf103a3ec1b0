import { z } from 'zod';
import { BusinessPartner, MailSettings, UpdateUserProfile, UserProfile } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf, currentPartnerOf } from '../../http/auth.ts';
import { mailSettingsOf, saveMailSettings } from './mail-settings.ts';
import { ProfileService } from './profile.service.ts';

export async function profileRoutes(app: App, { db, pool }: AppDeps) {
  const profile = new ProfileService(db);
  app.get(
    '/v1/UserProfile',
    {
      // The caller's fields come with the caller (part of the cache key); the partners' names from business_partners.
      config: { ids: 'allowed', roles: 'authenticated', readModel: { tables: ['business_partners'] } },
      schema: { tags: ['Profil'], summary: 'Profil des angemeldeten Benutzers', response: { 200: UserProfile } },
    },
    async (request) => {
      const caller = callerOf(request);
      const available = await profile.partners(caller);
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
    },
  );

  app.put(
    '/v1/UserProfile',
    {
      config: { roles: 'authenticated', changesCaller: true },
      schema: {
        tags: ['Profil'],
        summary: 'Aktuellen Geschäftspartner wechseln',
        body: UpdateUserProfile,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await profile.setCurrentPartner(callerOf(request), request.body.bpNumber);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/v1/UserProfile/MailSettings',
    {
      config: { roles: 'authenticated' },
      schema: {
        tags: ['Profil'],
        summary: 'E-Mail-Benachrichtigungen des angemeldeten Benutzers',
        response: { 200: MailSettings },
      },
    },
    async (request) => mailSettingsOf(pool, callerOf(request).userId),
  );

  app.put(
    '/v1/UserProfile/MailSettings',
    {
      config: { roles: 'authenticated' },
      schema: {
        tags: ['Profil'],
        summary: 'E-Mail-Benachrichtigungen festlegen',
        body: MailSettings,
        response: { 200: MailSettings },
      },
    },
    async (request) => {
      const userId = callerOf(request).userId;
      await saveMailSettings(pool, userId, request.body);
      return mailSettingsOf(pool, userId);
    },
  );

  app.get(
    '/v1/BusinessPartners/Current',
    {
      config: { ids: 'allowed', roles: 'authenticated' },
      schema: { tags: ['Geschäftspartner'], summary: 'Aktueller Geschäftspartner', response: { 200: BusinessPartner } },
    },
    async (request) => profile.currentPartner(currentPartnerOf(request)),
  );

  app.get(
    '/v1/BusinessPartners/:businessPartnerNo',
    {
      config: { ids: 'allowed', roles: 'authenticated' },
      schema: {
        tags: ['Geschäftspartner'],
        summary: 'Firmendaten eines Geschäftspartners',
        params: z.object({ businessPartnerNo: z.string().min(1).max(20) }),
        response: { 200: BusinessPartner },
      },
    },
    async (request) => profile.partner(callerOf(request), request.params.businessPartnerNo),
  );
}
