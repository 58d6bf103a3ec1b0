/** German reason when a GTIN/EAN is malformed (length 8, 12, 13 or 14 digits with a valid check digit). */
export function gtinError(gtin: string): string | null {
  if (!/^\d{8}$|^\d{12,14}$/.test(gtin))
    return `Die GTIN „${gtin}“ hat kein gültiges Format (8, 12, 13 oder 14 Ziffern).`;
  const digits = [...gtin].map(Number);
  const check = digits.pop()!;
  const sum = digits.reverse().reduce((s, d, i) => s + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check ? null : `Die GTIN „${gtin}“ hat eine ungültige Prüfziffer.`;
}
