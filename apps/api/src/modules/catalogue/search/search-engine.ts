/**
 * The product search: analyses the term, computes disjunctive facets over the whole result set
 * (cached per catalogue version, see docs/catalogue-search.md) and fetches only the requested
 * page with LIMIT-first queries ordered by the static rank within relevance tiers.
 */
import type pg from 'pg';
import type {
  SearchFilterOption,
  SearchRequest,
  SearchResponse,
  FilterOptionsRequest,
  Suggestions,
} from '@shk/contracts';
import { catalogueProblemTitles as titles, limits, SearchColumn, SortColumn } from '@shk/contracts';
import { badRequest } from '../../../http/problem.ts';
import type { CatalogueMeta, CatalogueMetaCache } from '../catalogue-meta.ts';
import type { CallerContext } from '../offers.ts';
import { searchHits } from '../product-views.ts';
import { analyseQuery, type AnalysedQuery, type PartNeighbour, type QueryLevel } from './query-analyser.ts';
import {
  computeFacetSet,
  computeFeatureStats,
  dimensionsCondition,
  scopeKey,
  scopeWhere,
  SqlWhere,
  type SqlParams,
  type FacetSet,
  type FeatureStats,
  type Scope,
} from './facets.ts';
import {
  activeDimensions,
  dimensionOf,
  normaliseFilters,
  normaliseSearch,
  normaliseTerm,
  type Dimension,
  type FilterSelection,
  type SearchSort,
} from './search-request.ts';
import { buildFilterOptions, type FacetSources } from './filter-options.ts';
import { LRUCache, memo } from './lru.ts';
import { suggest } from './suggestions.ts';
import * as repo from './search.repo.ts';
import type { HitStore } from './hit-store.ts';
import { phaseClock } from './index/phase-clock.ts';

export type SearchCaller = Omit<CallerContext, 'meta'>;

/** Results larger than this share of the catalogue are read in name order straight from the index. */
const NAME_WALK_SHARE = 0.2;

export class SearchEngine {
  private readonly analyses = new LRUCache<string, Promise<AnalysedQuery>>({ max: 2_000 });
  private readonly facetSets = new LRUCache<string, Promise<FacetSet>>({ max: 1_000 });
  private readonly featureStats = new LRUCache<string, Promise<FeatureStats>>({ max: 500 });
  private readonly tierSizes = new LRUCache<string, Promise<number>>({ max: 2_000 });
  private readonly pages = new LRUCache<string, Promise<number[]>>({ max: 5_000 });

  private readonly cached: boolean;
  /** Where the hits' product fields and offers come from; missing: Postgres per page. */
  protected readonly hitStore: HitStore | undefined;

  /**
   * options.cache = false computes every request from scratch (benchmarks, SEARCH_CACHE=off); options.hitStore: the
   * page's products and offers from memory (hit-store.ts).
   */
  constructor(
    protected readonly pool: () => pg.Pool,
    readonly meta: CatalogueMetaCache,
    options: { cache?: boolean; hitStore?: HitStore } = {},
  ) {
    this.cached = options.cache ?? true;
    this.hitStore = options.hitStore;
    meta.onChange(() => {
      this.analyses.clear();
      this.facetSets.clear();
      this.featureStats.clear();
      this.tierSizes.clear();
      this.pages.clear();
    });
  }

  private memo<V>(cache: LRUCache<string, Promise<V>>, key: string, compute: () => Promise<V>): Promise<V> {
    return this.cached ? memo(cache, key, compute) : compute();
  }

  async search(caller: SearchCaller, body: SearchRequest): Promise<SearchResponse> {
    const meta = await this.meta.get();
    const request = normaliseSearch(body, meta);
    refusePriceFilterOfSeller(caller, Boolean(request.filters.price));
    refusePriceSortOfSeller(caller, request.sort.column === 'preis');
    const query = request.term
      ? await phaseClock.measureCpu('analysis', () => this.analyse(meta, request.term!, request.numberSearch))
      : null;
    const scope: Scope = {
      query,
      selection: request.filters,
      dims: activeDimensions(request.filters),
      sellerSupplierNo: sellerNo(meta, caller),
    };
    const offset = (request.page - 1) * request.pageSize;
    // Facets and the page are independent queries: run them side by side. The name order needs
    // the hit count first to choose its plan.
    const byName = request.sort.column === 'artikelbeschreibung';
    const facets = this.facetSources(meta, scope, request.filters);
    const [sources, ids] = await Promise.all([
      facets,
      byName
        ? facets.then((f) => this.page(meta, scope, request.sort, offset, request.pageSize, f.base.total))
        : this.page(meta, scope, request.sort, offset, request.pageSize),
    ]);
    const hits = await this.hitsOf(ids, caller, meta);
    const filterOption = phaseClock.measure('filterOptions', () =>
      withoutHiddenConditions(
        caller,
        buildFilterOptions(meta, request.filters, sources, scope.sellerSupplierNo, { allValues: false }),
      ),
    );
    return {
      hits,
      hitCount: sources.base.total,
      page: request.page,
      pageSize: request.pageSize,
      pageCount: Math.min(limits.searchMaxPages, Math.ceil(sources.base.total / request.pageSize)),
      filterOption,
      filterUsed: request.filterUsed,
      searchTerm: request.term,
      sortColumn: request.sort.column === 'preis' ? SortColumn.price : request.sort.column,
      sortOrder: request.sort.order,
      correctedTerms: query?.corrections ?? [],
    };
  }

  /** The page's products with the caller's offers and prices (the search index's warm-up leaves them out). */
  protected hitsOf(ids: number[], caller: SearchCaller, meta: CatalogueMeta): Promise<SearchResponse['hits']> {
    return searchHits(this.pool(), ids, { ...caller, meta }, this.hitStore);
  }

  /** All values of one filter (the show-more list), with counts for the current search. */
  async filterOptions(caller: SearchCaller, body: FilterOptionsRequest): Promise<SearchFilterOption> {
    const meta = await this.meta.get();
    const dimension = dimensionOf(body.filterName, meta, 'body.filterName');
    const term = normaliseTerm(body.searchTerm);
    const { selection } = normaliseFilters(body.filters ?? [], meta, 'body.filters');
    refusePriceFilterOfSeller(caller, dimension === 'price' || Boolean(selection.price));
    const query = term ? await this.analyse(meta, term, body.useNumberSearch ?? false) : null;
    const scope: Scope = {
      query,
      selection,
      dims: activeDimensions(selection),
      sellerSupplierNo: sellerNo(meta, caller),
    };
    const sources = await this.facetSources(meta, scope, selection, dimension);
    const options = buildFilterOptions(meta, selection, sources, scope.sellerSupplierNo, { allValues: true });
    const option = options.find((o) => o.columnName === body.filterName);
    return (
      option ?? {
        columnName: body.filterName,
        columnDescr: body.filterName,
        filterType: dimension === 'tree' ? 'Baum' : dimension === 'price' ? 'Regler' : 'Auswahl',
        filterValue: [],
        valueCount: 0,
        sliderValues: null,
        selectedSliderValues: null,
        unit: null,
      }
    );
  }

  async suggestions(caller: SearchCaller, rawTerm: string): Promise<Suggestions> {
    const meta = await this.meta.get();
    const term = normaliseTerm(rawTerm, 'query.term');
    return suggest(this.pool(), term, async (t) => {
      const query = await this.analyse(meta, t, false);
      if (!query.fts && !query.dimensions.length && !query.codeIds.length) return [];
      const where = scopeWhere({ query, selection: { features: new Map() }, dims: [], sellerSupplierNo: null }, meta);
      const rows = await repo.topSearchIds(this.pool(), where.conditionSql, where.values);
      return searchHits(
        this.pool(),
        rows.map((r) => r.id),
        { ...caller, meta },
        this.hitStore,
      );
    });
  }

  /** Product counts of the whole catalogue per tree node (the ProductTree call). */
  async catalogueCounts(): Promise<{ meta: CatalogueMeta; set: FacetSet }> {
    const meta = await this.meta.get();
    const scope: Scope = { query: null, selection: { features: new Map() }, dims: [], sellerSupplierNo: null };
    return { meta, set: await this.facetSet(meta, scope) };
  }

  private analyse(meta: CatalogueMeta, term: string, numberSearch: boolean) {
    return this.memo(this.analyses, `${meta.version}|${numberSearch}|${term.toLowerCase()}`, () =>
      analyseQuery(this.pool(), meta, term, {
        numberSearch,
        matches: this.queryMatches(),
        neighbours: this.wordNeighbours(meta),
        partNeighbours: this.partNeighbours(meta),
        spellings: this.termSpellings(meta),
        codes: this.codeMatches(),
      }),
    );
  }

  /** How the query analyser finds the catalogue words one edit away; undefined: one statement per analysis. */
  protected wordNeighbours(_meta: CatalogueMeta): ((words: string[]) => Promise<Map<string, string[]>>) | undefined {
    return undefined;
  }

  /** How the query analyser finds the parts of hyphenated words one edit away; undefined: one statement per word. */
  protected partNeighbours(_meta: CatalogueMeta): ((spellings: string[]) => Promise<PartNeighbour[]>) | undefined {
    return undefined;
  }

  /** How the query analyser reads the catalogue's spellings of folded words; undefined: one statement per call. */
  protected termSpellings(_meta: CatalogueMeta): ((folded: string[]) => Promise<Map<string, string>>) | undefined {
    return undefined;
  }

  /** How the query analyser finds the products of article numbers; undefined: one statement per analysis. */
  protected codeMatches(): ((codes: string[]) => Promise<Map<string, number[]>>) | undefined {
    return undefined;
  }

  /** How the query analyser learns whether a tsquery matches any product; undefined: EXISTS over product_search. */
  protected queryMatches(): ((queries: string[]) => Promise<(boolean | null)[]>) | undefined {
    return undefined;
  }

  /**
   * The facet counts of a scope. `only`: the dimension whose facet the set is for (a disjunctive set, see
   * facetSources): the other dimensions' counts of such a set are never read, an engine may leave them out.
   */
  protected facetSet(meta: CatalogueMeta, scope: Scope, _only?: Dimension): Promise<FacetSet> {
    return this.memo(this.facetSets, `${meta.version}|${scopeKey(scope)}`, () =>
      computeFacetSet(this.pool(), scope, meta),
    );
  }

  protected features(meta: CatalogueMeta, scope: Scope, classNo: number) {
    return this.memo(this.featureStats, `${meta.version}|${scopeKey(scope, `class:${classNo}`)}`, () =>
      computeFeatureStats(this.pool(), scope, meta, classNo),
    );
  }

  /**
   * The base set (all filters) gives the hit count and the facets of unselected dimensions; each
   * selected dimension's facet comes from the set without its own selection (disjunctive).
   */
  private async facetSources(
    meta: CatalogueMeta,
    scope: Scope,
    selection: FilterSelection,
    only?: Dimension,
  ): Promise<FacetSources> {
    const without = (dim: Dimension): Scope => ({ ...scope, dims: scope.dims.filter((d) => d !== dim) });
    const selected = only ? scope.dims.filter((d) => d === only) : scope.dims;
    const [base, ...others] = await Promise.all([
      this.facetSet(meta, scope),
      ...selected.map((d) => this.facetSet(meta, without(d), d)),
    ]);
    const byDimension = new Map(selected.map((d, i) => [d, others[i]]));
    // Feature facets belong to one ETIM class: the selected one, or the only one in the result.
    const classSet = byDimension.get('class') ?? base;
    const featureClass =
      selection.class?.length === 1 && selection.class[0] > 0
        ? selection.class[0]
        : classSet.classes.size === 1
          ? [...classSet.classes.keys()][0]
          : null;
    let features: FacetSources['features'] = null;
    if (featureClass !== null && (!only || only.startsWith('f:'))) {
      const featureDims = scope.dims.filter((d) => d.startsWith('f:') && (!only || d === only));
      const [all, ...own] = await Promise.all([
        this.features(meta, scope, featureClass),
        ...featureDims.map((d) => this.features(meta, without(d), featureClass)),
      ]);
      features = { classNo: featureClass, all, byFeature: new Map(featureDims.map((d, i) => [d.slice(2), own[i]])) };
    }
    return { base, byDimension, features };
  }

  /**
   * The requested page only. Recommended order: exact article numbers, then products with every
   * word as a whole word in the name, then in the name as prefix, then in name/brand/series, then
   * the rest – each tier in static rank order, so for a broad word Postgres walks the rank index
   * and stops after one page. A tier's size is only counted (and cached) when a page starts
   * behind it.
   */
  /** Page results are cached like facets: the catalogue only changes with a new version. */
  protected page(meta: CatalogueMeta, scope: Scope, sort: SearchSort, offset: number, limit: number, total?: number) {
    return this.memo(
      this.pages,
      `${meta.version}|${scopeKey(scope, `${sort.column}:${sort.order}:${offset}:${limit}`)}`,
      () => this.pageIds(meta, scope, sort, offset, limit, total),
    );
  }

  private async pageIds(
    meta: CatalogueMeta,
    scope: Scope,
    sort: SearchSort,
    offset: number,
    limit: number,
    total?: number,
  ): Promise<number[]> {
    const pool = this.pool();
    const select = async (condition: ((p: SqlParams) => string) | null, order: string, off: number, n: number) => {
      // A relevance tier's condition already contains the term.
      const where = scopeWhere(scope, meta, new SqlWhere(), { text: condition === null });
      if (condition) where.and(condition(where));
      const rows = await repo.searchIds(pool, where, order, off, n);
      return rows.map((r) => r.id);
    };
    if (sort.column === 'artikelbeschreibung') {
      // A large result is walked in name_rank index order (unique, no sort of all matches); a
      // small one is sorted after the index lookup – its matches may all sit at the end of the
      // alphabet ('…zange'), where walking the whole index would be far slower.
      const walk = total !== undefined && total > meta.productCount * NAME_WALK_SHARE;
      return select(null, `s.name_rank${walk ? '' : ' + 0'} ${sort.order === 'desc' ? 'DESC' : 'ASC'}`, offset, limit);
    }
    if (sort.column === 'preis') {
      // Products without a price (on demand, no offer price) last in both directions; equal prices in rank order.
      const price = '(SELECT sp.price_cents FROM product_search_prices sp WHERE sp.id = s.id)';
      return select(null, `${price} ${sort.order === 'desc' ? 'DESC' : 'ASC'} NULLS LAST, s.rank`, offset, limit);
    }
    const q = scope.query;
    if (!q) return select(null, 's.rank', offset, limit);
    const ids: number[] = [];
    let skip = offset;
    for (const [index, condition] of relevanceTiers(q).entries()) {
      const need = limit - ids.length;
      if (need <= 0) break;
      const rows = await select(condition, 's.rank', skip, need);
      ids.push(...rows);
      if (rows.length === need) break;
      // The tier ended on this page (the next one starts at its top) or before it (count it once).
      skip = rows.length || skip === 0 ? 0 : Math.max(0, skip - (await this.tierSize(meta, scope, index, condition)));
    }
    return ids;
  }

  private tierSize(meta: CatalogueMeta, scope: Scope, index: number, condition: (p: SqlParams) => string) {
    return this.memo(this.tierSizes, `${meta.version}|${scopeKey(scope, `tier:${index}`)}`, async () => {
      const where = scopeWhere(scope, meta, new SqlWhere(), { text: false });
      return repo.countSearchRows(this.pool(), where.and(condition(where)));
    });
  }
}

/**
 * SQL conditions of the relevance tiers of a query, best first; together they cover every hit once
 * (each includes the term). Exact article numbers first; then, when typo alternatives widened the
 * query, the tiers of the words as typed before the same tiers of the typo matches; within a level:
 * every word as a whole word in the name, as prefix in the name, in name/brand/series, anywhere.
 */
/**
 * The query levels the relevance tiers are built from (both engines): the exact words first, then the corrected or
 * expanded query without what the exact level already found.
 */
export function relevanceLevels(q: AnalysedQuery): { level: QueryLevel; not: string | null }[] {
  return q.exact
    ? [
        { level: q.exact, not: null },
        { level: q, not: q.exact.fts },
      ]
    : [{ level: q, not: null }];
}

function relevanceTiers(q: AnalysedQuery): ((p: SqlParams) => string)[] {
  const tsq = (p: SqlParams, text: string | null) => `s.vec @@ to_tsquery('german_unaccent', ${p.add(text)})`;
  const codes = q.codeIds;
  // Every tier also carries the dimension tokens and excludes the code matches of tier 0.
  const rest = (p: SqlParams) => {
    const dims = dimensionsCondition(q, p);
    return `${dims ? ` AND ${dims}` : ''}${codes.length ? ` AND NOT s.id = ANY(${p.add(codes)}::int[])` : ''}`;
  };
  const tiers: ((p: SqlParams) => string)[] = [];
  if (codes.length) tiers.push((p) => `s.id = ANY(${p.add(codes)}::int[])`);
  if (!q.fts) {
    if (q.dimensions.length) tiers.push((p) => `true${rest(p)}`);
    return tiers;
  }
  for (const { level, not } of relevanceLevels(q)) {
    const and = (p: SqlParams) => `${not ? ` AND NOT ${tsq(p, not)}` : ''}${rest(p)}`;
    // Each tier is its query without the matches of the tiers above it.
    const queries = tierQueries(level);
    queries.forEach((text, k) => {
      const above = queries.slice(0, k);
      tiers.push((p) => `${[tsq(p, text), ...above.map((a) => `NOT ${tsq(p, a)}`)].join(' AND ')}${and(p)}`);
    });
  }
  return tiers;
}

/**
 * The tsqueries of a level's relevance tiers, best first (a tier holds the matches of its query that no tier above
 * it holds). Without a prefix: in the name, in name/brand/series, anywhere. With a prefix (the last word): every word
 * as a whole word in the name, as a prefix in the name, as whole words in name/brand/series, as whole words
 * anywhere, and only then the prefixes outside the name – a brand that merely starts with the word
 * ('Thermostatica' for 'Thermostat') ranks below every product that has the word itself.
 */
export function tierQueries(level: QueryLevel): string[] {
  if (!level.ftsAExact || !level.ftsABExact || !level.ftsExact) return [level.ftsA!, level.ftsAB!, level.fts!];
  return [level.ftsAExact, level.ftsA!, level.ftsABExact, level.ftsExact, level.ftsAB!, level.fts!];
}

/** Supplier number of the caller's current partner when it is a supplier (its seller catalogue). */
/**
 * The price facet is the lowest price over every supplier's offers: for a seller (who sees only its own conditions)
 * its range and its filter would tell competitors' prices. A seller gets no price slider and may not filter by price.
 */
function refusePriceFilterOfSeller(caller: SearchCaller, asksForPrices: boolean) {
  if (caller.conditionsOnlyFor === null || caller.conditionsOnlyFor === undefined || !asksForPrices) return;
  throw badRequest(titles.priceFilterNotForSellers, 'Verkäufer sehen nur die Preise ihrer eigenen Angebote.', [
    { field: 'body.filter', message: titles.priceFilterNotForSellers },
  ]);
}

/** Sorting by price would tell a seller the order of competitors' prices (as the price filter would). */
function refusePriceSortOfSeller(caller: SearchCaller, sortsByPrice: boolean) {
  if (caller.conditionsOnlyFor === null || caller.conditionsOnlyFor === undefined || !sortsByPrice) return;
  throw badRequest(titles.priceSortNotForSellers, 'Verkäufer sehen nur die Preise ihrer eigenen Angebote.', [
    { field: 'body.sortColumn', message: titles.priceSortNotForSellers },
  ]);
}

function withoutHiddenConditions(caller: SearchCaller, options: SearchFilterOption[]): SearchFilterOption[] {
  if (caller.conditionsOnlyFor === null || caller.conditionsOnlyFor === undefined) return options;
  return options.filter((o) => o.columnName !== SearchColumn.price);
}

function sellerNo(meta: CatalogueMeta, caller: SearchCaller): number | null {
  return caller.bpNumber ? (meta.supplierByBp.get(caller.bpNumber)?.no ?? null) : null;
}
