/**
 * The spec's search column names (buyer-side.md §3 Search filter). A module of its own without zod, so the SPA's
 * shell (menu links into the catalogue) does not load the schemas; `schemas/catalogue.ts` re-exports it.
 */
export const SearchColumn = {
  brand: 'brandname',
  supplierId: 'supplierID',
  supplierName: 'supplierName',
  productInstanceId: 'PRODUCTINSTANCE_ID',
  description: 'artikelbeschreibung',
  manufacturerPid: 'manufacturerPID',
  manufacturerId: 'manufacturerID',
  manufacturerName: 'herstellerName',
  catalogueNumber: 'werksartikelnummerKatalog',
  wholesalers: 'wholesalers',
  tree: 'TREE_ELEMENT_ID_SHKMARKET',
  etimClass: 'etimKlasse',
  articleNumber: 'artikelnummer',
  articleType: 'artikeltyp',
  series: 'serie',
  picture: 'bild',
  gtin: 'gtin',
  /** Price slider over the suppliers' net list prices (wholesaler trade data). */
  price: 'mhk_handelsdaten_preis',
} as const;

/**
 * Sort columns of the search: empty/'relevanz' = recommended, 'artikelbeschreibung' = name, 'mhk_handelsdaten_preis' =
 * the lowest net price per unit (the price slider's column; products without a price come last in both directions).
 */
export const SortColumn = {
  recommended: 'relevanz',
  name: 'artikelbeschreibung',
  price: SearchColumn.price,
} as const;
