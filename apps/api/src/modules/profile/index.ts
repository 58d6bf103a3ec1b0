/**
 * Public face of the profile module: The signed-in user's profile and business partner switch.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { profileRoutes } from './profile.routes.ts';
export { ProfileService } from './profile.service.ts';
export { wantsMail } from './mail-settings.ts';
export { toBusinessPartner, type BusinessPartnerColumns, type BusinessPartnerRow } from './profile.repo.ts';
