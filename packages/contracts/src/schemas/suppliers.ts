import { z } from 'zod';
import { messages } from '../messages.ts';
import { limits } from '../limits.ts';
import { CommunicationProtocol, SupplierStatus, workflowProtocols } from '../statuses.ts';
import { EMAIL_PATTERN } from './profile.ts';

/** German texts of supplier management (seller-staff-side.md §4, §5, §8; where the spec is silent, ours). */
export const supplierMessages = {
  partnerExists: 'Geschäftspartner existiert bereits!',
  partnerNotFound: 'Geschäftspartner nicht gefunden!',
  activeNeedsLogo: 'Bitte fügen Sie zunächst ein Logo hinzu, oder ändern den Status',
  reloadAndRetry: 'Bitte laden Sie die Seite neu und versuchen es erneut.',
  fileFormat: 'Bitte überprüfen Sie das Format Ihrer Datei.',
  maxFileCount: 'Bitte laden Sie nur eine Datei hoch.',
  maxFileSize: (mb: number) => `Bitte überprüfen Sie die Dateigröße, maximal ${mb} MB.`,
  /** The spec names the rule, not its text. */
  integrationIncomplete: 'Der Status kann erst geändert werden, wenn die Produktdaten-Integration abgeschlossen ist.',
  templateRequired: 'Bitte laden Sie zunächst ein Neukundenformular hoch.',
  updateInvalid: 'Die Lieferantendaten sind ungültig.',
  updateSuccess: 'Die Lieferantendaten wurden gespeichert.',
  updateFailure: 'Die Lieferantendaten konnten nicht gespeichert werden. Bitte versuchen Sie es später erneut.',
  addSuccess: 'Der Lieferant wurde angelegt.',
  addFailure: 'Der Lieferant konnte nicht angelegt werden. Bitte versuchen Sie es später erneut.',
  logoSuccess: 'Das Logo wurde gespeichert.',
  logoRemoved: 'Das Logo wurde entfernt.',
  logoFailure: 'Das Logo konnte nicht gespeichert werden. Bitte versuchen Sie es später erneut.',
  templateSuccess: 'Das Neukundenformular wurde gespeichert.',
  templateRemoved: 'Das Neukundenformular wurde entfernt.',
  templateFailure: 'Das Neukundenformular konnte nicht gespeichert werden. Bitte versuchen Sie es später erneut.',
  /** 403 on logo and template calls for everybody but administrators. */
  notAuthorised: 'Sie sind nicht berechtigt, Lieferantendaten zu ändern.',
} as const;

/** File limits of §5 and §9: one file each; size in bytes. */
export const supplierFileLimits = {
  logo: { maxBytes: 1024 * 1024, maxMb: 1, extensions: ['svg', 'png', 'jpg', 'jpeg'] },
  template: { maxBytes: 25 * 1024 * 1024, maxMb: 25, extensions: ['pdf'] },
} as const;

export const supplierStatusLabels: Record<number, string> = {
  [SupplierStatus.Active]: 'Aktiv',
  [SupplierStatus.NonActive]: 'Inaktiv',
  [SupplierStatus.InCommunicationTest]: 'Im Kommunikationstest',
};

export const communicationProtocolNames: Record<number, string> = {
  1: 'Email',
  2: 'Sftp',
  3: 'As2',
  4: 'Http',
  5: 'Ftp',
  6: 'Api',
};
/** German display names of the protocols (transmission log, reports). */
export const communicationProtocolLabels: Record<number, string> = {
  1: 'E-Mail',
  2: 'SFTP',
  3: 'AS2',
  4: 'HTTP',
  5: 'FTP',
  6: 'API',
};
export const communicationDataFormatNames: Record<number, string> = { 1: 'Pdf', 2: 'Edi_96A', 3: 'Edi_97A' };
/** German display names of the data formats (the spec's ids 1–3; the names above are the API's). */
export const communicationDataFormatLabels: Record<number, string> = {
  1: 'PDF',
  2: 'EDIFACT D.96A',
  3: 'EDIFACT D.97A',
};

export const NamedId = z.object({ id: z.number().int(), name: z.string() }).meta({ id: 'NamedId' });

const trimmed = (max = 254) => z.string().trim().max(max, messages.maxChars(max));
/** Empty strings from a form mean "not set". */
const optionalText = (max = 254) =>
  trimmed(max)
    .nullish()
    .transform((v) => (v ? v : null));

const isSingleEmail = (v: string) => EMAIL_PATTERN.test(v);
/** 'a@x.de; b@y.de' – the separator is a semicolon (§5). */
export const splitEmailList = (v: string) =>
  v
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
const isEmailList = (v: string) => {
  const parts = v.split(';').map((s) => s.trim());
  return parts.length > 0 && parts.every((p) => isSingleEmail(p));
};

/** One message per field: 'Pflichtfeld' when empty, else the address check. */
const requiredSingleEmail = z
  .string({ error: messages.required })
  .trim()
  .superRefine((v, ctx) => {
    if (!v) ctx.addIssue({ code: 'custom', message: messages.required });
    else if (v.length > 254 || !isSingleEmail(v)) ctx.addIssue({ code: 'custom', message: messages.checkInput });
  });

const protocolId = z.number({ error: messages.required }).int().min(1, messages.checkInput).max(6, messages.checkInput);
const dataFormats = z
  .array(z.number().int().min(1, messages.checkInput).max(3, messages.checkInput))
  .min(1, messages.required)
  .max(3)
  .transform((list) => [...new Set(list)].sort());

export const InboundInterface = z.object({ communicationProtocolId: protocolId, dataFormats });
export const OutboundInterface = z.object({
  communicationProtocolId: protocolId,
  dataFormats,
  emailAddress: optionalText(2000),
  ftpFolder: optionalText(500),
  as2Identifier: optionalText(200),
  as2Url: optionalText(500),
});

/**
 * The supplier settings form (§3) and every rule of §5 that the input alone decides. The API validates
 * PUT/POST bodies with it and the SPA's form uses it as its resolver: one schema, one set of messages.
 */
export const SupplierSettingsInput = z
  .object({
    supplierBusinessPartnerNo: z.string().trim().min(1, messages.required).max(20),
    supplierStatusId: z.union([z.literal(1), z.literal(2), z.literal(3)], { error: messages.checkInput }),
    requiredOnboardingForm: z.boolean(),
    contactPersonName: z.string({ error: messages.required }).trim().min(1, messages.required).max(200),
    contactPersonPhone: optionalText(50),
    contactPersonEmail: requiredSingleEmail,
    gln: optionalText(13),
    headquarterGln: optionalText(13),
    inboundInterface: InboundInterface,
    outboundInterface: OutboundInterface,
    workflowId: z.number().int().positive().nullish(),
    showSupplierNote: z.boolean(),
    supplierNote: optionalText(limits.supplierNote),
    deliveryCost: z.number({ error: messages.checkInput }).min(0, messages.checkInput).max(100_000),
    freeDeliveryThreshold: z.number({ error: messages.checkInput }).min(0, messages.checkInput).max(10_000_000),
    ordersSummaryEmail: optionalText(2000),
    customerOnboardingEmail: requiredSingleEmail,
    newCustomerOnboardingEmail: requiredSingleEmail,
    hideGrossPrice: z.boolean(),
    hideAdditionalInfo: z.boolean(),
  })
  .superRefine((s, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    if (s.showSupplierNote && !s.supplierNote) issue(['supplierNote'], messages.required);
    if (s.ordersSummaryEmail && !isEmailList(s.ordersSummaryEmail)) issue(['ordersSummaryEmail'], messages.checkInput);
    const out = s.outboundInterface;
    if (out.emailAddress && !isEmailList(out.emailAddress))
      issue(['outboundInterface', 'emailAddress'], messages.checkInput);
    if (out.communicationProtocolId === CommunicationProtocol.Email && !out.emailAddress)
      issue(['outboundInterface', 'emailAddress'], messages.required);
    if (workflowProtocols.includes(out.communicationProtocolId)) {
      if (!out.ftpFolder) issue(['outboundInterface', 'ftpFolder'], messages.required);
      if (!s.workflowId) issue(['workflowId'], messages.required);
    }
    if (out.communicationProtocolId === CommunicationProtocol.As2) {
      if (!out.as2Identifier) issue(['outboundInterface', 'as2Identifier'], messages.required);
      if (!out.as2Url) issue(['outboundInterface', 'as2Url'], messages.required);
      else if (!/^https?:\/\/\S+$/i.test(out.as2Url)) issue(['outboundInterface', 'as2Url'], messages.checkInput);
      // The AS2 workflow holds the partner's certificate (encryption, MDN verification) and the MDN mode.
      if (!s.workflowId) issue(['workflowId'], messages.required);
    }
  });
export type SupplierSettingsInput = z.input<typeof SupplierSettingsInput>;
export type SupplierSettingsValues = z.output<typeof SupplierSettingsInput>;

/** What the stored supplier adds to the input: the rules that need it (§4 and §5). */
export interface SupplierState {
  currentStatusId: number;
  hasLogo: boolean;
  hasTemplate: boolean;
  /** ItekIntegrationInfo: integration status 1 (active) means the product data integration is complete. */
  integrationComplete: boolean;
}

/** The state-dependent rules, shared by the API (authoritative) and the form (early feedback). */
export function supplierStateIssues(
  input: Pick<SupplierSettingsValues, 'supplierStatusId' | 'requiredOnboardingForm'>,
  state: SupplierState,
): { field: string; message: string }[] {
  const issues: { field: string; message: string }[] = [];
  const statusChanges = input.supplierStatusId !== state.currentStatusId;
  if (statusChanges && !state.integrationComplete)
    issues.push({ field: 'supplierStatusId', message: supplierMessages.integrationIncomplete });
  // The rule guards the step to Active; removing the logo of an active supplier is refused separately.
  else if (statusChanges && input.supplierStatusId === SupplierStatus.Active && !state.hasLogo)
    issues.push({ field: 'supplierStatusId', message: supplierMessages.activeNeedsLogo });
  if (input.requiredOnboardingForm && !state.hasTemplate)
    issues.push({ field: 'requiredOnboardingForm', message: supplierMessages.templateRequired });
  return issues;
}

/** Defaults of a new supplier (§3). */
export const newSupplierDefaults = {
  supplierStatusId: SupplierStatus.NonActive,
  requiredOnboardingForm: false,
  deliveryCost: 0,
  freeDeliveryThreshold: 0,
  hideGrossPrice: false,
  hideAdditionalInfo: false,
  showSupplierNote: false,
  inboundInterface: { communicationProtocolId: 1, dataFormats: [1] },
  outboundInterface: { communicationProtocolId: 1, dataFormats: [1] },
} as const;

export const SupplierSettings = z
  .object({
    supplierBusinessPartnerNo: z.string(),
    name: z.string(),
    supplierStatusId: z.number().int(),
    requiredOnboardingForm: z.boolean(),
    logoFileName: z.string().nullable(),
    logoUrl: z.string().nullable(),
    onboardingFormTemplateFileName: z.string().nullable(),
    contactPersonName: z.string().nullable(),
    contactPersonPhone: z.string().nullable(),
    contactPersonEmail: z.string().nullable(),
    gln: z.string().nullable(),
    headquarterGln: z.string().nullable(),
    inboundInterface: z.object({ communicationProtocolId: z.number().int(), dataFormats: z.array(z.number().int()) }),
    outboundInterface: z.object({
      communicationProtocolId: z.number().int(),
      dataFormats: z.array(z.number().int()),
      emailAddress: z.string().nullable(),
      ftpFolder: z.string().nullable(),
      as2Identifier: z.string().nullable(),
      as2Url: z.string().nullable(),
    }),
    workflowId: z.number().int().nullable(),
    showSupplierNote: z.boolean(),
    supplierNote: z.string().nullable(),
    deliveryCost: z.number(),
    freeDeliveryThreshold: z.number(),
    ordersSummaryEmail: z.string().nullable(),
    customerOnboardingEmail: z.string().nullable(),
    newCustomerOnboardingEmail: z.string().nullable(),
    hideGrossPrice: z.boolean(),
    hideAdditionalInfo: z.boolean(),
    integrationComplete: z.boolean(),
  })
  .meta({ id: 'SupplierSettings' });
export type SupplierSettings = z.infer<typeof SupplierSettings>;

export const SupplierListItem = z
  .object({
    supplierBusinessPartnerNo: z.string(),
    name: z.string(),
    supplierStatusId: z.number().int(),
    logoUrl: z.string().nullable(),
  })
  .meta({ id: 'SupplierListItem' });
export type SupplierListItem = z.infer<typeof SupplierListItem>;

export const supplierSortFields = ['name', 'bpNumber', 'status'] as const;
export const SupplierListQuery = z.object({
  Page: z.coerce.number().int().min(1).max(100_000).default(1),
  PageSize: z.coerce.number().int().min(1).max(100).default(25),
  /** Substring of the name or the partner number. */
  Name: z.string().trim().max(100).optional(),
  /** Exact names (the dashboard passes several). */
  Names: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v])),
  StatusId: z.coerce.number().int().min(1).max(3).optional(),
  SortBy: z.enum(supplierSortFields).default('name'),
  SortDirection: z.enum(['asc', 'desc']).default('asc'),
});

export const PagedSuppliers = z
  .object({
    items: z.array(SupplierListItem),
    currentPage: z.number().int(),
    pageSize: z.number().int(),
    totalCount: z.number().int(),
    totalPages: z.number().int(),
  })
  .meta({ id: 'PagedSuppliers' });

/** The add flow's check: the master data of a partner that may become a supplier. */
export const SupplierCandidate = z
  .object({ businessPartnerNo: z.string(), name: z.string(), city: z.string().nullable() })
  .meta({ id: 'SupplierCandidate' });

export const SupplierChange = z
  .object({
    id: z.number().int(),
    changedAt: z.string(),
    changedBy: z.string(),
    field: z.string(),
    oldValue: z.string().nullable(),
    newValue: z.string().nullable(),
  })
  .meta({ id: 'SupplierChange' });
export type SupplierChange = z.infer<typeof SupplierChange>;

/** The seller's read-only interfaces panel on /profil. */
export const SupplierInterfaces = z
  .object({
    supplierBusinessPartnerNo: z.string(),
    name: z.string(),
    gln: z.string().nullable(),
    supplierStatusId: z.number().int(),
    inboundInterface: z.object({ communicationProtocolId: z.number().int(), dataFormats: z.array(z.number().int()) }),
    outboundInterface: z.object({ communicationProtocolId: z.number().int(), dataFormats: z.array(z.number().int()) }),
  })
  .meta({ id: 'SupplierInterfaces' });

/** AS2 encryption of messages to the partner (CMS EnvelopedData, RFC 5751). */
export const as2Encryptions = ['none', 'aes128', 'aes256'] as const;
export type As2Encryption = (typeof as2Encryptions)[number];
export const as2EncryptionLabels: Record<As2Encryption, string> = {
  none: 'Keine (nur signiert)',
  aes128: 'AES-128-CBC',
  aes256: 'AES-256-CBC',
};
export const as2MdnModes = ['sync', 'async'] as const;
export type As2MdnMode = (typeof as2MdnModes)[number];
export const as2MdnModeLabels: Record<As2MdnMode, string> = {
  sync: 'Synchron (in der Antwort)',
  async: 'Asynchron (an unsere MDN-Adresse)',
};

/** Administrators' input for a connection profile (workflow); secrets are write-only. */
export const WorkflowInput = z
  .object({
    name: z.string({ error: messages.required }).trim().min(1, messages.required).max(100, messages.maxChars(100)),
    communicationProtocol: z.union([z.literal(2), z.literal(3), z.literal(4), z.literal(5), z.literal(6)], {
      error: messages.checkInput,
    }),
    host: optionalText(255),
    port: z.number().int().min(1, messages.checkInput).max(65535, messages.checkInput).nullish(),
    userName: optionalText(100),
    baseUrl: optionalText(500),
    timeoutMs: z.number().int().min(1000).max(120_000).optional(),
    /** Omitted: keep the stored secret; null: remove it. */
    password: z.string().max(500).nullish(),
    privateKey: z.string().max(20_000).nullish(),
    /** AS2: how messages are encrypted to the partner's certificate (RFC 5751 AES-CBC). */
    as2Encryption: z.enum(as2Encryptions, { error: messages.checkInput }).optional(),
    /** AS2: the MDN on the same HTTP connection (sync) or later to our MDN URL (async). */
    as2MdnMode: z.enum(as2MdnModes, { error: messages.checkInput }).optional(),
    /** AS2: the partner's X.509 certificate as PEM text or base64 DER. Omitted: keep; null: remove. */
    partnerCertificate: z.string().max(40_000).nullish(),
  })
  .superRefine((w, ctx) => {
    const needsHost =
      w.communicationProtocol === CommunicationProtocol.Sftp || w.communicationProtocol === CommunicationProtocol.Ftp;
    if (needsHost && !w.host) ctx.addIssue({ code: 'custom', path: ['host'], message: messages.required });
    // AS2 sends to the supplier's AS2 URL (supplier settings); the workflow carries the partner's certificate.
    if (w.partnerCertificate && w.communicationProtocol !== CommunicationProtocol.As2)
      ctx.addIssue({ code: 'custom', path: ['partnerCertificate'], message: messages.checkInput });
    if (!needsHost && w.communicationProtocol !== CommunicationProtocol.As2) {
      if (!w.baseUrl) ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: messages.required });
      else if (!/^https?:\/\/\S+$/i.test(w.baseUrl))
        ctx.addIssue({ code: 'custom', path: ['baseUrl'], message: messages.checkInput });
    }
    if (w.privateKey && w.communicationProtocol !== CommunicationProtocol.Sftp)
      ctx.addIssue({ code: 'custom', path: ['privateKey'], message: messages.checkInput });
  });
export type WorkflowInput = z.input<typeof WorkflowInput>;

/** An SSH host key as 'Verbindung testen' saw it, beside the one pinned for the workflow's host and port. */
export const HostKeyCheck = z
  .object({
    /** SHA256 fingerprint the server presented ('SHA256:…', as ssh-keygen -l prints it). */
    fingerprint: z.string(),
    /** The pinned fingerprint, null when none is stored yet. */
    pinned: z.string().nullable(),
    /** new: nothing pinned yet · unconfirmed: pinned by a delivery, not yet confirmed · match · changed */
    status: z.enum(['new', 'unconfirmed', 'match', 'changed']),
  })
  .meta({ id: 'HostKeyCheck' });

export const WorkflowTestResult = z
  .object({
    ok: z.boolean(),
    message: z.string(),
    durationMs: z.number().int(),
    hostKey: HostKeyCheck.nullable().optional(),
  })
  .meta({ id: 'WorkflowTestResult' });

/** Staff confirm the fingerprint 'Verbindung testen' showed (or accept a changed one). */
export const HostKeyConfirmation = z
  .object({ fingerprint: z.string().regex(/^SHA256:[A-Za-z0-9+/]{43}$/, { message: 'Ungültiger Fingerabdruck' }) })
  .meta({ id: 'HostKeyConfirmation' });
export type WorkflowTestResult = z.infer<typeof WorkflowTestResult>;

export const workflowMessages = {
  saved: 'Der Workflow wurde gespeichert.',
  deleted: 'Der Workflow wurde gelöscht.',
  inUse: (suppliers: string) => `Der Workflow wird noch von Lieferanten verwendet: ${suppliers}`,
  testOk: 'Verbindung erfolgreich hergestellt.',
  testFailed: (reason: string) => `Verbindung fehlgeschlagen: ${reason}`,
  hostKeyNew: (fingerprint: string) =>
    `Der Server zeigt den Hostschlüssel ${fingerprint}. Bitte mit dem Lieferanten abgleichen und bestätigen.`,
  hostKeyUnconfirmed: (fingerprint: string) =>
    `Hostschlüssel ${fingerprint} wurde bei der ersten Lieferung gespeichert und ist noch nicht bestätigt.`,
  hostKeyChanged: (pinned: string, presented: string) =>
    `Der Hostschlüssel des SFTP-Servers hat sich geändert: hinterlegt ist ${pinned}, der Server zeigt ${presented}. Nur annehmen, wenn der Lieferant den neuen Schlüssel bestätigt.`,
  hostKeyConfirmed: 'Der Hostschlüssel wurde bestätigt und gespeichert.',
  hostKeyConfirm: 'Fingerabdruck bestätigen',
  hostKeyAccept: 'Neuen Schlüssel annehmen',
  hostKeyNotSftp: 'Hostschlüssel gibt es nur bei SFTP-Workflows.',
  failure: 'Der Workflow konnte nicht gespeichert werden. Bitte versuchen Sie es später erneut.',
  certificateUnreadable:
    'Das Zertifikat konnte nicht gelesen werden. Erwartet wird ein X.509-Zertifikat als PEM- oder DER-Datei.',
  as2NeedsCertificate: 'Ein AS2-Workflow braucht das Zertifikat des Partners.',
} as const;
