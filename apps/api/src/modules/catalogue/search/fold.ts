/**
 * Folding shared by the catalogue indexer and the query analyser, so both sides of a match are
 * normalised by the same code: Heizkörper = Heizkoerper = heizkorper.
 *
 * Postgres' unaccent maps ö→o but not the ASCII spelling oe→o, and the German stemmer only
 * handles ae/oe/ue in newer Snowball versions; folding here keeps Postgres 15 and 18 identical.
 */
const umlauts: Record<string, string> = { ä: 'a', ö: 'o', ü: 'u', ß: 'ss' };

export function fold(text: string): string {
  // ae/oe/ue as umlaut spellings, but not after a vowel (Feuer, Mauer, neue) or q (Quelle).
  return foldLetters(text).replace(/(^|[^aeiouq])([aou])e/g, '$1$2');
}

/** Lower case, umlauts and accents folded; ae/oe/ue kept. */
function foldLetters(text: string): string {
  const s = text.toLowerCase().replace(/[äöüß]/g, (c) => umlauts[c]);
  // Other accents (é, ñ …); most catalogue text is plain ASCII by now, so skip the costly NFD then.
  return /\P{ASCII}/u.test(s) ? s.normalize('NFD').replace(/[\u0300-\u036f]/g, '') : s;
}

/** Folded word tokens (letters and digits), in order. */
export function foldedTokens(text: string): string[] {
  return fold(text).match(/[a-z0-9]+/g) ?? [];
}

/**
 * The folded tokens of `text` (as foldedTokens, in the same order) spelled as typed where folding read ae/oe/ue as an
 * umlaut: a typo can make such a pair by chance ('Bgoen' for 'Bogen' folds to 'bgon', two edits away from 'bogen').
 */
export function digraphSpellings(text: string): Map<string, string> {
  const folded = foldedTokens(text);
  const typed = foldLetters(text).match(/[a-z0-9]+/g) ?? [];
  const spellings = new Map<string, string>();
  if (typed.length !== folded.length) return spellings;
  folded.forEach((token, k) => {
    if (typed[k] !== token) spellings.set(token, typed[k]);
  });
  return spellings;
}

/** Article numbers are compared without separators and case: "TF-22.600" = "tf22600". */
export function normaliseCode(code: string): string {
  return code
    .normalize('NFKC')
    .replace(/[^0-9A-Za-z]/g, '')
    .toUpperCase();
}
