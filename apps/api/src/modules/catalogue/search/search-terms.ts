/**
 * The words of `search_terms` (suggestions while typing, typo neighbours): which words of a product's name, brand and
 * series enter the list, under which folded key, kind and display spelling. Shared by the catalogue load (seed) and
 * the supplier import (catalogue-import/search-terms.repo.ts), so both write the same words.
 */
import { fold, foldedTokens } from './fold.ts';

/** search_terms.kind: 1 word of a product name, 2 brand, 3 category, 4 series, 5 part word (never suggested). */
export const TERM_KIND = { word: 1, brand: 2, category: 3, series: 4, part: 5 } as const;

/**
 * Display words of a product name: split at white space, slashes and brackets, trimmed of leading and trailing
 * characters that are neither letters nor digits, kept with at least 3 characters of which 3 letters in a row
 * (article numbers and sizes are not words).
 */
export function nameWords(name: string): string[] {
  const words: string[] = [];
  for (const raw of name.split(/[\s/()]+/)) {
    const word = raw.replace(/^[^\p{L}\d]+|[^\p{L}\d]+$/gu, '');
    if (word.length >= 3 && /\p{L}{3}/u.test(word)) words.push(word);
  }
  return words;
}

/** A series name is a term when it has two letters in a row. */
export const isSeriesTerm = (series: string) => /\p{L}{2}/u.test(series);

/** Counts per source: products (occurrences) in total and those newly searchable. */
interface Counts {
  n: number;
  fresh: number;
}

interface Entry {
  /** Display spellings of the name words with their occurrences. */
  display: Map<string, number>;
  word: Counts | null;
  brand: { display: string; counts: Counts } | null;
  series: { display: string; counts: Counts } | null;
}

export interface TermDelta {
  term: string;
  folded: string;
  kind: number;
  /** Occurrences among all the products counted. */
  n: number;
  /** Occurrences among the products that are newly searchable (or, for a removal, no longer). */
  fresh: number;
}

/**
 * Tallies the words of a set of products, given as grouped sources (a name word as split by Postgres at spaces, a
 * brand name, a series with their occurrence counts), into one row per folded key as the catalogue load builds them:
 * kind brand over series over name word; the count of the name words if the key is one, else the series', else the
 * brand's; the display spelling of the brand, else the series, else the most frequent name spelling.
 */
export class TermTally {
  private readonly entries = new Map<string, Entry>();

  private entry(key: string): Entry {
    let e = this.entries.get(key);
    if (!e) {
      e = { display: new Map(), word: null, brand: null, series: null };
      this.entries.set(key, e);
    }
    return e;
  }

  /** A piece of a name (Postgres splits at spaces only; the exact splitting is nameWords'). */
  addNamePart(part: string, n: number, fresh: number) {
    for (const word of nameWords(part)) {
      const e = this.entry(fold(word));
      e.display.set(word, (e.display.get(word) ?? 0) + n);
      e.word ??= { n: 0, fresh: 0 };
      e.word.n += n;
      e.word.fresh += fresh;
    }
  }

  addBrand(name: string, n: number, fresh: number) {
    const e = this.entry(fold(name));
    e.brand ??= { display: name, counts: { n: 0, fresh: 0 } };
    e.brand.counts.n += n;
    e.brand.counts.fresh += fresh;
  }

  addSeries(series: string, n: number, fresh: number) {
    if (!isSeriesTerm(series)) return;
    const e = this.entry(fold(series));
    e.series ??= { display: series, counts: { n: 0, fresh: 0 } };
    e.series.counts.n += n;
    e.series.counts.fresh += fresh;
  }

  rows(): TermDelta[] {
    const rows: TermDelta[] = [];
    for (const [folded, e] of this.entries) {
      if (!foldedTokens(folded).length) continue;
      const counts = e.word ?? e.series?.counts ?? e.brand!.counts;
      const kind = e.brand ? TERM_KIND.brand : e.series ? TERM_KIND.series : TERM_KIND.word;
      const term =
        e.brand?.display ??
        e.series?.display ??
        [...e.display].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0][0];
      rows.push({ term, folded, kind, n: counts.n, fresh: counts.fresh });
    }
    return rows;
  }
}
