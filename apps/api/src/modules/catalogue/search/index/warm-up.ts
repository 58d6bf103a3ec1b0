/**
 * The index's warm-up: before a built or loaded index answers its first search, a few hundred synthetic searches run
 * on it in the process, so that V8 compiles the search's hot code (query analysis, word unions, relevance tiers, facet
 * counts, feature statistics, rank, name and price pages, filter options) and the lazily made parts of the index
 * (the sorted lexemes of prefix searches) exist before the first request instead of during the process's first
 * minute: a restarted process spent ≈ 0.9 ms per search of its first 1,400 on V8's compiler threads and ran its
 * first searches in unoptimised code (docs/performance.md, 'Search 1M after a restart').
 *
 * Nothing of it is kept for the searches: the searches run on an engine of their own (its analysis, normalisation
 * and neighbour dictionaries are dropped with it), without the hits' store (the products of its first 40 pages are
 * read from Postgres, as hits are built, and thrown away; the other pages read none), and the word unions the warm-up
 * merged are dropped from the index afterwards. Each answer is serialised as the route does (zod schema, JSON). What
 * stays is compiled code and what every first search would have made anyway. The requests are made from the index's own lexemes and the
 * catalogue's brands and classes, so the warm-up needs no query list and works on any catalogue.
 */
import type pg from 'pg';
import { safeEncode } from 'zod/v4/core';
import { SearchColumn, SearchResponse, SortColumn, selectionFilter, type SearchRequest } from '@shk/contracts';
import type { CatalogueMeta, CatalogueMetaCache } from '../../catalogue-meta.ts';
import type { PriceStrategy } from '../../pricing/price-strategy.ts';
import type { SearchCaller } from '../search-engine.ts';
import { IndexSearchEngine } from './index-engine.ts';
import type { SearchIndex } from './search-index.ts';

/** Synthetic searches of a warm-up (V8 optimises a function after some hundred calls; a search makes many). */
export const WARM_UP_SEARCHES = 240;
/** And at most this long (a slow machine or a 5M index stops earlier; the restart target is 20 s). */
export const WARM_UP_MAX_MS = 4_000;
/**
 * Smaller catalogues are not warmed up: their searches take a fraction of a millisecond even in unoptimised code, and
 * the tests' processes (a few thousand products) start without it.
 */
export const WARM_UP_MIN_PRODUCTS = 50_000;

/** Lexemes usable as words: letters only, in enough products' names to make a result of some size. */
const WORD = /^[a-z]{5,}$/;
const MIN_NAME_PRODUCTS = 20;

/** Pages whose products a warm-up reads (of its first searches), so the hits' code compiles too. */
export const WARM_UP_PAGES_READ = 40;

/**
 * An engine without the hits' store whose first WARM_UP_PAGES_READ pages read their products from Postgres (nothing
 * kept), the others none: the warm-up's answers are thrown away.
 */
class WarmUpEngine extends IndexSearchEngine {
  pagesToRead = WARM_UP_PAGES_READ;

  protected override hitsOf(...args: Parameters<IndexSearchEngine['hitsOf']>): Promise<SearchResponse['hits']> {
    if (this.pagesToRead <= 0) return Promise.resolve([]);
    this.pagesToRead--;
    return super.hitsOf(...args);
  }
}

/**
 * Runs the warm-up on `index` (not yet answering searches). Never fails: a search that fails ends it (the index
 * answers either way); returns the searches run.
 */
export async function warmUpIndex(
  index: SearchIndex,
  deps: { pool: () => pg.Pool; meta: CatalogueMetaCache; prices: PriceStrategy },
  options: { searches?: number; maxMs?: number; minProducts?: number; pagesRead?: number } = {},
): Promise<number> {
  if (index.size < (options.minProducts ?? WARM_UP_MIN_PRODUCTS)) return 0;
  const until = performance.now() + (options.maxMs ?? WARM_UP_MAX_MS);
  const engine = new WarmUpEngine(deps.pool, deps.meta, () => Promise.resolve(index));
  engine.pagesToRead = options.pagesRead ?? WARM_UP_PAGES_READ;
  // A staff-like caller without a partner: every filter and sort is allowed, no seller restriction.
  const caller: SearchCaller = { userId: 'search-index-warm-up', bpNumber: null, prices: deps.prices };
  let done = 0;
  try {
    const requests = warmUpRequests(index, await deps.meta.get(), options.searches ?? WARM_UP_SEARCHES);
    for (const body of requests) {
      if (performance.now() > until) break;
      // The answer as the route serialises it (its zod schema, then JSON): that code's first calls are slow too.
      JSON.stringify(safeEncode(SearchResponse, await engine.search(caller, body)).data);
      done++;
    }
  } catch {
    // The warm-up only prepares: whatever it did not reach is compiled by the first searches, as without it.
  } finally {
    index.wordBitmaps.clear();
  }
  return done;
}

/**
 * `count` search requests of the kinds users send (word, part of a word, two words, a typo, a brand or class filter,
 * name and price order, a deep page), made from lexemes spread over the index's dictionary.
 */
export function warmUpRequests(index: SearchIndex, meta: CatalogueMeta, count: number): SearchRequest[] {
  const words = sampleWords(index, count);
  if (!words.length) return [];
  const brands = [...meta.brands.values()].map((b) => b.name);
  const classes = [...meta.classes.values()].map((c) => c.id);
  const requests: SearchRequest[] = [];
  for (let i = 0; i < count; i++) {
    const word = words[i % words.length];
    const other = words[(i * 7 + 3) % words.length];
    const base = { page: 1, pageSize: 25 };
    switch (i % 8) {
      case 0:
        requests.push({ ...base, searchTerm: word });
        break;
      case 1:
        requests.push({ ...base, searchTerm: word.slice(0, Math.max(4, word.length - 3)) });
        break;
      case 2:
        requests.push({ ...base, searchTerm: `${word} ${other}` });
        break;
      case 3: // two neighbouring letters swapped: the typo path (neighbours, corrections)
        requests.push({ ...base, searchTerm: word.slice(0, 2) + word[3] + word[2] + word.slice(4) });
        break;
      case 4:
        requests.push({
          ...base,
          searchTerm: word,
          filter: brands.length ? [selectionFilter(SearchColumn.brand, [brands[i % brands.length]])] : [],
        });
        break;
      case 5:
        requests.push({
          ...base,
          searchTerm: word,
          sortColumn: SortColumn.name,
          sortOrder: i % 16 < 8 ? 'asc' : 'desc',
        });
        break;
      case 6:
        requests.push({ ...base, searchTerm: other, sortColumn: SortColumn.price, sortOrder: 'asc', page: 3 });
        break;
      default:
        requests.push(
          classes.length
            ? { ...base, filter: [selectionFilter(SearchColumn.etimClass, [classes[i % classes.length]])], page: 2 }
            : { ...base, searchTerm: word, page: 40 },
        );
    }
  }
  return requests;
}

/** Up to `count` words spread evenly over the dictionary (its insertion order: the catalogue's order). */
function sampleWords(index: SearchIndex, count: number): string[] {
  const candidates: string[] = [];
  for (const [lexeme, postings] of index.lexemes)
    if (WORD.test(lexeme) && (postings[0]?.size ?? 0) >= MIN_NAME_PRODUCTS) candidates.push(lexeme);
  const step = Math.max(1, Math.floor(candidates.length / count));
  const words: string[] = [];
  for (let k = 0; k < candidates.length && words.length < count; k += step) words.push(candidates[k]);
  return words;
}
