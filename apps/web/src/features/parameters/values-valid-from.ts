/** The values still valid on or after `from` (no end date, or an end on or after it); all without a start. */
export function valuesValidFrom<T extends { validTo: string | null }>(rows: readonly T[], from: string): T[] {
  return from ? rows.filter((v) => !v.validTo || v.validTo >= from) : [...rows];
}
