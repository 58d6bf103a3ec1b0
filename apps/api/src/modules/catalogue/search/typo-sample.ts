/**
 * Seeded, reproducible typo cases for the recall test (typo.test.ts) and the benchmark
 * (bench/search.ts): a product's own search words with one edit – insertion, deletion,
 * substitution or transposition of neighbours, at any position including the first letters and
 * inside compounds – in one word. The intended product is the one the words were taken from.
 */
export type EditKind = 'insertion' | 'deletion' | 'substitution' | 'transposition';
export const EDIT_KINDS: EditKind[] = ['insertion', 'deletion', 'substitution', 'transposition'];

export interface TypoCase {
  productId: string;
  /** The product's words as typed correctly. */
  exact: string;
  /** The same words with one edit in `word`. */
  typo: string;
  word: string;
  kind: EditKind;
  /** 'long' = a word of ≥ 5 letters, 'short' = a 4-letter word. */
  size: 'long' | 'short';
}

export interface SampleProduct {
  productId: string;
  name: string;
  series: string | null;
}

/** mulberry32: small seeded generator, the same sequence on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One edit of the given kind at a random position; never returns the word itself. */
export function applyEdit(word: string, kind: EditKind, random: () => number): string {
  const lower = word.toLowerCase();
  for (let attempt = 0; attempt < 20; attempt++) {
    const at = Math.floor(random() * word.length);
    const letter = LETTERS[Math.floor(random() * LETTERS.length)];
    let out: string;
    switch (kind) {
      case 'insertion':
        out = lower.slice(0, at) + letter + lower.slice(at);
        break;
      case 'deletion':
        out = lower.slice(0, at) + lower.slice(at + 1);
        break;
      case 'substitution':
        out = lower.slice(0, at) + letter + lower.slice(at + 1);
        break;
      default: {
        const i = Math.min(at, word.length - 2);
        out = lower.slice(0, i) + lower[i + 1] + lower[i] + lower.slice(i + 2);
      }
    }
    if (out !== lower) return out;
  }
  return `${lower}x`;
}

const plainWord = (w: string) => /^[A-Za-zÄÖÜäöüß]+$/.test(w);

/**
 * Up to `size` cases per word size. Long words: one word of ≥ 5 letters of the product name
 * (compounds included) in the full name. Short words: a 4-letter series name added to the name.
 * Edit kinds rotate so each is a quarter of the sample.
 */
export function typoCases(products: SampleProduct[], options: { seed: number; size: number }): TypoCase[] {
  const random = seededRandom(options.seed);
  const shuffled = [...products];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  const cases: TypoCase[] = [];
  let long = 0;
  let short = 0;
  for (const p of shuffled) {
    if (long < options.size) {
      const words = p.name.split(' ').filter((w) => w.length >= 5 && plainWord(w));
      if (words.length) {
        const word = words[Math.floor(random() * words.length)];
        const kind = EDIT_KINDS[long % EDIT_KINDS.length];
        const typo = p.name
          .split(' ')
          .map((w) => (w === word ? applyEdit(word, kind, random) : w))
          .join(' ');
        cases.push({ productId: p.productId, exact: p.name, typo, word, kind, size: 'long' });
        long++;
        continue;
      }
    }
    if (short < options.size && p.series && p.series.length === 4 && plainWord(p.series)) {
      const kind = EDIT_KINDS[short % EDIT_KINDS.length];
      const exact = `${p.name} ${p.series}`;
      const typo = `${p.name} ${applyEdit(p.series, kind, random)}`;
      cases.push({ productId: p.productId, exact, typo, word: p.series, kind, size: 'short' });
      short++;
    }
    if (long >= options.size && short >= options.size) break;
  }
  return cases;
}

/** Recall per word size and edit kind: share of cases with the intended product on page one. */
export function recallTable(results: { c: TypoCase; found: boolean }[]) {
  const rows = new Map<string, { cases: number; found: number }>();
  for (const { c, found } of results) {
    for (const key of [`${c.size} ${c.kind}`, `${c.size} all`]) {
      const row = rows.get(key) ?? { cases: 0, found: 0 };
      row.cases++;
      if (found) row.found++;
      rows.set(key, row);
    }
  }
  return [...rows]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, r]) => ({ key, cases: r.cases, found: r.found, recall: r.found / r.cases }));
}
