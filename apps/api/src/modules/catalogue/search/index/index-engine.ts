/**
 * The search engine on the in-process index (ADR 0003). Same seam and orchestration as the SQL
 * engine (request normalisation, query analysis, disjunctive facet sources, hydration of the hits);
 * the result sets, facet counts and pages come from bitmap operations instead of SQL:
 * result = (words ∧ dimensions ∨ article numbers) ∧ filter bitmaps; a facet value's count is
 * |result ∩ value bitmap|; a page is the first ids of the relevance tiers in static-rank order.
 * Nothing is cached per query: every request is computed from the index.
 */
import type pg from 'pg';
import type { CatalogueMeta, CatalogueMetaCache } from '../../catalogue-meta.ts';
import type { FacetSet, FeatureStats, Scope } from '../facets.ts';
import type {
  SearchFilterOption,
  SearchRequest,
  SearchResponse,
  FilterOptionsRequest,
  Suggestions,
} from '@shk/contracts';
import {
  oneEditParts,
  termSpellings,
  type AnalysedQuery,
  type PartNeighbour,
  type QueryLevel,
} from '../query-analyser.ts';
import type { Dimension, FilterSelection, SearchSort } from '../search-request.ts';
import { relevanceLevels, SearchEngine, tierQueries, type SearchCaller } from '../search-engine.ts';
import { lexemesOf, parseTsquery } from './tsquery.ts';
import { normaliseQueryTexts, productsWithPhrase } from './search-index.repo.ts';
import { RoaringBitmap32, type Bitmap, type SearchIndex } from './search-index.ts';
import { LRUCache, memo } from '../lru.ts';
import { WordNormaliser } from './word-normaliser.ts';
import { WordLookups } from './word-lookups.ts';
import { featureStatsOf } from './feature-stats.ts';
import { foldedTokens } from '../fold.ts';
import type { HitStore } from '../hit-store.ts';
import { phaseClock } from './phase-clock.ts';

interface PreparedQuery {
  /** Evaluated tsqueries by their text (as the analyser wrote them); read-only (evaluateTextShared). */
  fts: Map<string, Bitmap>;
  /**
   * All dimension tokens (AND), null without dimensions. With words in the query, only exact within the products
   * matching one of its texts (fts): it is only ever used ANDed with one of them.
   */
  dims: Bitmap | null;
  codes: Bitmap;
  /** The text condition: (words ∧ dimensions) ∨ article numbers. */
  text: Bitmap;
}

/** How long a request waits for a snapshot that is being loaded before SQL answers it. */
const SNAPSHOT_WAIT_MS = 15_000;

export class IndexSearchEngine extends SearchEngine {
  private readonly prepared = new WeakMap<AnalysedQuery, Promise<PreparedQuery>>();
  private readonly filters = new WeakMap<FilterSelection, Map<string, Bitmap>>();
  /** One index per request (its selection object): the feed is synchronised once per request. */
  private readonly perRequest = new WeakMap<FilterSelection, Promise<SearchIndex>>();
  /**
   * Postgres' normalisation (german_unaccent) of query and phrase texts: a pure function of the text (the text
   * search configuration is fixed by the migrations), kept like a dictionary, not a result cache.
   */
  private readonly normalised = new LRUCache<string, string>({ max: 100_000 });
  /**
   * The analyser's tsquery texts normalised word by word (word-normaliser.ts): a text whose words were seen before
   * needs no round trip, although the text itself is new.
   */
  private readonly words: WordNormaliser = new WordNormaliser((words) => this.lookups.normalise(words));
  /**
   * The words' normalisation and one-edit neighbours asked for in one turn, in one statement (word-lookups.ts); the
   * neighbours' tokens come normalised with them.
   */
  private readonly lookups = new WordLookups(this.pool, (normalised) => this.words.remember(normalised));
  /**
   * The catalogue words one edit away from a query word (search_terms), per catalogue version: search_terms is only
   * written by the catalogue load and by an import's transactions that publish or remove search rows
   * (catalogue-import/search-terms.repo.ts), and each of them raises the version (catalogue_state, followed by every
   * process through the meta cache), so an answer is valid for its version. Kept like a dictionary, not a result cache.
   */
  private readonly neighbours = new LRUCache<string, Promise<string[]>>({ max: 20_000 });
  /**
   * The catalogue's spelling of folded words (search_terms.term; false: no catalogue word), per catalogue version like
   * the neighbours; the neighbours' spellings come with them (word-lookups.ts).
   */
  private readonly spellings = new LRUCache<string, string | false>({ max: 50_000 });
  /** The parts of hyphenated words one edit away from a word without matches, the same way (search_terms). */
  private readonly parts = new LRUCache<string, Promise<PartNeighbour[]>>({ max: 5_000 });

  /** Answers while the process has no index yet (its first build or snapshot load runs): SQL per request. */
  private readonly sql: SearchEngine;

  /**
   * options.ready: whether the index is there (SearchIndexHolder.ready); while it is not, requests are answered by
   * the SQL engine instead of waiting for the build (about 20 s at 1M products without a snapshot). options.loaded:
   * whether the index is there within the given time (SearchIndexHolder.whenLoaded: only while a snapshot loads).
   */
  constructor(
    pool: () => pg.Pool,
    meta: CatalogueMetaCache,
    private readonly currentIndex: () => Promise<SearchIndex>,
    private readonly options: {
      ready?: () => boolean;
      loaded?: (maxMs: number) => Promise<boolean>;
      hitStore?: HitStore;
    } = {},
  ) {
    // No per-query caches: the index answers every request from scratch.
    super(pool, meta, { cache: false, hitStore: options.hitStore });
    this.sql = new SearchEngine(pool, meta, { cache: false, hitStore: options.hitStore });
  }

  /**
   * Whether to answer from the index; if not, the build or snapshot load is started (or joined) in the background.
   * While the snapshot loads (seconds; the first request after a start begins it) a request waits for it, at most
   * SNAPSHOT_WAIT_MS: SQL's facet counts read every match (the whole catalogue's counts took 4.5 s at 1M), more than
   * the load takes. A load that fails turns into a build, which is not waited for.
   */
  private async indexReady(): Promise<boolean> {
    if (!this.options.ready || this.options.ready()) return true;
    void this.currentIndex().catch(() => {}); // a failed build is retried by the next request
    return this.options.loaded ? this.options.loaded(SNAPSHOT_WAIT_MS) : false;
  }

  override async search(caller: SearchCaller, body: SearchRequest): Promise<SearchResponse> {
    return (await this.indexReady()) ? super.search(caller, body) : this.sql.search(caller, body);
  }

  override async filterOptions(caller: SearchCaller, body: FilterOptionsRequest): Promise<SearchFilterOption> {
    return (await this.indexReady()) ? super.filterOptions(caller, body) : this.sql.filterOptions(caller, body);
  }

  override async suggestions(caller: SearchCaller, rawTerm: string): Promise<Suggestions> {
    return (await this.indexReady()) ? super.suggestions(caller, rawTerm) : this.sql.suggestions(caller, rawTerm);
  }

  /**
   * The whole catalogue's counts (product tree, empty search) are the same object while the index, its feed position
   * and the catalogue version are: the tree's answer can then be kept by the read-model cache (vary: snapshotId of
   * the set), and the counts are not taken again for every call.
   */
  private wholeCatalogue: {
    index: SearchIndex;
    position: string;
    version: number;
    counts: Promise<{ meta: CatalogueMeta; set: FacetSet }>;
  } | null = null;

  override async catalogueCounts() {
    if (!(await this.indexReady())) return this.sql.catalogueCounts();
    const [meta, index] = await Promise.all([this.meta.get(), this.currentIndex()]);
    const kept = this.wholeCatalogue;
    if (kept && kept.index === index && kept.position === index.feedPosition && kept.version === meta.version)
      return kept.counts;
    const counts = super.catalogueCounts();
    const entry = { index, position: index.feedPosition, version: meta.version, counts };
    this.wholeCatalogue = entry;
    counts.catch(() => {
      if (this.wholeCatalogue === entry) this.wholeCatalogue = null;
    });
    return counts;
  }

  /** The analyser's existence checks: normalised by Postgres (no table read), evaluated on the index. */
  protected override queryMatches() {
    return async (queries: string[]) => {
      const [index, { queries: normalised }] = await Promise.all([this.currentIndex(), this.normalise(queries, [])]);
      return normalised.map((text) => {
        if (!parseTsquery(text)) return null;
        return index.countText(text) > 0;
      });
    };
  }

  /** The analyser's one-edit neighbours: words seen before under this catalogue version from memory, the rest in one statement. */
  protected override wordNeighbours(meta: CatalogueMeta) {
    return async (words: string[]) => {
      const key = (w: string) => `${meta.version}\u0000${w}`;
      const unique = [...new Set(words)];
      const entries = new Map(unique.map((w) => [w, this.neighbours.get(key(w))]));
      const missing = unique.filter((w) => !entries.get(w));
      if (missing.length) {
        const fetched = this.lookups.neighbours(missing).then(({ neighbours, spellings }) => {
          for (const [folded, term] of spellings) this.spellings.set(key(folded), term);
          return neighbours;
        });
        for (const w of missing) {
          const entry = fetched.then((found) => found.get(w) ?? []);
          entries.set(w, entry);
          this.neighbours.set(key(w), entry);
          // A failed read is not kept: the next search asks again.
          entry.catch(() => {
            if (this.neighbours.get(key(w)) === entry) this.neighbours.delete(key(w));
          });
        }
      }
      const result = new Map<string, string[]>();
      for (const w of unique) {
        const list = await entries.get(w)!;
        if (list.length) result.set(w, [...list]);
      }
      // The typo alternatives' words are normalised next (the tiers' texts): the lookup's statement brought the
      // normalisation of their tokens; any other (a neighbour read before) is fetched now, beside the existence checks.
      this.words.prefetch([...result.values()].flat().flatMap((t) => foldedTokens(t)));
      return result;
    };
  }

  /** The analyser's article-number lookups: in the statement of the dictionary lookups asked at the same time. */
  protected override codeMatches() {
    return (codes: string[]) => this.lookups.codes(codes);
  }

  /** The analyser's catalogue spellings: those seen under this catalogue version from memory, the rest in one statement. */
  protected override termSpellings(meta: CatalogueMeta) {
    return async (folded: string[]) => {
      const key = (f: string) => `${meta.version}\u0000${f}`;
      const missing = [...new Set(folded)].filter((f) => !this.spellings.has(key(f)));
      if (missing.length) {
        const found = await termSpellings(this.pool(), missing);
        for (const f of missing) this.spellings.set(key(f), found.get(f) ?? false);
      }
      const result = new Map<string, string>();
      for (const f of folded) {
        const term = this.spellings.get(key(f));
        if (term) result.set(f, term);
      }
      return result;
    };
  }

  /** The analyser's parts of hyphenated words one edit away: kept per word and catalogue version like wordNeighbours. */
  protected override partNeighbours(meta: CatalogueMeta) {
    return async (spellings: string[]) => {
      const key = `${meta.version}\u0000${spellings.join('\u0000')}`;
      // A failed read is not kept (memo): the next search asks again.
      return [...(await memo(this.parts, key, () => oneEditParts(this.pool(), spellings)))];
    };
  }

  /**
   * The normalised query texts (word by word, see word-normaliser.ts) and phrase texts (phraseto_tsquery, the
   * phrases already seen answered from memory, one round trip for the rest).
   */
  private async normalise(texts: string[], phrases: string[]): Promise<{ queries: string[]; phrases: string[] }> {
    const [queries, normalisedPhrases] = await Promise.all([
      this.words.normalise(texts, (others) => this.normaliseWhole(others, 'q')),
      phrases.length ? this.normaliseWhole(phrases, 'p') : Promise.resolve([]),
    ]);
    return { queries, phrases: normalisedPhrases };
  }

  /** normaliseQueryTexts with the texts already seen answered from memory (one round trip for the rest). */
  private async normaliseWhole(texts: string[], kind: 'q' | 'p'): Promise<string[]> {
    const key = (t: string) => `${kind}\u0000${t}`;
    const missing = [...new Set(texts.filter((t) => !this.normalised.has(key(t))))];
    const answers = new Map<string, string>();
    if (missing.length) {
      const fresh = await normaliseQueryTexts(this.pool(), kind === 'q' ? missing : [], kind === 'p' ? missing : []);
      const list = kind === 'q' ? fresh.queries : fresh.phrases;
      missing.forEach((t, i) => {
        answers.set(t, list[i]);
        this.normalised.set(key(t), list[i]);
      });
    }
    return texts.map((t) => answers.get(t) ?? this.normalised.get(key(t))!);
  }

  private indexFor(scope: Scope): Promise<SearchIndex> {
    let index = this.perRequest.get(scope.selection);
    if (!index) {
      index = this.currentIndex();
      this.perRequest.set(scope.selection, index);
    }
    return index;
  }

  protected override async facetSet(meta: CatalogueMeta, scope: Scope, only?: Dimension): Promise<FacetSet> {
    const index = await this.indexFor(scope);
    const result = await this.scopeBitmap(index, meta, scope);
    try {
      return phaseClock.measure('facets', () => facetSetOf(index, result, only));
    } finally {
      this.release(scope, result);
    }
  }

  protected override async features(meta: CatalogueMeta, scope: Scope, classNo: number): Promise<FeatureStats> {
    const index = await this.indexFor(scope);
    if (!index.classes.has(classNo)) return { numeric: new Map(), values: new Map() };
    const result = await this.scopeBitmap(index, meta, scope);
    try {
      return phaseClock.measure('features', () => featureStatsOf(index, meta, classNo, result));
    } finally {
      this.release(scope, result);
    }
  }

  /**
   * Frees a scope bitmap's native memory now when it is the scope's own copy (with selected dimensions; without, it is
   * the prepared query's or the index's bitmap). Roaring reports its allocations to V8 as external memory: a search's
   * large temporary bitmaps, left to the garbage collector, made it run more often (11–13 % of the API's time at 5M).
   */
  private release(scope: Scope, bitmap: Bitmap) {
    if (scope.dims.length) bitmap.dispose();
  }

  protected override async page(
    meta: CatalogueMeta,
    scope: Scope,
    sort: SearchSort,
    offset: number,
    limit: number,
  ): Promise<number[]> {
    const index = await this.indexFor(scope);
    if (sort.column === 'artikelbeschreibung' || sort.column === 'preis') {
      const all = await this.scopeBitmap(index, meta, scope);
      try {
        return phaseClock.measure('page', () =>
          sort.column === 'preis'
            ? index.pricePage(all, offset, limit, sort.order === 'desc')
            : index.namePage(all, offset, limit, sort.order === 'desc'),
        );
      } finally {
        this.release(scope, all);
      }
    }
    const q = scope.query;
    // Without selected dimensions the filter is the whole catalogue: no copy of it, no intersection with it.
    const filters = scope.dims.length ? await this.scopeBitmap(index, meta, scope, { text: false }) : null;
    if (!q) {
      const ids = phaseClock.measure('page', () => index.rankPage(filters ?? index.all, offset, limit));
      filters?.dispose();
      return ids;
    }
    const prepared = await this.prepare(index, meta, q);
    const ids = phaseClock.measure('page', () => this.tieredPage(index, prepared, q, filters, offset, limit));
    filters?.dispose();
    return ids;
  }

  /**
   * The page of a query's result in relevance order. The tiers are computed one after the other, only until the page
   * is full: an early page of a broad word needs the first tier only. Each tier is this loop's own bitmap: freed when
   * read.
   */
  private tieredPage(
    index: SearchIndex,
    prepared: PreparedQuery,
    q: AnalysedQuery,
    filters: Bitmap | null,
    offset: number,
    limit: number,
  ): number[] {
    const ids: number[] = [];
    let skip = offset;
    for (const tier of this.tiers(index, prepared, q, filters)) {
      if (skip >= tier.size) skip -= tier.size;
      else {
        ids.push(...index.rankPage(tier, skip, limit - ids.length));
        skip = 0;
      }
      tier.dispose();
      if (ids.length >= limit) break;
    }
    return ids;
  }

  /**
   * The relevance tiers (search-engine.ts relevanceTiers), best first, each a fresh bitmap made when the caller asks
   * for it: exact article numbers; per level (the words as typed, then the typo matches) whole words in the name,
   * prefixes in the name, name/brand/series, anywhere.
   */
  private *tiers(index: SearchIndex, p: PreparedQuery, q: AnalysedQuery, filters: Bitmap | null): Generator<Bitmap> {
    const rest = (b: Bitmap) => {
      if (p.dims) b.andInPlace(p.dims);
      return p.codes.size ? b.andNotInPlace(p.codes) : b;
    };
    // A tier's first step makes its own bitmap from the read-only text (no copy of the whole text first): the AND with
    // the filters, else the AND NOT of the first tier above it.
    const start = (text: Bitmap, above: Bitmap | undefined) =>
      filters ? RoaringBitmap32.and(text, filters) : above ? RoaringBitmap32.andNot(text, above) : text.clone();
    if (p.codes.size) yield filters ? RoaringBitmap32.and(p.codes, filters) : p.codes.clone();
    if (!q.fts) {
      if (q.dimensions.length) yield rest(start(index.all, undefined));
      return;
    }
    for (const { level, not } of relevanceLevels(q)) {
      // Each tier is its query without the matches of the tiers above it (tierQueries).
      const queries = tierQueries(level);
      for (const [k, text] of queries.entries()) {
        const above = queries.slice(0, k).map((a) => p.fts.get(a)!);
        const tier = start(p.fts.get(text)!, above[0]);
        for (const a of filters ? above : above.slice(1)) if (tier.size) tier.andNotInPlace(a);
        if (not && tier.size) tier.andNotInPlace(p.fts.get(not)!);
        yield rest(tier);
      }
    }
  }

  /**
   * Result set of a scope: the text condition (unless text: false) and every selected dimension. Read-only: without
   * dimensions it is the prepared query's or the index's own bitmap (no copy of up to the whole catalogue per set).
   */
  private async scopeBitmap(
    index: SearchIndex,
    meta: CatalogueMeta,
    scope: Scope,
    options: { text?: boolean } = {},
  ): Promise<Bitmap> {
    const base =
      scope.query && options.text !== false ? (await this.prepare(index, meta, scope.query)).text : index.all;
    if (!scope.dims.length) return base;
    const result = base.clone();
    for (const dim of scope.dims) {
      if (!result.size) break;
      result.andInPlace(this.filterBitmap(index, meta, dim, scope.selection, scope.sellerSupplierNo));
    }
    return result;
  }

  /** A dimension's filter (facets.ts dimensionCondition), computed once per request's selection. */
  private filterBitmap(
    index: SearchIndex,
    meta: CatalogueMeta,
    dim: Dimension,
    s: FilterSelection,
    sellerSupplierNo: number | null,
  ): Bitmap {
    let perSelection = this.filters.get(s);
    if (!perSelection) this.filters.set(s, (perSelection = new Map()));
    const key = dim === 'tree' ? `tree:${sellerSupplierNo}` : dim;
    let bitmap = perSelection.get(key);
    if (!bitmap) {
      bitmap = computeFilter(index, meta, dim, s, sellerSupplierNo);
      perSelection.set(key, bitmap);
    }
    return bitmap;
  }

  private prepare(index: SearchIndex, meta: CatalogueMeta, q: AnalysedQuery): Promise<PreparedQuery> {
    let prepared = this.prepared.get(q);
    if (!prepared) {
      prepared = this.computePrepared(index, meta, q);
      this.prepared.set(q, prepared);
    }
    return prepared;
  }

  /**
   * Postgres normalises the query texts (German stemming and stop words of german_unaccent, the
   * same as for the documents) in one round trip; the bitmaps come from the index.
   */
  private async computePrepared(index: SearchIndex, meta: CatalogueMeta, q: AnalysedQuery): Promise<PreparedQuery> {
    const levels = [q, q.exact].filter((l): l is QueryLevel => !!l);
    const texts = [
      ...new Set(
        levels
          .flatMap((l) => [l.fts, l.ftsA, l.ftsAB, l.ftsAExact, l.ftsABExact, l.ftsExact])
          .filter((t): t is string => !!t),
      ),
    ];
    const phrases = q.dimensions.map((d) => d.phrase);
    const normalised = await this.normalise(texts, phrases);
    // The texts share their words (with weights A, AB, any; whole and as prefix), and distinct queries share words:
    // each word's postings are merged once and kept (word-bitmaps.ts). Read-only: the tiers and the text copy them.
    const fts = phaseClock.measure(
      'words',
      () => new Map(texts.map((t, i) => [t, index.evaluateTextShared(normalised.queries[i])])),
    );
    let dims: Bitmap | null = null;
    // Where a dimension is used, it narrows the matches of one of the query's texts (text = words ∧ dimensions; each
    // relevance tier lies within one text): its phrase is rechecked only among those, not among every product of the
    // catalogue having the phrase's words ('DN 15' alone has hundreds of thousands at 5M). Without words: everywhere.
    const wordScope = q.fts && q.dimensions.length ? RoaringBitmap32.orMany([...fts.values()]) : null;
    for (const [k, d] of q.dimensions.entries()) {
      const featured = d.groups.flatMap((g) => g.classes);
      const matches = phaseClock.measure('dimensions', () => featuredMatches(index, d.groups));
      // Products of the other classes: the dimension as a phrase of their texts. The index holds no
      // positions: candidates having every word are rechecked by Postgres.
      const phrase = parseTsquery(normalised.phrases[k]);
      if (phrase) {
        const candidates = phaseClock.measure('dimensions', () => {
          const others = index.valuesBitmap(index.classes, featured);
          const found = index.evaluate(phrase).andNotInPlace(others);
          others.dispose();
          if (wordScope) found.andInPlace(wordScope);
          return found;
        });
        if (candidates.size) {
          const exact = lexemesOf(phrase).length > 1 ? await this.recheckPhrase(candidates, d.phrase) : candidates;
          matches.orInPlace(exact);
          if (exact !== candidates) exact.dispose();
        }
        candidates.dispose();
      }
      if (dims) {
        dims.andInPlace(matches);
        matches.dispose();
      } else dims = matches;
    }
    wordScope?.dispose();
    const codes = new RoaringBitmap32(q.codeIds);
    const text = new RoaringBitmap32();
    if (q.fts || dims) {
      const words = q.fts ? fts.get(q.fts)!.clone() : index.all.clone();
      text.orInPlace(dims ? words.andInPlace(dims) : words);
      words.dispose();
    }
    text.orInPlace(codes);
    return { fts, dims, codes, text };
  }

  private async recheckPhrase(candidates: Bitmap, phrase: string): Promise<Bitmap> {
    return new RoaringBitmap32(await productsWithPhrase(this.pool(), Array.from(candidates.toUint32Array()), phrase));
  }
}

/** The products of a dimension's class groups whose feature slots hold the dimension's values (every test of a group). */
function featuredMatches(index: SearchIndex, groups: AnalysedQuery['dimensions'][number]['groups']): Bitmap {
  const matches = new RoaringBitmap32();
  for (const g of groups) {
    let members = index.valuesBitmap(index.classes, g.classes);
    for (const t of g.tests) {
      const values = new Set(t.values.map(Math.fround));
      const passing = index.slotFilter(g.classes, t.slot, (v) => values.has(v));
      members = members.andInPlace(passing);
      passing.dispose();
    }
    matches.orInPlace(members);
    members.dispose();
  }
  return matches;
}

function computeFilter(
  index: SearchIndex,
  meta: CatalogueMeta,
  dim: Dimension,
  s: FilterSelection,
  sellerSupplierNo: number | null,
): Bitmap {
  switch (dim) {
    case 'brand':
      return index.valuesBitmap(index.brands, s.brand!);
    case 'class':
      return index.valuesBitmap(index.classes, s.class!);
    case 'supplier':
      return index.valuesBitmap(index.suppliers, s.supplier!);
    case 'wholesaler':
      return index.valuesBitmap(index.suppliers, s.wholesaler!);
    case 'price':
      return index.priceFilter(s.price!.min, s.price!.max);
    case 'tree': {
      const t = s.tree!;
      const out = index.valuesBitmap(index.leaves, t.leafNos);
      if (t.promo) out.orInPlace(index.promo);
      if (t.sellerCatalogue && sellerSupplierNo !== null) {
        const own = index.suppliers.get(sellerSupplierNo);
        if (own) out.orInPlace(own);
      }
      return out;
    }
    default: {
      const featureId = dim.slice(2);
      const feature = meta.features.get(featureId)!;
      const selected = s.features.get(featureId)!;
      const { classesBySlot } = feature;
      const out = new RoaringBitmap32();
      for (const [slot, classes] of classesBySlot) {
        let test: (v: number) => boolean;
        if (selected.kind === 'A') {
          const values = new Set(selected.valueNos.map(Math.fround));
          test = (v) => values.has(v);
        } else {
          const lo = selected.min === null ? -Infinity : Math.fround(selected.min);
          const hi = selected.max === null ? Infinity : Math.fround(selected.max);
          test = (v) => v >= lo && v <= hi;
        }
        out.orInPlace(index.slotFilter(classes, slot, test));
      }
      return out;
    }
  }
}

/** The counts a facet set holds: all of them, or only those its dimension's facet reads (filter-options.ts). */
interface Wanted {
  brands: boolean;
  classes: boolean;
  leaves: boolean;
  suppliers: boolean;
  promo: boolean;
  price: boolean;
}

const EVERYTHING: Wanted = { brands: true, classes: true, leaves: true, suppliers: true, promo: true, price: true };
const NOTHING: Wanted = { brands: false, classes: false, leaves: false, suppliers: false, promo: false, price: false };

/**
 * What the facet of a dimension reads from its disjunctive set: the brand, class, supplier list or price slider
 * their own counts; the tree its leaves, the Aktion node and the seller catalogue (suppliers); the wholesaler and
 * feature dimensions none (features have their own statistics).
 */
function wantedFor(only: Dimension | undefined): Wanted {
  switch (only) {
    case undefined:
      return EVERYTHING;
    case 'brand':
      return { ...NOTHING, brands: true };
    case 'class':
      return { ...NOTHING, classes: true };
    case 'supplier':
      return { ...NOTHING, suppliers: true };
    case 'price':
      return { ...NOTHING, price: true };
    case 'tree':
      return { ...NOTHING, leaves: true, promo: true, suppliers: true };
    default:
      return NOTHING;
  }
}

/**
 * How the counts of one-value-per-product dimensions (brand, class, leaf) and the price range are taken: 'ids' reads
 * the result's ids once with the per-id columns (cost grows with the result); 'bitmaps' intersects the result with
 * each value bitmap (andCardinality: cost grows with the number of values and the result's containers, not its ids)
 * and reads the price range from the ends of the price order. Both give the same counts (search-index.test.ts).
 */
export type FacetCounting = 'ids' | 'bitmaps';

/**
 * From this share of the catalogue on, a result is counted by intersections. Measured at 5M products (42 brands, 59
 * classes and leaves; docs/performance.md): the 160 intersections took 7–25 ms whatever the result's size, reading the
 * ids of a result of 100,000–1,000,000 ids 2–12 ms per column; only a result of millions of ids (most of the
 * catalogue, whose value bitmaps' containers are then full bitmaps) is counted faster by intersections.
 */
const BITMAPS_FROM_SHARE = 0.5;

function countingFor(index: SearchIndex, total: number): FacetCounting {
  return total >= index.all.size * BITMAPS_FROM_SHARE ? 'bitmaps' : 'ids';
}

/**
 * Facet counts of a result set. Brand, class and leaf (one value per product) with the price range in one pass over
 * the result's ids (small results) or as intersection cardinalities with the value bitmaps (large ones, see
 * FacetCounting); suppliers (several per product) and Aktion always as intersection cardinalities. A disjunctive set
 * (`only`: the dimension it is for) gets only the counts its facet reads, the others stay empty. `counting` forces a
 * way (tests compare them).
 */
export function facetSetOf(index: SearchIndex, result: Bitmap, only?: Dimension, counting?: FacetCounting): FacetSet {
  const total = result.size;
  const wanted = wantedFor(only);
  // The whole catalogue (a search without term and filters, the disjunctive set of a single filter): its
  // counts change only with the index, so they are kept until its next change.
  if (!counting && total === index.all.size && result.isEqual(index.all)) {
    const whole = wholeCatalogue.get(index);
    if (whole?.changes === index.changes) return whole.set;
    const set = countFacets(index, result, EVERYTHING, countingFor(index, total));
    wholeCatalogue.set(index, { changes: index.changes, set });
    return set;
  }
  return countFacets(index, result, wanted, counting ?? countingFor(index, total));
}

/** Facet counts of the whole catalogue per index, with the index's change count they belong to. */
const wholeCatalogue = new WeakMap<SearchIndex, { changes: number; set: FacetSet }>();

function countFacets(index: SearchIndex, result: Bitmap, wanted: Wanted, counting: FacetCounting): FacetSet {
  const total = result.size;
  const empty = () => new Map<number, number>();
  if (!total)
    return {
      total,
      brands: empty(),
      classes: empty(),
      leaves: empty(),
      suppliers: empty(),
      promo: 0,
      price: { min: null, max: null },
    };
  const byIds = counting === 'ids' ? countByIds(index, result, wanted) : null;
  return {
    total,
    brands: byIds ? byIds.brands : intersections(result, index.brands, wanted.brands),
    classes: byIds ? byIds.classes : intersections(result, index.classes, wanted.classes),
    leaves: byIds ? byIds.leaves : intersections(result, index.leaves, wanted.leaves),
    suppliers: intersections(result, index.suppliers, wanted.suppliers),
    promo: wanted.promo ? result.andCardinality(index.promo) : 0,
    price: byIds ? byIds.price : priceRange(index, result, wanted.price),
  };
}

/** The non-zero counts of a map's values within the result, as intersection cardinalities. */
function intersections(result: Bitmap, map: Map<number, Bitmap>, want: boolean): Map<number, number> {
  const out = new Map<number, number>();
  if (!want) return out;
  for (const [key, bitmap] of map) {
    const n = result.andCardinality(bitmap);
    if (n) out.set(key, n);
  }
  return out;
}

/**
 * Steps of the walk from either end of the price order before the ids are read instead: at least this many, at most an
 * eighth of the result (a step – a membership test – costs about as much as reading an id's price at a random
 * position, which misses the cache).
 */
const PRICE_WALK_STEPS = 2_048;

/** The price range of a large result: from the price order's ends when that is short, else over its ids. */
function priceRange(index: SearchIndex, result: Bitmap, want: boolean): FacetSet['price'] {
  if (!want) return { min: null, max: null };
  const walked = index.priceRangeByOrder(result, PRICE_WALK_STEPS);
  if (walked) return walked;
  const { price } = index;
  const ids = index.ids(result); // shared buffer: read synchronously here
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0, n = result.size; k < n; k++) {
    const p = price[ids[k]];
    if (p < min) min = p;
    if (p > max) max = p;
  }
  return min === Infinity ? { min: null, max: null } : { min, max };
}

/**
 * Brand, class and leaf counts in one pass over the result's ids: per id its combination of the three (comboOf) is
 * counted, then each combination's count is added to its brand, leaf and class. The price range of a result that is
 * not small from the price orders of the combinations it touches (SearchIndex.priceRangeByCombos), else in the same
 * pass.
 */
function countByIds(
  index: SearchIndex,
  result: Bitmap,
  wanted: Wanted,
): {
  brands: Map<number, number>;
  classes: Map<number, number>;
  leaves: Map<number, number>;
  price: FacetSet['price'];
} {
  const total = result.size;
  const brands = new Map<number, number>();
  const classes = new Map<number, number>();
  const leaves = new Map<number, number>();
  const countCombos = wanted.brands || wanted.classes || wanted.leaves;
  if (!countCombos && !wanted.price) return { brands, classes, leaves, price: { min: null, max: null } };
  // A larger result's price range from the price orders of the combinations it touches (found by the combination
  // pass): no price read per id, whose column is read at random positions; a small one's in the same pass.
  const byCombos = wanted.price && total >= PRICE_BY_COMBOS_FROM;
  const readPrices = wanted.price && !byCombos;
  const { price, comboOf, combos } = index;
  const ids = index.ids(result); // shared buffer: read synchronously here
  if (comboCounts.length < combos.length) {
    comboCounts = new Int32Array(combos.length + 1024);
    touchedCombos = new Int32Array(combos.length + 1024);
    touchedCounts = new Int32Array(combos.length + 1024);
  }
  const counts = comboCounts;
  let min = Infinity;
  let max = -Infinity;
  if (!readPrices) for (let k = 0; k < total; k++) counts[comboOf[ids[k]]]++;
  else if (countCombos)
    for (let k = 0; k < total; k++) {
      const id = ids[k];
      counts[comboOf[id]]++;
      const p = price[id];
      if (p < min) min = p;
      if (p > max) max = p;
    }
  else
    for (let k = 0; k < total; k++) {
      const p = price[ids[k]];
      if (p < min) min = p;
      if (p > max) max = p;
    }
  let touched = 0;
  if (!readPrices || countCombos) {
    const add = (map: Map<number, number>, key: number, n: number) => map.set(key, (map.get(key) ?? 0) + n);
    for (let c = 0; c < combos.length; c++) {
      const n = counts[c];
      if (!n) continue;
      counts[c] = 0; // the shared count array is left zeroed
      touchedCombos[touched] = c;
      touchedCounts[touched++] = n;
      if (!countCombos) continue;
      const { brand, leaf, classNo } = combos[c];
      if (wanted.brands) add(brands, brand, n);
      if (wanted.leaves) add(leaves, leaf, n);
      if (wanted.classes && classNo >= 0) add(classes, classNo, n);
    }
  }
  let range: FacetSet['price'] | null = null;
  // Few members per combination (a result spread over most of them): long walks, the prices of the ids are cheaper.
  if (byCombos && touched * FEW_PER_COMBO <= total) {
    range = index.priceRangeByCombos(result, touchedCombos, touchedCounts, touched, total >> 3);
  }
  // No price order now (after a change) or walks longer than reading: the prices of the ids (still in the buffer).
  if (byCombos && !range)
    for (let k = 0; k < total; k++) {
      const p = price[ids[k]];
      if (p < min) min = p;
      if (p > max) max = p;
    }
  return { brands, classes, leaves, price: range ?? (min === Infinity ? { min: null, max: null } : { min, max }) };
}

/** Counts per combination of brand, leaf and class, shared by all calls (zeroed after each). */
let comboCounts = new Int32Array(0);
/** The combinations a result touches, listed by the count's pass (the first `touched` entries are valid). */
let touchedCombos = new Int32Array(0);
let touchedCounts = new Int32Array(0);

/** A result of at least this many ids reads its price range from its combinations' price orders. */
const PRICE_BY_COMBOS_FROM = 1_024;
/** Members per touched combination below which a result's prices are read instead of walking the combinations. */
const FEW_PER_COMBO = 32;
