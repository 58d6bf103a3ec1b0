import { z } from 'zod';
import { messages } from '../messages.ts';
import { limits } from '../limits.ts';
import { EMAIL_PATTERN } from './profile.ts';

/** Texts of the business-partner steps of the add-supplier dialog (wording of the web UI; the spec names the steps). */
export const relationPartnerMessages = {
  postalCode: 'Bitte geben Sie eine fünfstellige Postleitzahl ein.',
  phone: 'Bitte geben Sie eine gültige Telefonnummer ein.',
  website: 'Bitte geben Sie eine gültige Webadresse ein.',
  vatId: 'Bitte geben Sie eine gültige USt-IdNr. ein (DE und neun Ziffern).',
  taxIdentifier: 'Bitte geben Sie die USt-IdNr. oder die Steuernummer an.',
  required: 'Bitte bestätigen Sie die Firmendaten Ihres Geschäftspartners.',
  onlyForNewCustomers: 'Firmendaten werden nur mit einer Anfrage ohne Kundennummer übermittelt.',
} as const;

export const RelationStatusId = z.union([
  z.literal(1),
  z.literal(2),
  z.literal(3),
  z.literal(4),
  z.literal(6),
  z.literal(7),
]);

export const SupplierIntegrationInfo = z
  .object({
    supplierBusinessPartnerNo: z.string(),
    integrationStatus: z.number().int(),
    provider: z.string().nullable(),
    productDataSource: z.number().int(),
    filterValue: z.string().nullable(),
    brandName: z.string().nullable(),
  })
  .meta({ id: 'SupplierIntegrationInfo' });

export const RelationSupplier = z
  .object({
    name: z.string(),
    bpNumber: z.string(),
    officialCompanyName: z.string().nullable(),
    address: z.object({
      street: z.string().nullable(),
      houseNumber: z.string().nullable(),
      postalCode: z.string().nullable(),
      city: z.string().nullable(),
      country: z.string().nullable(),
    }),
    website: z.string().nullable(),
    supplierStatusId: z.number().int(),
    requiredOnboardingForm: z.boolean(),
    organisationType: z.number().int(),
  })
  .meta({ id: 'RelationSupplier' });

export const RelationBuyer = z
  .object({
    name: z.string(),
    officialCompanyName: z.string().nullable(),
    bpNumber: z.string(),
    email: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    faxNumber: z.string().nullable(),
    website: z.string().nullable(),
    taxNumber: z.string().nullable(),
    vatId: z.string().nullable(),
  })
  .meta({ id: 'RelationBuyer' });

/**
 * The company data a buyer confirms in the add-supplier dialog for a request without customer number (steps 'add',
 * 'edit' and 'confirm business partner'): what the supplier needs to set the buyer up as a new customer. Prefilled
 * from the buyer's business partner; kept with the relation and sent with the new-customer mail. The web's form and
 * the API check the same rules.
 */
const requiredText = (max: number) => z.string().trim().min(1, messages.required).max(max, messages.maxChars(max));
export const newCustomerPartnerFields = {
  officialCompanyName: requiredText(120),
  street: requiredText(100),
  houseNumber: requiredText(10),
  postalCode: z
    .string()
    .trim()
    .min(1, messages.required)
    .regex(/^\d{5}$/, relationPartnerMessages.postalCode),
  city: requiredText(60),
  email: z.string().trim().min(1, messages.required).max(254).regex(EMAIL_PATTERN, messages.checkInput),
  phoneNumber: requiredText(30).regex(/^[+0-9][0-9 ()/-]*$/, relationPartnerMessages.phone),
  faxNumber: z
    .string()
    .trim()
    .max(30, messages.maxChars(30))
    .regex(/^([+0-9][0-9 ()/-]*)?$/, relationPartnerMessages.phone),
  website: z
    .string()
    .trim()
    .max(200, messages.maxChars(200))
    .regex(/^((https?:\/\/)?[a-z0-9äöü-]+(\.[a-z0-9äöü-]+)+(\/\S*)?)?$/i, relationPartnerMessages.website),
  vatId: z
    .string()
    .trim()
    .max(14, messages.maxChars(14))
    .regex(/^(DE\d{9})?$/, relationPartnerMessages.vatId),
  taxNumber: z.string().trim().max(20, messages.maxChars(20)),
};
/**
 * The country of the company data: the dialog's rules (five-digit postal code, USt-IdNr. DE and nine digits) admit
 * German addresses only, so it is Germany; the API adds it (also to data kept before it was named).
 */
export const newCustomerCountry = 'DE';
export const NewCustomerPartner = z
  .object({
    ...newCustomerPartnerFields,
    country: z.literal(newCustomerCountry).optional(),
    // Optional values may be left empty; the API keeps them as null.
    faxNumber: newCustomerPartnerFields.faxNumber.nullable().optional(),
    website: newCustomerPartnerFields.website.nullable().optional(),
    vatId: newCustomerPartnerFields.vatId.nullable().optional(),
    taxNumber: newCustomerPartnerFields.taxNumber.nullable().optional(),
  })
  .superRefine((value, ctx) => {
    // The supplier's accounting needs one of the two tax identifiers.
    if (!value.vatId && !value.taxNumber)
      ctx.addIssue({ code: 'custom', path: ['vatId'], message: relationPartnerMessages.taxIdentifier });
  })
  .meta({ id: 'NewCustomerPartner' });
export type NewCustomerPartner = z.infer<typeof NewCustomerPartner>;

/** German labels of the company data, in the order the dialog's summary and the seller's detail show them. */
export const newCustomerPartnerLabels = {
  officialCompanyName: 'Firmenname',
  street: 'Straße',
  houseNumber: 'Hausnummer',
  postalCode: 'Postleitzahl',
  city: 'Ort',
  country: 'Land',
  email: 'E-Mail der Firma',
  phoneNumber: 'Telefon der Firma',
  faxNumber: 'Fax',
  website: 'Website',
  vatId: 'USt-IdNr.',
  taxNumber: 'Steuernummer',
} as const satisfies Record<keyof NewCustomerPartner, string>;

/** Country names of the company data (ISO code → German name). */
export const newCustomerCountryNames: Record<string, string> = { DE: 'Deutschland' };

/**
 * The contact person and message of a request without customer number (the dialog's partnership step): whom the
 * supplier's clerk calls back when setting the buyer up as a new customer.
 */
export const NewCustomerContact = z
  .object({
    name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    message: z.string().nullable(),
  })
  .meta({ id: 'NewCustomerContact' });
export type NewCustomerContact = z.infer<typeof NewCustomerContact>;

/** Texts of the seller's view of a new-customer request ('Meine Kunden'). */
export const newCustomerMessages = {
  badge: 'Neukunde',
  partnerTitle: 'Firmendaten für die Anlage als Neukunde',
  partnerHint:
    'Vom Käufer bestätigt. Legen Sie den Kunden mit diesen Daten in Ihrem System an und tragen Sie dann die Kundennummer ein.',
  contactTitle: 'Ansprechpartner',
  contactLabels: { name: 'Name', email: 'E-Mail', phone: 'Telefon', message: 'Nachricht' },
} as const;

export const SupplierCustomerRelation = z
  .object({
    id: z.number().int(),
    supplier: RelationSupplier,
    buyer: RelationBuyer,
    relationStatusId: RelationStatusId,
    supplierCustomerNumber: z.string().nullable(),
    sharedCustomerId: z.string().nullable(),
    comments: z.string().nullable(),
    isActive: z.boolean(),
    dateCreated: z.string(),
    dateModified: z.string(),
    supplierItekIntegrationInfo: SupplierIntegrationInfo,
    /**
     * The company data the buyer confirmed with a request without customer number: for the buyer partner that sent
     * them, the supplier's sellers and staff (null for anybody else).
     */
    newCustomerPartner: NewCustomerPartner.nullable(),
    /** The contact person of that request; present exactly when newCustomerPartner is. */
    newCustomerContact: NewCustomerContact.nullable(),
  })
  .meta({ id: 'SupplierCustomerRelation' });
export type SupplierCustomerRelation = z.infer<typeof SupplierCustomerRelation>;

export const PagedRelations = z
  .object({
    items: z.array(SupplierCustomerRelation),
    currentPage: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'PagedSupplierCustomerRelations' });

const customerNumber = z
  .string()
  .trim()
  .min(1, messages.required)
  .max(limits.supplierCustomerNumber, messages.maxChars(limits.supplierCustomerNumber));

const optionalText = (max: number) => z.string().trim().max(max, messages.maxChars(max));

/**
 * The fields of a relationship request as the buyer fills them in; the API's CreateRelationRequest and the
 * web's request and customer-number forms are built from these.
 */
export const relationRequestFields = {
  supplierCustomerNumber: customerNumber,
  contactName: optionalText(limits.relationContactName).min(1, messages.required),
  contactEmail: z.string().trim().min(1, messages.required).max(254).regex(EMAIL_PATTERN, messages.checkInput),
  contactPhone: optionalText(limits.relationContactPhone),
  message: optionalText(limits.relationMessage),
};

/** A buyer's request: with a customer number, or without one (then name and e-mail are required). */
export const CreateRelationRequest = z
  .object({
    supplierBpNumber: z.string().trim().min(1, messages.required).max(20),
    supplierCustomerNumber: optionalText(limits.supplierCustomerNumber).optional().nullable(),
    contactName: optionalText(limits.relationContactName).optional().nullable(),
    contactEmail: z.string().trim().max(254).optional().nullable(),
    contactPhone: relationRequestFields.contactPhone.optional().nullable(),
    message: relationRequestFields.message.optional().nullable(),
    newCustomerPartner: NewCustomerPartner.optional().nullable(),
  })
  .superRefine((value, ctx) => {
    if (value.supplierCustomerNumber) {
      if (value.newCustomerPartner)
        ctx.addIssue({
          code: 'custom',
          path: ['newCustomerPartner'],
          message: relationPartnerMessages.onlyForNewCustomers,
        });
      return;
    }
    if (!value.newCustomerPartner)
      ctx.addIssue({ code: 'custom', path: ['newCustomerPartner'], message: relationPartnerMessages.required });
    if (!value.contactName) ctx.addIssue({ code: 'custom', path: ['contactName'], message: messages.required });
    if (!value.contactEmail) ctx.addIssue({ code: 'custom', path: ['contactEmail'], message: messages.required });
    else if (!EMAIL_PATTERN.test(value.contactEmail))
      ctx.addIssue({ code: 'custom', path: ['contactEmail'], message: messages.checkInput });
  });
export type CreateRelationRequest = z.infer<typeof CreateRelationRequest>;

/** Comments of a relation (the rejection reason). */
export const RelationComments = z
  .string()
  .trim()
  .max(limits.relationComments, messages.maxChars(limits.relationComments));

export const UpdateRelationRequest = z.object({
  relationStatusId: RelationStatusId,
  comments: RelationComments.optional().nullable(),
  supplierCustomerNumber: z
    .string()
    .trim()
    .max(limits.supplierCustomerNumber, messages.maxChars(limits.supplierCustomerNumber))
    .optional()
    .nullable(),
  isActive: z.boolean().optional(),
});
export type UpdateRelationRequest = z.infer<typeof UpdateRelationRequest>;

export const SupplierCustomerNumberParam = customerNumber;

export const RelationStatusChange = z
  .object({
    id: z.number().int(),
    oldStatusId: z.number().int().nullable(),
    newStatusId: z.number().int(),
    comments: z.string().nullable(),
    changedAt: z.string(),
    changedBy: z.object({ email: z.string(), firstName: z.string(), lastName: z.string() }).nullable(),
  })
  .meta({ id: 'RelationStatusChange' });

export const SupplierSummary = z
  .object({
    bpNumber: z.string(),
    name: z.string(),
    officialCompanyName: z.string().nullable(),
    city: z.string().nullable(),
    website: z.string().nullable(),
    supplierStatusId: z.number().int(),
    organisationType: z.number().int(),
    requiredOnboardingForm: z.boolean(),
  })
  .meta({ id: 'SupplierSummary' });

/** German texts of the relation flows (seller-staff-side.md §8), letter for letter. */
export const relationMessages = {
  requestSuccess: (supplier: string) => `Ihre Anfrage an ${supplier} wurde erfolgreich übermittelt`,
  requestFailure: 'Ihre Anfrage konnte leider nicht übermittelt werden. Bitte versuchen Sie es später erneut.',
  customerNumberFailure:
    'Ihre Kunndennummer konnte leider nicht übermittelt werden. Bitte versuchen Sie es später erneut.',
  statusUpdateSuccess: (name: string) => `Sie haben den Status des Kunden ${name} erfolgreich aktualisiert`,
  statusUpdateFailure:
    'Ihre Aktualisierung konnte leider nicht übermittelt werden, bitte versuchen Sie es später erneut.',
  addSupplierFailure: 'Fehler beim Hinzufügen des Lieferanten',
  emptyNetwork: 'Erweitern Sie Ihr Netzwerk',
  noResults: 'Keine Ergebnisse',
  transitionNotAllowed: 'Dieser Statuswechsel ist nicht erlaubt.',
  relationExists: 'Zu diesem Lieferanten besteht bereits eine Geschäftsbeziehung.',
  supplierNotAvailable: 'Dieser Lieferant ist nicht verfügbar.',
  reasonRequired: 'Bitte geben Sie einen Grund für die Ablehnung an.',
  customerNumberRequired: 'Bitte geben Sie die Kundennummer an.',
  /** Not quoted by the spec (only the failure is); wording of the web UI. */
  customerNumberSuccess: 'Ihre Kundennummer wurde erfolgreich übermittelt.',
} as const;
