import { z } from 'zod';
import { messages } from '../messages.ts';
import { CustomParameterType } from '../statuses.ts';
import { EMAIL_PATTERN } from './profile.ts';

/** German texts of /parameter (§2, §5, §8; where the spec is silent, ours). */
export const parameterMessages = {
  title: 'Zugeschnittene Parameter',
  invalidValue: 'Der Wert ist ungültig.',
  notInteger: 'Bitte geben Sie eine ganze Zahl ein.',
  notNumber: 'Bitte geben Sie eine Zahl ein.',
  notDate: 'Bitte geben Sie ein Datum im Format JJJJ-MM-TT ein.',
  notEmail: 'Bitte geben Sie eine gültige E-Mail-Adresse ein.',
  rangeOrder: 'Das Startdatum darf nicht nach dem Enddatum liegen.',
  overlap: 'Der Gültigkeitszeitraum überschneidet sich mit einem anderen Wert dieses Parameters.',
  maxValues: (n: number) => `Dieser Parameter erlaubt höchstens ${n} gleichzeitig gültige Werte.`,
  wholeNumberMin: (min: number) => `Bitte geben Sie eine ganze Zahl ab ${min} ein.`,
  wholeNumberRange: (min: number, max: number) => `Bitte geben Sie eine ganze Zahl von ${min} bis ${max} ein.`,
  sizeInMb: 'Bitte geben Sie die Größe in MB als Zahl größer 0 (höchstens 100) ein.',
  extensionList: 'Bitte geben Sie Dateiendungen ohne Punkt, durch Kommas getrennt, ein (z. B. pdf,png,jpg).',
  partnerList: 'Bitte geben Sie Geschäftspartnernummern durch Kommas getrennt ein.',
  partnerNumber: 'Bitte geben Sie eine Geschäftspartnernummer ein.',
  booleanValue: 'Bitte geben Sie true oder false ein.',
  urlValue: 'Bitte geben Sie eine Adresse ein, die mit https:// (oder http://) oder / beginnt.',
  absoluteUrl: 'Bitte geben Sie eine Adresse ein, die mit https:// (oder http://) beginnt.',
  manufacturerId: 'Bitte geben Sie eine Hersteller-ID ohne Leerzeichen und ohne „~“ ein.',
  secretLength: 'Das Client-Secret muss mindestens 16 Zeichen lang sein.',
  saved: 'Der Wert wurde gespeichert.',
  deleted: 'Der Wert wurde gelöscht.',
  deleteQuestion: 'Möchten Sie diesen Wert wirklich löschen?',
  failure: 'Die Änderung konnte nicht gespeichert werden. Bitte versuchen Sie es später erneut.',
} as const;

export const parameterTypeLabels: Record<number, string> = {
  [CustomParameterType.Integer]: 'Ganzzahl',
  [CustomParameterType.Number]: 'Zahl',
  [CustomParameterType.Varchar]: 'Text',
  [CustomParameterType.Date]: 'Datum',
  [CustomParameterType.Email]: 'E-Mail-Adresse',
  [CustomParameterType.Secret]: 'Geheimnis',
};

/** How a secret value is shown (list and edit): masked, whatever its length. */
export const SECRET_MASK = '••••••••';

export const secretParameterMessages = {
  hint: 'Geheimnis: Der gespeicherte Wert wird nie angezeigt. Lassen Sie das Feld leer, um ihn zu behalten.',
  placeholder: 'Neuen Wert eingeben (leer lassen: unverändert)',
} as const;

export const isSecretParameter = (typeId: number) => typeId === CustomParameterType.Secret;

const isoDate = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar day (Date would roll 2025-02-30 over into March). */
const validDate = (v: string) => {
  if (!isoDate.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

/** A value checked against the parameter's type (§4: Integer 1, Number 2, Varchar 3, Date 4, Email 5). */
export function typeIssue(typeId: number, value: string): string | null {
  switch (typeId) {
    case CustomParameterType.Integer:
      return /^-?\d{1,15}$/.test(value) ? null : parameterMessages.notInteger;
    case CustomParameterType.Number:
      return /^-?\d{1,15}([.,]\d+)?$/.test(value) ? null : parameterMessages.notNumber;
    case CustomParameterType.Date:
      return validDate(value) ? null : parameterMessages.notDate;
    case CustomParameterType.Email:
      return EMAIL_PATTERN.test(value) ? null : parameterMessages.notEmail;
    default:
      return null;
  }
}

const wholeNumber =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (v: string) => {
    const ok = /^\d{1,9}$/.test(v) && Number(v) >= min && Number(v) <= max;
    if (ok) return null;
    return max === Number.MAX_SAFE_INTEGER
      ? parameterMessages.wholeNumberMin(min)
      : parameterMessages.wholeNumberRange(min, max);
  };
const listOf = (item: RegExp, message: string) => (v: string) => {
  const parts = v
    .split(/[,;\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return parts.length && parts.every((p) => item.test(p)) ? null : message;
};

/**
 * What each feature setting the product enforces needs (buyer-side.md §7, seller-staff-side.md §7); the
 * key's type alone (all are Varchar) would let '0' or 'abc' through to the services that read them.
 */
export const featureSettingRules: Record<string, (value: string) => string | null> = {
  MaxCartCount: wholeNumber(1),
  AttachmentsMaxFilesCount: wholeNumber(1, 100),
  AttachmentsMaxFileSize: (v) =>
    /^\d{1,3}([.,]\d{1,2})?$/.test(v) && Number(v.replace(',', '.')) > 0 && Number(v.replace(',', '.')) <= 100
      ? null
      : parameterMessages.sizeInMb,
  AttachmentsAllowedFileFormats: listOf(/^\.?[a-z0-9]{1,10}$/i, parameterMessages.extensionList),
  NoteOfUseAllowedSuppliers: listOf(/^\d{1,20}$/, parameterMessages.partnerList),
  ManufacturerBannerSupplier: (v) => (/^\d{1,20}$/.test(v) ? null : parameterMessages.partnerNumber),
  KitchenConfiguratorSupplier: (v) => (/^\d{1,20}$/.test(v) ? null : parameterMessages.partnerNumber),
  KitchenConfiguratorUrl: (v) => (/^https?:\/\/[^\s]+$/i.test(v) ? null : parameterMessages.absoluteUrl),
  KitchenConfiguratorClientSecret: (v) => (v.length >= 16 ? null : parameterMessages.secretLength),
  IntroductoryVideoManufacturer: (v) => (/^[^~\s]{1,100}$/.test(v) ? null : parameterMessages.manufacturerId),
  IntroductoryVideoUrl: (v) => (/^(https?:\/\/|\/)[^\s]*$/i.test(v) ? null : parameterMessages.urlValue),
  VideoHelpWidgetScriptUrl: (v) => (/^(https?:\/\/|\/)[^\s]*$/i.test(v) ? null : parameterMessages.urlValue),
  NonProductPromotionSlide: (v) => (/^(true|false)$/i.test(v) ? null : parameterMessages.booleanValue),
  SupplierOrderConfirmationWindowHours: wholeNumber(1, 168),
  ReportRetentionDays: wholeNumber(1, 3650),
};

/** Every rule a single value must meet by itself: required, its type, its key's needs, the date order. */
export function valueIssues(
  key: string,
  typeId: number,
  v: { value: string; validFrom?: string | null; validTo?: string | null },
): string[] {
  const issues: string[] = [];
  const value = v.value.trim();
  if (!value) return [messages.required];
  const byType = typeIssue(typeId, value);
  if (byType) issues.push(byType);
  const byKey = featureSettingRules[key]?.(value);
  if (byKey && !byType) issues.push(byKey);
  if (v.validFrom && !validDate(v.validFrom)) issues.push(parameterMessages.notDate);
  else if (v.validTo && !validDate(v.validTo)) issues.push(parameterMessages.notDate);
  else if (v.validFrom && v.validTo && v.validFrom > v.validTo) issues.push(parameterMessages.rangeOrder);
  return issues;
}

/** Whether two validity ranges share a day; a missing date is open-ended. */
export function rangesOverlap(
  a: { validFrom?: string | null; validTo?: string | null },
  b: { validFrom?: string | null; validTo?: string | null },
): boolean {
  const aFrom = a.validFrom ?? '0000-01-01';
  const aTo = a.validTo ?? '9999-12-31';
  const bFrom = b.validFrom ?? '0000-01-01';
  const bTo = b.validTo ?? '9999-12-31';
  return aFrom <= bTo && bFrom <= aTo;
}

const optionalDate = z
  .string()
  .max(10)
  .nullish()
  .transform((v) => (v ? v : null));

export const CustomParameterValueInput = z.object({
  value: z.string({ error: messages.required }).max(4000, messages.maxChars(4000)),
  validFrom: optionalDate,
  validTo: optionalDate,
});
export type CustomParameterValueInput = z.input<typeof CustomParameterValueInput>;

export const CustomParameterValue = z
  .object({
    id: z.number().int(),
    /** Null for a parameter of type Geheimnis (6): its values are write-only and never returned. */
    value: z.string().nullable(),
    validFrom: z.string().nullable(),
    validTo: z.string().nullable(),
  })
  .meta({ id: 'CustomParameterValue' });
export type CustomParameterValue = z.infer<typeof CustomParameterValue>;

export const CustomParameterSummary = z
  .object({
    key: z.string(),
    description: z.string(),
    typeId: z.number().int(),
    maxValueCount: z.number().int(),
    isPublic: z.boolean(),
  })
  .meta({ id: 'CustomParameterSummary' });
export type CustomParameterSummary = z.infer<typeof CustomParameterSummary>;

export const CustomParameter = CustomParameterSummary.extend({ values: z.array(CustomParameterValue) }).meta({
  id: 'CustomParameter',
});
export type CustomParameter = z.infer<typeof CustomParameter>;

/** The toast of a failed parameter call (§8): detail titles joined by '. ', else the main title. */
export function problemToast(problem: { title?: string; errors?: { message: string }[] } | null | undefined) {
  const details = problem?.errors?.map((e) => e.message).filter(Boolean) ?? [];
  return details.length ? details.join('. ') : (problem?.title ?? parameterMessages.failure);
}
