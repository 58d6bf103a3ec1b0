/**
 * Facet counts over a whole result set. One SQL statement materialises the matching search rows
 * once and aggregates every dimension from that copy (brand, class, tree leaf, suppliers, price
 * range, Aktion). Only the narrow columns are read: the full-text match itself is decided by the
 * GIN index (no weights, no recheck), so the vector is never evaluated per row here. Disjunctive facets are built by the caller from several such
 * sets: the facet of dimension X comes from the set without X's own selection.
 */
import type pg from 'pg';
import type { CatalogueMeta } from '../catalogue-meta.ts';
import type { AnalysedQuery } from './query-analyser.ts';
import type { Dimension, FilterSelection } from './search-request.ts';
import * as repo from './search.repo.ts';
import { SqlWhere, type SqlParams } from '../../../db/sql-params.ts';

export { SqlParams, SqlWhere } from '../../../db/sql-params.ts';

/** What a result set is made of: the analysed term and the filters of some dimensions. */
export interface Scope {
  query: AnalysedQuery | null;
  selection: FilterSelection;
  dims: Dimension[];
  /** Supplier number of the caller's current partner (resolves SHKMARKET_11). */
  sellerSupplierNo: number | null;
}

export interface FacetSet {
  total: number;
  brands: Map<number, number>;
  classes: Map<number, number>;
  leaves: Map<number, number>;
  suppliers: Map<number, number>;
  promo: number;
  /** Lowest net price range in cents. */
  price: { min: number | null; max: number | null };
}

export interface FeatureStats {
  numeric: Map<string, { min: number | null; max: number | null }>;
  values: Map<string, Map<number, number>>;
}

const TS = `'german_unaccent'`;

export function textCondition(query: AnalysedQuery | null, p: SqlParams): string | null {
  if (!query) return null;
  const parts: string[] = [];
  const words = query.fts ? `s.vec @@ to_tsquery(${TS}, ${p.add(query.fts)})` : null;
  const dimensions = dimensionsCondition(query, p);
  if (words || dimensions) parts.push([words, dimensions].filter(Boolean).join(' AND '));
  if (query.codeIds.length) parts.push(`s.id = ANY(${p.add(query.codeIds)}::int[])`);
  return parts.length ? `(${parts.join(' OR ')})` : 'false';
}

/**
 * The dimension tokens of a query (dimensions.ts), all required: a feature test per class group,
 * and for products of the other classes the dimension as a phrase in their texts.
 */
export function dimensionsCondition(query: AnalysedQuery, p: SqlParams): string | null {
  if (!query.dimensions.length) return null;
  return query.dimensions
    .map((d) => {
      const featured = d.groups.flatMap((g) => g.classes);
      const tests = d.groups.map(
        (g) =>
          `(s.class_no = ANY(${p.add(g.classes)}::int[]) AND ${g.tests
            .map((t) => `s.f${Number(t.slot)} = ANY(${p.add(t.values)}::real[])`)
            .join(' AND ')})`,
      );
      const others = featured.length
        ? `(s.class_no IS NULL OR NOT s.class_no = ANY(${p.add(featured)}::int[])) AND `
        : '';
      tests.push(`(${others}s.vec @@ phraseto_tsquery(${TS}, ${p.add(d.phrase)}))`);
      return `(${tests.join(' OR ')})`;
    })
    .join(' AND ');
}

export function dimensionCondition(
  dim: Dimension,
  s: FilterSelection,
  meta: CatalogueMeta,
  sellerSupplierNo: number | null,
  p: SqlParams,
): string {
  switch (dim) {
    case 'brand':
      return `s.brand_no = ANY(${p.add(s.brand)}::int[])`;
    case 'class':
      return `s.class_no = ANY(${p.add(s.class)}::int[])`;
    case 'supplier':
      return `s.supplier_nos && ${p.add(s.supplier)}::int[]`;
    case 'wholesaler':
      return `s.supplier_nos && ${p.add(s.wholesaler)}::int[]`;
    case 'price': {
      // The lowest price lives in the narrow product_search_prices (migration 0205), one row per search row.
      const c: string[] = [];
      if (s.price!.min !== null) c.push(`sp.price_cents >= ${p.add(s.price!.min)}`);
      if (s.price!.max !== null) c.push(`sp.price_cents <= ${p.add(s.price!.max)}`);
      return `s.id IN (SELECT sp.id FROM product_search_prices sp WHERE ${c.join(' AND ')})`;
    }
    case 'tree': {
      const t = s.tree!;
      const c: string[] = [];
      if (t.leafNos.length) c.push(`s.leaf_no = ANY(${p.add(t.leafNos)}::int[])`);
      if (t.promo) c.push('s.promo');
      if (t.sellerCatalogue && sellerSupplierNo !== null)
        c.push(`s.supplier_nos @> ARRAY[${p.add(sellerSupplierNo)}::int]`);
      return c.length ? `(${c.join(' OR ')})` : 'false';
    }
    default: {
      const featureId = dim.slice(2);
      const feature = meta.features.get(featureId)!;
      const selected = s.features.get(featureId)!;
      const { classesBySlot } = feature;
      const perSlot = [...classesBySlot].map(([slot, classes]) => {
        const column = `s.f${slot}`;
        let test: string;
        if (selected.kind === 'A') test = `${column} = ANY(${p.add(selected.valueNos)}::real[])`;
        else {
          const bounds: string[] = [];
          if (selected.min !== null) bounds.push(`${column} >= ${p.add(selected.min)}`);
          if (selected.max !== null) bounds.push(`${column} <= ${p.add(selected.max)}`);
          test = bounds.join(' AND ');
        }
        return `(s.class_no = ANY(${p.add(classes)}::int[]) AND ${test})`;
      });
      return perSlot.length ? `(${perSlot.join(' OR ')})` : 'false';
    }
  }
}

/**
 * The conditions of a scope (term and the scope's dimensions), added to `where`. text: false leaves the term out for
 * callers that add a stricter text condition themselves (a second, implied tsquery would make the
 * planner multiply selectivities and pick a bad plan).
 */
export function scopeWhere(
  scope: Scope,
  meta: CatalogueMeta,
  where = new SqlWhere(),
  options: { text?: boolean } = {},
): SqlWhere {
  const text = options.text === false ? null : textCondition(scope.query, where);
  if (text) where.and(text);
  for (const dim of scope.dims)
    where.and(dimensionCondition(dim, scope.selection, meta, scope.sellerSupplierNo, where));
  return where;
}

/** A stable cache key of a scope (only the selected dimensions count). */
export function scopeKey(scope: Scope, extra = ''): string {
  const s = scope.selection;
  const part = (dim: Dimension) => {
    if (dim.startsWith('f:')) {
      const f = s.features.get(dim.slice(2))!;
      return [dim, f];
    }
    return [dim, (s as unknown as Record<string, unknown>)[dim]];
  };
  const dims = [...scope.dims].sort().map(part);
  const seller = scope.dims.includes('tree') && s.tree?.sellerCatalogue ? scope.sellerSupplierNo : null;
  const q = scope.query;
  return JSON.stringify([
    q?.fts ?? null,
    q?.exact?.fts ?? null,
    q?.dimensions ?? null,
    q?.codeIds ?? null,
    dims,
    seller,
    extra,
  ]);
}

export async function computeFacetSet(pool: pg.Pool, scope: Scope, meta: CatalogueMeta): Promise<FacetSet> {
  const where = scopeWhere(scope, meta);
  // One pass with grouping sets for brand/class/leaf/totals, one unnest pass for the supplier arrays.
  const rows = await repo.facetSetRows(pool, where.conditionSql, where.values);
  const set: FacetSet = {
    total: 0,
    brands: new Map(),
    classes: new Map(),
    leaves: new Map(),
    suppliers: new Map(),
    promo: 0,
    price: { min: null, max: null },
  };
  // GROUPING bits (brand, class, leaf): 3 = by brand, 5 = by class, 6 = by leaf, 7 = total.
  for (const r of rows) {
    if (r.g === -1) set.suppliers.set(r.brand_no!, r.n);
    else if (r.g === 7) {
      set.total = r.n;
      set.promo = r.promo ?? 0;
      set.price = { min: r.lo, max: r.hi };
    } else if (r.g === 3) set.brands.set(r.brand_no!, r.n);
    else if (r.g === 5 && r.class_no !== null) set.classes.set(r.class_no, r.n);
    else if (r.g === 6) set.leaves.set(r.leaf_no!, r.n);
  }
  return set;
}

/** Feature value counts and numeric ranges of one ETIM class within a scope. */
export async function computeFeatureStats(
  pool: pg.Pool,
  scope: Scope,
  meta: CatalogueMeta,
  classNo: number,
): Promise<FeatureStats> {
  const slots = meta.classes.get(classNo)?.slots ?? [];
  const stats: FeatureStats = { numeric: new Map(), values: new Map() };
  if (!slots.length) return stats;
  const where = scopeWhere(scope, meta);
  const rows = await repo.featureStatRows(
    pool,
    where.conditionSql,
    where,
    classNo,
    slots.map((s) => s.slot),
    slots.filter((s) => meta.features.get(s.featureId)!.kind === 'A').map((s) => s.slot),
    slots.filter((s) => meta.features.get(s.featureId)!.kind === 'N').map((s) => s.slot),
  );
  const featureOfSlot = new Map(slots.map((s) => [s.slot, s.featureId]));
  for (const r of rows) {
    const featureId = featureOfSlot.get(r.slot)!;
    if (r.kind === 'n') stats.numeric.set(featureId, { min: r.v, max: r.x });
    else {
      const values = stats.values.get(featureId) ?? new Map<number, number>();
      values.set(Math.round(r.v!), r.n);
      stats.values.set(featureId, values);
    }
  }
  return stats;
}
