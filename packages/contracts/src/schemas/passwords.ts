import { z } from 'zod';
import { RoleId } from './profile.ts';

/**
 * Password rules (OWASP ASVS 4.0 level 2, V2.1): at least 12 characters, up to 128, no composition rules (any
 * character, spaces included, counts), and not on the list of common passwords (checked by the API only: the list
 * stays on the server). The SPA's forms and the provider's pages show the same German texts.
 */
export const passwordRules = {
  minLength: 12,
  maxLength: 128,
  /** A one-time "Passwort vergessen?" link lives this long. */
  resetLinkMinutes: 30,
  /** An invitation's set-password link lives this long (the invited person may be on holiday for a few days). */
  invitationLinkDays: 7,
} as const;

export const passwordTexts = {
  tooShort: `Das Passwort muss mindestens ${passwordRules.minLength} Zeichen lang sein.`,
  tooLong: `Das Passwort darf höchstens ${passwordRules.maxLength} Zeichen lang sein.`,
  common: 'Dieses Passwort ist zu verbreitet und leicht zu erraten. Bitte wählen Sie ein anderes.',
  sameAsEmail: 'Das Passwort darf nicht Ihre E-Mail-Adresse sein.',
  mismatch: 'Die beiden Passwörter stimmen nicht überein.',
  currentWrong: 'Das aktuelle Passwort ist falsch.',
  currentRequired: 'Bitte geben Sie Ihr aktuelles Passwort ein.',
  hint: `Mindestens ${passwordRules.minLength} Zeichen. Am sichersten ist ein Satz aus mehreren Wörtern; Sonderzeichen oder Ziffern sind nicht vorgeschrieben.`,
  changed: 'Ihr Passwort wurde geändert. Ihre anderen Anmeldungen wurden beendet.',
  noLocalPassword: 'Ihr Konto meldet sich über einen externen Anmeldedienst an. Das Passwort ändern Sie dort.',
  changedMailSubject: 'Ihr Passwort wurde geändert',
  forgotTitle: 'Passwort vergessen?',
  forgotIntro:
    'Geben Sie die E-Mail-Adresse Ihres Kontos ein. Wir senden Ihnen einen Link, mit dem Sie ein neues Passwort festlegen.',
  forgotSent: `Wenn zu dieser E-Mail-Adresse ein Konto besteht, haben wir Ihnen soeben eine E-Mail mit einem Link geschickt. Der Link ist ${passwordRules.resetLinkMinutes} Minuten gültig und kann einmal verwendet werden.`,
  forgotTooMany: (minutes: number) =>
    `Es wurden zu viele Links angefordert. Bitte versuchen Sie es in ${minutes} ${minutes === 1 ? 'Minute' : 'Minuten'} erneut.`,
  resetTitle: 'Neues Passwort festlegen',
  invitationTitle: 'Willkommen – Passwort festlegen',
  linkInvalid:
    'Dieser Link ist nicht mehr gültig: Er wurde bereits verwendet, ist abgelaufen oder wurde durch ein neueres Passwort ersetzt. Bitte fordern Sie über „Passwort vergessen?“ einen neuen Link an.',
  passwordSet: 'Ihr Passwort wurde festgelegt. Sie können sich jetzt damit anmelden.',
  resetMailSubject: 'Neues Passwort für das SHK-Bestellportal',
  invitationMailSubject: 'Einladung zum SHK-Bestellportal',
  invited: (email: string) => `Die Einladung an ${email} wurde versandt.`,
  emailTaken: 'Für diese E-Mail-Adresse besteht bereits ein Konto.',
  partnerRequired: 'Einkäufer und Verkäufer brauchen mindestens einen Geschäftspartner.',
  partnerForbidden: 'Mitarbeiter des Portals und Benutzer ohne Rolle haben keinen Geschäftspartner.',
  partnerUnknown: (number: string) => `Den Geschäftspartner ${number} gibt es nicht.`,
  partnerNotSupplier: (number: string) =>
    `Der Geschäftspartner ${number} ist kein Lieferant: Verkäufer arbeiten für einen Lieferanten.`,
  partnerIsSupplier: (number: string) =>
    `Der Geschäftspartner ${number} ist ein Lieferant: Einkäufer arbeiten für einen Kunden.`,
  roleNotAllowed: 'Sie dürfen Benutzer mit dieser Rolle nicht einladen.',
} as const;

/** A new password as the API checks it (the list of common passwords comes on top, on the server). */
export const NewPassword = z
  .string()
  .min(passwordRules.minLength, passwordTexts.tooShort)
  .max(passwordRules.maxLength, passwordTexts.tooLong);

export const ChangePasswordBody = z
  .object({
    currentPassword: z.string().min(1, passwordTexts.currentRequired).max(500),
    newPassword: NewPassword,
    newPasswordRepeat: z.string().max(500),
  })
  .refine((b) => b.newPassword === b.newPasswordRepeat, {
    message: passwordTexts.mismatch,
    path: ['newPasswordRepeat'],
  });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/** The provider's set-password page (reset and invitation) posts this form. */
export const SetPasswordForm = z
  .object({ password: NewPassword, passwordRepeat: z.string().max(500) })
  .refine((b) => b.password === b.passwordRepeat, { message: passwordTexts.mismatch, path: ['passwordRepeat'] });

export const InviteUserBody = z
  .object({
    email: z.string().trim().max(254).pipe(z.email('Bitte geben Sie eine gültige E-Mail-Adresse ein.')),
    firstName: z.string().trim().max(100).default(''),
    lastName: z.string().trim().max(100).default(''),
    role: RoleId,
    businessPartnerNumbers: z.array(z.string().trim().min(1).max(20)).max(50).default([]),
  })
  .meta({ id: 'InviteUser' });
export type InviteUserBody = z.infer<typeof InviteUserBody>;

export const UserInvitation = z
  .object({
    userId: z.string(),
    email: z.string(),
    expiresAt: z.string(),
  })
  .meta({ id: 'UserInvitation' });
export type UserInvitation = z.infer<typeof UserInvitation>;

const greeting = (name: string) => (name.trim() ? `Guten Tag ${name.trim()},` : 'Guten Tag,');
const signature = '\n\nMit freundlichen Grüßen\nIhr SHK-Bestellportal';

/** The mails of the password functions (plain text; the link is the only way in, so it stands on its own line). */
export const passwordMails = {
  reset: (name: string, link: string) => ({
    subject: passwordTexts.resetMailSubject,
    text: `${greeting(name)}

für Ihr Konto im SHK-Bestellportal wurde ein neues Passwort angefordert. Über diesen Link legen Sie es fest:

${link}

Der Link ist ${passwordRules.resetLinkMinutes} Minuten gültig und kann einmal verwendet werden.

Haben Sie kein neues Passwort angefordert, können Sie diese E-Mail ignorieren: Ihr bisheriges Passwort bleibt gültig.${signature}`,
  }),
  invitation: (name: string, invitedBy: string, link: string) => ({
    subject: passwordTexts.invitationMailSubject,
    text: `${greeting(name)}

${invitedBy} hat für Sie ein Konto im SHK-Bestellportal angelegt. Über diesen Link legen Sie Ihr Passwort fest und können sich danach mit Ihrer E-Mail-Adresse anmelden:

${link}

Der Link ist ${passwordRules.invitationLinkDays} Tage gültig und kann einmal verwendet werden. Ist er abgelaufen, fordern Sie auf der Anmeldeseite über „Passwort vergessen?“ einen neuen an.${signature}`,
  }),
  changed: (name: string) => ({
    subject: passwordTexts.changedMailSubject,
    text: `${greeting(name)}

das Passwort Ihres Kontos im SHK-Bestellportal wurde soeben geändert. Alle anderen Anmeldungen mit Ihrem Konto wurden dabei beendet.

Waren Sie das nicht, fordern Sie bitte sofort auf der Anmeldeseite über „Passwort vergessen?“ ein neues Passwort an und wenden Sie sich an unseren Support.${signature}`,
  }),
} as const;
