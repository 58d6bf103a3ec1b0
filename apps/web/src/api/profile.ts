import type { ChangePasswordBody, MailSettings, PartnerDataChangeRequest } from '@shk/contracts';
import { api } from './client';
import { expectStatus, unwrap } from './problem';
import type { components } from './schema';

/** Response types: the generated OpenAPI types (docs/conventions.md, "DTO types in the web"). */
type BusinessPartner = components['schemas']['BusinessPartner'];

/** The caller's company (business partner) and requests to change its data (buyer-side.md §9). */
export const profileApi = {
  currentBusinessPartner: async (): Promise<BusinessPartner> => unwrap(await api.GET('/v1/BusinessPartners/Current')),
  requestPartnerDataChange: async (body: PartnerDataChangeRequest) =>
    expectStatus(await api.POST('/v1/SupportRequests/PartnerDataChange', { body }), 201),
  /** Which order mails the signed-in user gets ('Mein Profil'). */
  mailSettings: async (): Promise<MailSettings> => unwrap(await api.GET('/v1/UserProfile/MailSettings')),
  saveMailSettings: async (body: MailSettings): Promise<MailSettings> =>
    unwrap(await api.PUT('/v1/UserProfile/MailSettings', { body })),
  /** 'Passwort ändern': 204, or a validation problem with German field messages. */
  changePassword: async (body: ChangePasswordBody) =>
    expectStatus(await api.PUT('/v1/UserProfile/Password', { body }), 204),
};
