/**
 * Search suggestions while typing: catalogue words, brands, series and categories that start
 * with (or, for compound parts, contain) the last word, plus the first few matching products.
 */
import type pg from 'pg';
import type { SearchHit, Suggestions } from '@shk/contracts';
import { fold } from './fold.ts';
import { termsStartingWith } from './search.repo.ts';

const kinds: Record<number, Suggestions['suggestions'][number]['kind']> = {
  1: 'Begriff',
  2: 'Marke',
  3: 'Kategorie',
  4: 'Serie',
};
const MAX_SUGGESTIONS = 8;
/** Shorter input gets no suggestions (the search bar needs more than one character, spec §2). */
const MIN_LENGTH = 2;

export async function suggest(
  pool: pg.Pool,
  term: string,
  products: (term: string) => Promise<SearchHit[]>,
): Promise<Suggestions> {
  const words = term.split(' ').filter(Boolean);
  const last = fold(words[words.length - 1] ?? '').replace(/[^a-z0-9]/g, '');
  if (term.length < MIN_LENGTH || !last) return { term, suggestions: [], products: [] };
  const before = words.slice(0, -1).join(' ');
  // Infix matches (compound parts: 'ventil' → 'Thermostatventil') only from 4 characters on.
  const rows = await termsStartingWith(pool, last, MAX_SUGGESTIONS, last.length >= 4);
  const hits = await products(term);
  return {
    term,
    suggestions: rows.map((r) => ({
      text: before ? `${before} ${r.term}` : r.term,
      kind: kinds[r.kind] ?? 'Begriff',
      count: r.doc_count,
    })),
    products: hits.map((h) => ({
      productId: h.productId,
      productInstanceId: h.rows.PRODUCTINSTANCE_ID,
      productName: h.rows.artikelbeschreibung,
      brandName: h.rows.brandname,
      imageUrl: h.rows.bild,
    })),
  };
}
