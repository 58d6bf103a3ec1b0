/**
 * Fields a product can do without: a value that is invalid or too long costs the product only that value. Only a
 * missing identity (supplier article number, short description) or a missing required price rejects a product (the
 * parsers set `error` for those); everything here is imported with the value left out, cut or defaulted, and the
 * import lists a warning.
 */
import { CATALOGUE_IMPORT_TEXT_LIMITS, catalogueImportMessages as m } from '@shk/contracts';
import type { ImportedArticle } from './import.types.ts';

/** The portal's unit when a file's order unit is unknown: piece. */
export const DEFAULT_UNIT = 'C62';
/** An ETIM class code: EC and six digits (ETIM 4–9). */
const ETIM_CLASS = /^EC\d{6}$/i;

/** Checks the optional fields of `a` (not rejected) in place; its warnings are added to `a.warnings`. */
export function checkOptionalFields(a: ImportedArticle, knownUnits: ReadonlySet<string>) {
  if (a.orderUnit && !knownUnits.has(a.orderUnit)) {
    a.warnings.push(m.unknownUnit(a.orderUnit));
    a.orderUnit = DEFAULT_UNIT;
  }
  if (a.etimClass && !ETIM_CLASS.test(a.etimClass)) {
    a.warnings.push(m.unknownEtimClass(a.etimClass));
    a.etimClass = null;
    a.features = [];
  }
  const limits = CATALOGUE_IMPORT_TEXT_LIMITS;
  a.shortDescription = cut(a, a.shortDescription, limits.shortDescription, 'Die Kurzbeschreibung');
  a.longDescription = cut(a, a.longDescription, limits.longDescription, 'Die Langbeschreibung');
  a.manufacturerTypeDescr = cut(a, a.manufacturerTypeDescr, limits.manufacturerTypeDescr, 'Die Typbezeichnung');
  a.keywords = a.keywords.map((k) => cut(a, k, limits.keyword, 'Ein Suchbegriff')!);
}

/** A text longer than `limit` characters (code points) is cut there, with a warning naming the field. */
function cut(a: ImportedArticle, text: string | null, limit: number, field: string): string | null {
  if (text === null || text.length <= limit) return text;
  const chars = [...text];
  if (chars.length <= limit) return text;
  a.warnings.push(m.textCut(field, limit));
  return chars.slice(0, limit).join('').trimEnd();
}
