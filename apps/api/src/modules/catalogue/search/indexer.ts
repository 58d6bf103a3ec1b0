/**
 * Builds the search document of a product: four weighted texts that Postgres turns into the
 * tsvector (A name, B brand and series, C category/type/feature values, D description).
 * Folding and decompounding happen here so the query side (query-analyser.ts) can mirror them.
 */
import type { CatalogueProduct } from '../catalogue.types.ts';
import { compoundParts } from './decompound.ts';
import { fold, foldedTokens } from './fold.ts';
import { STOP_WORDS } from './stopwords.ts';

export interface SearchDocument {
  a: string;
  b: string;
  c: string;
  d: string;
}

/** Folded text plus the compound parts of its words: "Thermostatventil" → "thermostatventil thermostat ventil". */
export function withCompoundParts(text: string): string {
  const tokens = foldedTokens(text);
  const parts = [...new Set(tokens.flatMap(compoundParts))];
  return parts.length ? `${fold(text)} ${parts.join(' ')}` : fold(text);
}

/** At most this many distinct description words are indexed (weight D). */
const DESCRIPTION_WORDS = 40;

/**
 * Weight A keeps the folded name as written (Postgres' parser also indexes hyphenated words as a
 * whole); C and D carry only words not already indexed above them, which keeps the vector narrow
 * and to_tsvector cheap on a million products.
 */
export function searchDocumentOf(
  p: Pick<
    CatalogueProduct,
    | 'productName'
    | 'modelNumber'
    | 'brandName'
    | 'series'
    | 'className'
    | 'leafName'
    | 'productType'
    | 'alphanumericValues'
    | 'productDescr'
  >,
): SearchDocument {
  const a = withCompoundParts([p.productName, p.modelNumber].filter(Boolean).join(' '));
  const b = fold([p.brandName, p.series].filter(Boolean).join(' '));
  const seen = new Set([...foldedTokens(a), ...foldedTokens(b)]);
  const novel = (tokens: string[], max = Infinity) => {
    const out: string[] = [];
    for (const t of tokens) {
      if (t.length < 2 || seen.has(t) || STOP_WORDS.has(t) || out.length >= max) continue;
      seen.add(t);
      out.push(t);
    }
    return out.join(' ');
  };
  const categoryTokens = foldedTokens(
    [p.className, p.leafName, p.productType, ...p.alphanumericValues].filter(Boolean).join(' '),
  );
  const c = novel([...categoryTokens, ...categoryTokens.flatMap(compoundParts)]);
  const d = novel(foldedTokens(p.productDescr ?? ''), DESCRIPTION_WORDS);
  return { a, b, c, d };
}
