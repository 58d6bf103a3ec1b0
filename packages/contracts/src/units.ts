/**
 * Quantity units: UN/ECE Recommendation 20 codes (the codes EDIFACT QTY/PRI, BMEcat and the catalogue carry)
 * and the German short names the order document, the supplier mails and the UI print. One table for all
 * of them, so '3 C62' is printed nowhere and an EDIFACT partner reads the same unit the buyer saw. The
 * catalogue's `units` rows (migration 0004, caret for superscript) name the same codes alike; codes a
 * catalogue import brings beyond this table are shown with the catalogue's name.
 */
export const UNIT_NAMES: Readonly<Record<string, string>> = {
  // pieces and packings (PCE, PR, SET, … are the older Recommendation 20 codes many catalogues still use)
  C62: 'Stk',
  H87: 'Stk',
  PCE: 'Stk',
  EA: 'Stk',
  PR: 'Paar',
  SET: 'Satz',
  PK: 'Pkg',
  RO: 'Rolle',
  CT: 'Karton',
  BX: 'Kiste',
  BG: 'Beutel',
  DZN: 'Dutzend',
  // length, area, volume
  MMT: 'mm',
  CMT: 'cm',
  DMT: 'dm',
  MTR: 'm',
  KMT: 'km',
  CMK: 'cm²',
  MTK: 'm²',
  DMQ: 'dm³',
  MTQ: 'm³',
  MLT: 'ml',
  LTR: 'l',
  // mass
  GRM: 'g',
  KGM: 'kg',
  TNE: 't',
  // time
  MIN: 'min',
  HUR: 'h',
  DAY: 'Tag',
  // technical units of product features
  BAR: 'bar',
  WTT: 'W',
  KWT: 'kW',
  VLT: 'V',
  CEL: '°C',
  DD: '°',
  L2: 'l/min',
  MQH: 'm³/h',
  '2N': 'dB(A)',
};

/**
 * German unit spellings that older catalogues (DATANORM, supplier exports) carry instead of the code;
 * EDIFACT partners expect the Recommendation 20 code.
 */
const UNIT_ALIASES: Readonly<Record<string, string>> = {
  STK: 'C62',
  STCK: 'C62',
  ST: 'C62',
  STÜCK: 'C62',
  M: 'MTR',
  LFM: 'MTR',
  CM: 'CMT',
  MM: 'MMT',
  M2: 'MTK',
  QM: 'MTK',
  M3: 'MTQ',
  KG: 'KGM',
  G: 'GRM',
  L: 'LTR',
  PAAR: 'PR',
  PKG: 'PK',
  SATZ: 'SET',
  ROLLE: 'RO',
};

/** The Recommendation 20 code of a stored unit (pieces when none is stored). */
export function unitCodeOf(code: string | null | undefined): string {
  const trimmed = code?.trim();
  if (!trimmed) return 'C62';
  return UNIT_NAMES[trimmed] ? trimmed : (UNIT_ALIASES[trimmed.toUpperCase()] ?? trimmed);
}

/** German short name of a unit ('Stk', 'm', 'kg'); an unknown code is printed as it is. */
export function unitName(code: string | null | undefined): string {
  const rec20 = unitCodeOf(code);
  return UNIT_NAMES[rec20] ?? rec20;
}

/** '3 Stk', '2,5 m': a quantity with its German unit name. */
export function quantityWithUnit(quantity: string, code: string | null | undefined): string {
  return `${quantity} ${unitName(code)}`;
}
