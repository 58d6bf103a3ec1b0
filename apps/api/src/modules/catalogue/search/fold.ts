/**
 * Folding shared by the catalogue indexer and the query analyser, so both sides of a match are
 * normalised by the same code: Heizkörper = Heizkoerper = heizkorper.
 *
 * Postgres' unaccent maps ö→o but not the ASCII spelling oe→o, and the German stemmer only
 * handles ae/oe/ue in newer Snowball versions; folding here keeps Postgres 15 and 18 identical.
 */
const umlauts: Record<string, string> = { ä: 'a', ö: 'o', ü: 'u', ß: 'ss' };

export function fold(text: string): string {
  let s = text.toLowerCase().replace(/[äöüß]/g, (c) => umlauts[c]);
  // Other accents (é, ñ …); most catalogue text is plain ASCII by now, so skip the costly NFD then.
  if (/\P{ASCII}/u.test(s)) s = s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  // ae/oe/ue as umlaut spellings, but not after a vowel (Feuer, Mauer, neue) or q (Quelle).
  s = s.replace(/(^|[^aeiouq])([aou])e/g, '$1$2');
  return s;
}

/** Folded word tokens (letters and digits), in order. */
export function foldedTokens(text: string): string[] {
  return fold(text).match(/[a-z0-9]+/g) ?? [];
}

/** Article numbers are compared without separators and case: "TF-22.600" = "tf22600". */
export function normaliseCode(code: string): string {
  return code
    .normalize('NFKC')
    .replace(/[^0-9A-Za-z]/g, '')
    .toUpperCase();
}
