import { z } from 'zod';
import { messages } from '../messages.ts';
import { limits } from '../limits.ts';

export const RoleId = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]);

export const BusinessPartnerOption = z.object({ number: z.string(), name: z.string() });

export const UserProfile = z
  .object({
    id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    role: RoleId,
    email: z.string(),
    currentBpNumber: z.string().nullable(),
    currentBpName: z.string().nullable(),
    idsContextId: z.string().nullable(),
    availableBusinessPartners: z.array(BusinessPartnerOption),
  })
  .meta({ id: 'UserProfile' });
export type UserProfile = z.infer<typeof UserProfile>;

export const UpdateUserProfile = z.object({ bpNumber: z.string().trim().min(1, messages.required).max(20) });

export const BusinessPartner = z
  .object({
    businessPartnerNo: z.string(),
    name: z.string(),
    officialCompanyName: z.string().nullable(),
    street: z.string().nullable(),
    houseNumber: z.string().nullable(),
    postalCode: z.string().nullable(),
    city: z.string().nullable(),
    country: z.string().nullable(),
    contact: z.object({ eMail: z.string().nullable(), phoneNumber: z.string().nullable() }),
    faxNumber: z.string().nullable(),
    website: z.string().nullable(),
    taxNumber: z.string().nullable(),
    organisationType: z.number().int(),
  })
  .meta({ id: 'BusinessPartner' });
export type BusinessPartner = z.infer<typeof BusinessPartner>;

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_PATTERN = emailPattern;

export const PartnerDataChangeRequest = z.object({
  message: z.string().trim().min(1, messages.required).max(2000, messages.maxChars(2000)),
  email: z.string().trim().min(1, messages.required).max(254).regex(emailPattern, messages.checkInput),
  phoneNumber: z.string().trim().max(50, messages.maxChars(50)).optional().nullable(),
});
export type PartnerDataChangeRequest = z.infer<typeof PartnerDataChangeRequest>;

/** The free-text comment of a search feedback (also the dialog's form field). */
export const FeedbackComment = z.string().max(limits.feedbackComment, messages.feedbackCommentMax);

export const FeedbackRequest = z.object({
  isPositive: z.boolean({ error: messages.required }),
  comment: FeedbackComment.optional().nullable(),
  url: z.string().max(2000).optional().nullable(),
});
export type FeedbackRequest = z.infer<typeof FeedbackRequest>;

/**
 * Which mails about orders a user gets ('Mein Profil' → 'E-Mail-Benachrichtigungen'); every mail is on until the
 * user turns it off.
 */
export const MailSettings = z
  .object({
    orderPlaced: z.boolean(),
    orderConfirmed: z.boolean(),
    orderChanged: z.boolean(),
    orderRejected: z.boolean(),
  })
  .meta({ id: 'MailSettings' });
export type MailSettings = z.infer<typeof MailSettings>;

/** The settings' labels on 'Mein Profil', in the order shown. */
export const mailSettingLabels: Record<keyof MailSettings, string> = {
  orderPlaced: 'Bestellung aufgegeben (Bestellnummer, Positionen und Summen je Lieferant)',
  orderConfirmed: 'Bestellung vom Lieferanten bestätigt',
  orderChanged: 'Bestellung vom Lieferanten mit Änderungen bestätigt',
  orderRejected: 'Bestellung vom Lieferanten abgelehnt',
};
