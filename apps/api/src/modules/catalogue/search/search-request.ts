/**
 * Validates and normalises a search request: page rules, sort, term characters, and the filter
 * list (unknown columns, wrong filter types, min > max → 400 with a German title; empty filters
 * are dropped; a tree filter containing the root id replaces the other tree values).
 */
import {
  catalogueProblemTitles as titles,
  limits,
  SearchColumn,
  SortColumn,
  treeNodeAction,
  treeNodeSellerCatalogue,
  treeElementIdPattern,
  treeRoot,
  type SearchFilter,
  type SearchRequest,
} from '@shk/contracts';
import { badRequest } from '../../../http/problem.ts';
import type { CatalogueMeta } from '../catalogue-meta.ts';

export type Dimension = 'brand' | 'supplier' | 'wholesaler' | 'class' | 'tree' | 'price' | `f:${string}`;

export type FeatureSelection =
  | { featureId: string; kind: 'N'; min: number | null; max: number | null }
  | { featureId: string; kind: 'A'; valueNos: number[] };

export interface FilterSelection {
  brand?: number[];
  supplier?: number[];
  wholesaler?: number[];
  class?: number[];
  /** Selected tree: leaves, Aktion (SHKMARKET_10) and the caller's seller catalogue (SHKMARKET_11). */
  tree?: { elementIds: string[]; leafNos: number[]; promo: boolean; sellerCatalogue: boolean };
  /** In cents. */
  price?: { min: number | null; max: number | null };
  features: Map<string, FeatureSelection>;
}

/** relevanz: recommended order; artikelbeschreibung: name; preis: lowest net price per unit. */
export type SortKind = 'relevanz' | 'artikelbeschreibung' | 'preis';
export interface SearchSort {
  column: SortKind;
  order: 'asc' | 'desc';
}

export interface NormalisedSearch {
  term: string;
  numberSearch: boolean;
  page: number;
  pageSize: number;
  sort: SearchSort;
  filters: FilterSelection;
  filterUsed: SearchFilter[];
}

const columnDescriptions: Record<string, string> = {
  [SearchColumn.brand]: 'Marke',
  [SearchColumn.supplierId]: 'Lieferant',
  [SearchColumn.wholesalers]: 'Großhändler',
  [SearchColumn.etimClass]: 'ETIM-Klasse',
  [SearchColumn.tree]: 'Kategorie',
  [SearchColumn.price]: 'Preis (netto)',
};
export const describeColumn = (column: string, meta: CatalogueMeta) =>
  columnDescriptions[column] ?? meta.features.get(column)?.description ?? column;

const expectedType: Record<string, SearchFilter['filterType']> = {
  [SearchColumn.brand]: 'Auswahl',
  [SearchColumn.supplierId]: 'Auswahl',
  [SearchColumn.wholesalers]: 'Auswahl',
  [SearchColumn.etimClass]: 'Auswahl',
  [SearchColumn.tree]: 'Baum',
  [SearchColumn.price]: 'Regler',
};

/**
 * Filter values, column and sort names are identifiers, never free text: SQL syntax and control
 * characters in them are refused (the query is parameterised anyway). The search term is checked
 * by checkTermText below instead.
 */
const FORBIDDEN = /[\p{Cc};<>{}[\]\\`|$^=@]|--|\/\*|\*\//u;
const SQL_SHAPE =
  /\b(union\s+(all\s+)?select|select\s+[\s\S]+\s+from|drop\s+(table|database|schema)|insert\s+into|delete\s+from|update\s+\w+\s+set|truncate\s+table|alter\s+table)\b/i;

export function checkText(value: string, field: string) {
  if (FORBIDDEN.test(value) || SQL_SHAPE.test(value)) {
    throw badRequest(
      titles.invalidCharacters,
      `${field}: erlaubt sind Buchstaben, Ziffern, Leerzeichen und . , - _ / + ( ) & ' " ° # : ~ % * ! ?`,
      [{ field, message: titles.invalidCharacters }],
    );
  }
}

export function normaliseTerm(raw: string | null | undefined, field = 'body.searchTerm'): string {
  const term = (raw ?? '').replace(/\s+/g, ' ').trim();
  if (term.length > limits.searchTermMaxLength) {
    throw badRequest(titles.termTooLong, `Höchstens ${limits.searchTermMaxLength} Zeichen.`, [
      { field, message: titles.termTooLong },
    ]);
  }
  checkTermText(term, field);
  return term;
}

/**
 * The search term is free text and searches as typed: brackets, '=', '@', quotes, SQL words … are
 * just characters (every SQL value is a bind parameter and the tsquery is built from [a-z0-9]
 * tokens only, see query-analyser.ts). Only control characters are refused (NUL already by the
 * input guard of every route); tabs and line breaks were turned into spaces above.
 */
const TERM_FORBIDDEN = /\p{Cc}/u;
function checkTermText(value: string, field: string) {
  if (TERM_FORBIDDEN.test(value)) {
    throw badRequest(titles.invalidCharacters, `${field}: Steuerzeichen sind nicht erlaubt.`, [
      { field, message: titles.invalidCharacters },
    ]);
  }
}

export function normaliseSearch(body: SearchRequest, meta: CatalogueMeta): NormalisedSearch {
  const pageSize = body.pageSize ?? limits.searchPageSize;
  if (pageSize > limits.searchMaxPageSize || pageSize < 1) {
    throw badRequest(
      titles.pageSizeTooLarge,
      `Die Seitengröße muss zwischen 1 und ${limits.searchMaxPageSize} liegen.`,
      [{ field: 'body.pageSize', message: titles.pageSizeTooLarge }],
    );
  }
  // Page below 1 is page 1; the UI offers at most 100 pages.
  const page = Math.min(Math.max(body.page ?? 1, 1), limits.searchMaxPages);
  const column = (body.sortColumn ?? '').trim();
  if (column && column !== SortColumn.recommended && column !== SortColumn.name && column !== SortColumn.price) {
    checkText(column, 'body.sortColumn');
    const allowed = `'${SortColumn.recommended}', '${SortColumn.name}' oder '${SortColumn.price}'`;
    throw badRequest(titles.unknownSortColumn, `Erlaubt: ${allowed}.`, [
      { field: 'body.sortColumn', message: titles.unknownSortColumn },
    ]);
  }
  const orderText = (body.sortOrder ?? 'asc').toLowerCase();
  if (orderText !== 'asc' && orderText !== 'desc') {
    throw badRequest(titles.unknownSortColumn, "Die Sortierreihenfolge ist 'asc' oder 'desc'.", [
      { field: 'body.sortOrder', message: 'ungültig' },
    ]);
  }
  const { selection, used } = normaliseFilters(body.filter ?? [], meta, 'body.filter');
  return {
    term: normaliseTerm(body.searchTerm),
    numberSearch: body.useNumberSearch ?? false,
    page,
    pageSize,
    sort: { column: sortKind(column), order: orderText },
    filters: selection,
    filterUsed: used,
  };
}

function sortKind(column: string): SortKind {
  if (column === SortColumn.name) return 'artikelbeschreibung';
  if (column === SortColumn.price) return 'preis';
  return 'relevanz';
}

/** Checks a filter column name and returns its dimension. */
export function dimensionOf(column: string, meta: CatalogueMeta, field: string): Dimension {
  switch (column) {
    case SearchColumn.brand:
      return 'brand';
    case SearchColumn.supplierId:
      return 'supplier';
    case SearchColumn.wholesalers:
      return 'wholesaler';
    case SearchColumn.etimClass:
      return 'class';
    case SearchColumn.tree:
      return 'tree';
    case SearchColumn.price:
      return 'price';
  }
  if (meta.features.has(column)) return `f:${column}`;
  checkText(column, field);
  throw badRequest(titles.unknownFilterColumn, `Nach '${column}' kann nicht gefiltert werden.`, [
    { field, message: titles.unknownFilterColumn },
  ]);
}

export function normaliseFilters(
  filters: SearchFilter[],
  meta: CatalogueMeta,
  fieldPrefix: string,
): { selection: FilterSelection; used: SearchFilter[] } {
  const selection: FilterSelection = { features: new Map() };
  const values = new Map<Dimension, { column: string; values: string[] }>();
  const sliders = new Map<Dimension, { column: string; min: number | null; max: number | null }>();

  filters.forEach((f, index) => {
    const field = `${fieldPrefix}.${index}`;
    const dimension = dimensionOf(f.columnName, meta, `${field}.columnName`);
    const feature = dimension.startsWith('f:') ? meta.features.get(f.columnName)! : null;
    const expected = feature ? (feature.kind === 'N' ? 'Regler' : 'Auswahl') : expectedType[f.columnName];
    if (f.filterType !== expected) {
      throw badRequest(titles.wrongFilterType, `Die Spalte '${f.columnName}' erwartet den Filtertyp '${expected}'.`, [
        { field: `${field}.filterType`, message: titles.wrongFilterType },
      ]);
    }
    if (expected === 'Regler') {
      const min = f.sliderValues?.minValue ?? null;
      const max = f.sliderValues?.maxValue ?? null;
      for (const [name, v] of [
        ['minValue', min],
        ['maxValue', max],
      ] as const) {
        if (v !== null && (!Number.isFinite(v) || v < 0 || v > 1e9)) {
          throw badRequest(titles.sliderOutOfRange, `${name}: ${v}`, [
            { field: `${field}.sliderValues.${name}`, message: titles.sliderOutOfRange },
          ]);
        }
      }
      if (min !== null && max !== null && min > max) {
        throw badRequest(titles.sliderMinAboveMax, `minValue ${min} > maxValue ${max}`, [
          { field: `${field}.sliderValues`, message: titles.sliderMinAboveMax },
        ]);
      }
      // A slider with neither min nor max is dropped (spec §5); a repeated slider replaces the earlier one.
      if (min === null && max === null) sliders.delete(dimension);
      else sliders.set(dimension, { column: f.columnName, min, max });
      return;
    }
    const list = (f.filterValue ?? [])
      .map((v, k) => {
        const value = v.value.trim();
        checkText(value, `${field}.filterValue.${k}.value`);
        return value;
      })
      .filter(Boolean);
    if (!list.length) return; // selection filters with empty values are dropped (spec §5)
    const entry = values.get(dimension) ?? { column: f.columnName, values: [] };
    for (const v of list) if (!entry.values.includes(v)) entry.values.push(v);
    values.set(dimension, entry);
  });

  const used: SearchFilter[] = [];
  for (const [dimension, { column, values: list }] of values) {
    const displayed: { value: string; displayName: string }[] = [];
    switch (dimension) {
      case 'brand':
        selection.brand = list.map((v) => meta.brandNoByName.get(v) ?? -1);
        list.forEach((v) => displayed.push({ value: v, displayName: v }));
        break;
      case 'supplier':
      case 'wholesaler': {
        const nos = list.map((v) => {
          const s = meta.supplierByBp.get(v);
          return s && (dimension === 'supplier' || s.organisationType === 1) ? s.no : -1;
        });
        selection[dimension] = nos;
        list.forEach((v) => displayed.push({ value: v, displayName: meta.supplierByBp.get(v)?.name ?? v }));
        break;
      }
      case 'class':
        selection.class = list.map((v) => meta.classNoById.get(v) ?? -1);
        list.forEach((v) => {
          const no = meta.classNoById.get(v);
          displayed.push({ value: v, displayName: no ? meta.classes.get(no)!.description : v });
        });
        break;
      case 'tree': {
        for (const [k, v] of list.entries()) {
          if (!treeElementIdPattern.test(v)) {
            throw badRequest(titles.invalidFilterValue, `Unbekannter Kategorieknoten '${v}'.`, [
              { field: `${fieldPrefix}.tree.${k}`, message: titles.invalidFilterValue },
            ]);
          }
        }
        // The root replaces every other tree value: the whole catalogue, no restriction.
        const chosen = list.includes(treeRoot) ? [treeRoot] : list;
        if (!chosen.includes(treeRoot)) {
          const leafNos = new Set<number>();
          for (const id of chosen) meta.treeByElementId.get(id)?.leafNos.forEach((l) => leafNos.add(l));
          selection.tree = {
            elementIds: chosen,
            leafNos: [...leafNos].sort((a, b) => a - b),
            promo: chosen.includes(treeNodeAction),
            sellerCatalogue: chosen.includes(treeNodeSellerCatalogue),
          };
        }
        chosen.forEach((v) => displayed.push({ value: v, displayName: meta.treeByElementId.get(v)?.name ?? v }));
        break;
      }
      default: {
        const feature = meta.features.get(column)!;
        selection.features.set(feature.id, {
          featureId: feature.id,
          kind: 'A',
          valueNos: list.map((v) => meta.valueNoById.get(v) ?? -1),
        });
        list.forEach((v) => {
          const no = meta.valueNoById.get(v);
          displayed.push({ value: v, displayName: no ? meta.values.get(no)!.description : v });
        });
      }
    }
    used.push({
      columnName: column,
      columnDescr: describeColumn(column, meta),
      filterType: dimension === 'tree' ? 'Baum' : 'Auswahl',
      filterValue: displayed,
      sliderValues: null,
    });
  }
  for (const [dimension, { column, min, max }] of sliders) {
    if (dimension === 'price')
      selection.price = {
        min: min === null ? null : Math.round(min * 100),
        max: max === null ? null : Math.round(max * 100),
      };
    else selection.features.set(column, { featureId: column, kind: 'N', min, max });
    used.push({
      columnName: column,
      columnDescr: describeColumn(column, meta),
      filterType: 'Regler',
      filterValue: [],
      sliderValues: { minValue: min, maxValue: max },
    });
  }
  return { selection, used };
}

/** The dimensions that carry a selection. */
export function activeDimensions(s: FilterSelection): Dimension[] {
  const dims: Dimension[] = [];
  if (s.brand) dims.push('brand');
  if (s.supplier) dims.push('supplier');
  if (s.wholesaler) dims.push('wholesaler');
  if (s.class) dims.push('class');
  if (s.tree) dims.push('tree');
  if (s.price) dims.push('price');
  for (const id of s.features.keys()) dims.push(`f:${id}`);
  return dims;
}
