import { z } from 'zod';

/** Punchout protocols (docs/punchout.md). */
export const punchoutProtocols = ['oci', 'cxml'] as const;
export type PunchoutProtocol = (typeof punchoutProtocols)[number];

/** OCI FUNCTION values the portal answers (empty = open the catalogue). */
export const ociFunctions = ['', 'DETAIL', 'VALIDATE', 'BACKGROUND_SEARCH'] as const;

/** cXML PunchOutSetupRequest operations. */
export const cxmlOperations = ['create', 'edit', 'inspect'] as const;

/**
 * What an OCI 5.0 customer field NEW_ITEM-CUST_FIELDn may carry ('' leaves the field out): a fixed text the buyer
 * sets, a value of the cart line (project, note) or of the offer.
 */
export const ociCustFieldSources = [
  '',
  'fixed',
  'project',
  'comment',
  'offerId',
  'supplierName',
  'manufacturerName',
  'minOrderQuantity',
  'total',
] as const;
export type OciCustFieldSource = (typeof ociCustFieldSources)[number];

/** The labels of the sources on 'Mein Profil'. */
export const ociCustFieldSourceLabels: Record<OciCustFieldSource, string> = {
  '': 'Nicht senden',
  fixed: 'Fester Wert',
  project: 'Projekt der Position (sonst des Warenkorbs)',
  comment: 'Notiz der Position',
  offerId: 'Angebotsnummer im Portal',
  supplierName: 'Name des Lieferanten',
  manufacturerName: 'Name des Herstellers',
  minOrderQuantity: 'Mindestbestellmenge',
  total: 'Positionswert netto',
};

/**
 * The lengths SAP's OCI gives NEW_ITEM-CUST_FIELD1…5 (CHAR 10, 10, 10, 20, 50): a fixed value may not be longer,
 * line and offer values are cut to them.
 */
export const OCI_CUST_FIELD_MAX_LENGTHS = [10, 10, 10, 20, 50] as const;

/** Largest body the punchout entries read (OCI form, cXML document). */
export const PUNCHOUT_MAX_BODY_BYTES = 1024 * 1024;
/** Lines BACKGROUND_SEARCH returns at most. */
export const OCI_BACKGROUND_SEARCH_LIMIT = 50;
/** A cXML StartPage may be opened once, within this time. */
export const CXML_START_PAGE_TTL_SECONDS = 5 * 60;

export const PunchoutCredentials = z
  .object({
    bpNumber: z.string(),
    ociEnabled: z.boolean(),
    ociUsername: z.string().nullable(),
    ociPasswordSet: z.boolean(),
    cxmlEnabled: z.boolean(),
    cxmlDomain: z.string().nullable(),
    cxmlIdentity: z.string().nullable(),
    cxmlSecretSet: z.boolean(),
    /** OCI 5.0: the source of CUST_FIELD1…5 (position = field number). */
    ociCustFields: z.array(z.enum(ociCustFieldSources)),
    /** OCI 5.0: the fixed text of a CUST_FIELDn whose source is 'fixed' ('' otherwise; position = field number). */
    ociCustFieldValues: z.array(z.string()),
  })
  .meta({ id: 'PunchoutCredentials' });
export type PunchoutCredentials = z.infer<typeof PunchoutCredentials>;

export const UpdatePunchoutCredentials = z
  .object({
    ociEnabled: z.boolean(),
    ociUsername: z.string().trim().min(1).max(100).nullable(),
    /** null keeps the stored password. */
    ociPassword: z.string().min(4).max(200).nullable(),
    cxmlEnabled: z.boolean(),
    cxmlDomain: z.string().trim().min(1).max(50).nullable(),
    cxmlIdentity: z.string().trim().min(1).max(100).nullable(),
    /** null keeps the stored shared secret. */
    cxmlSharedSecret: z.string().min(4).max(200).nullable(),
    /** Absent: keep the stored configuration. */
    ociCustFields: z.array(z.enum(ociCustFieldSources)).max(5).optional(),
    /** The fixed texts (position = field number; '' where the source is not 'fixed'). Absent: keep the stored ones. */
    ociCustFieldValues: z.array(z.string().max(200)).max(5).optional(),
  })
  .meta({ id: 'UpdatePunchoutCredentials' });

export const PunchoutSessionSummary = z
  .object({
    contextId: z.string(),
    protocol: z.enum(punchoutProtocols),
    operation: z.string().nullable(),
    bpNumber: z.string(),
    partnerName: z.string().nullable(),
    userEmail: z.string(),
    createdAt: z.string(),
    returnedAt: z.string().nullable(),
    linesReturned: z.number().int().nullable(),
  })
  .meta({ id: 'PunchoutSessionSummary' });
