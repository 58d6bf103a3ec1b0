/**
 * Catalogue and search (buyer-side.md §3 Product, offer, search hit, search filter, product tree,
 * favourite, unit; §7 Products and search). Column names are the spec's search column names.
 */
import { z } from 'zod';

export { ID_SEPARATOR } from '../composite-ids.ts';

/**
 * Upper bound of a search term the API accepts at all; the product rule (limits.searchTermMaxLength) is checked
 * by the search service so that it gets its own German problem title.
 */
export const SEARCH_TERM_TRANSPORT_MAX = 10_000;

export { SearchColumn, SortColumn } from '../search-columns.ts';

export const FilterType = z.enum(['Auswahl', 'Baum', 'Regler']).meta({ id: 'FilterType' });
export type FilterType = z.infer<typeof FilterType>;

export const catalogueProblemTitles = {
  unknownFilterColumn: 'Unbekannte Filterspalte',
  wrongFilterType: 'Der Filtertyp passt nicht zur Filterspalte',
  invalidFilterValue: 'Ungültiger Filterwert',
  sliderOutOfRange: 'Eingabe außerhalb des gültigen Bereichs',
  sliderMinAboveMax: 'Min-Wert darf nicht größer als Max-Wert sein',
  pageSizeTooLarge: 'Die Seitengröße ist zu groß',
  termTooLong: 'Der Suchbegriff ist zu lang',
  invalidCharacters: 'Die Eingabe enthält unzulässige Zeichen',
  unknownSortColumn: 'Unbekannte Sortierspalte',
  productNotFound: 'Produkt nicht gefunden',
  invalidProductInstanceId: 'Ungültige Produktinstanz-ID',
  favouriteNotFound: 'Favorit nicht gefunden',
  searchTimeout: 'Die Suche hat zu lange gedauert. Bitte schränken Sie die Suche ein.',
  mediaNotFound: 'Datei nicht gefunden',
  priceFilterNotForSellers: 'Der Preisfilter steht Verkäufern nicht zur Verfügung',
  priceSortNotForSellers: 'Die Sortierung nach Preis steht Verkäufern nicht zur Verfügung',
} as const;

export const Unit = z
  .object({
    code: z.string(),
    /** A caret marks superscript: m^2. */
    shortDescription: z.string(),
  })
  .meta({ id: 'Unit' });
export type Unit = z.infer<typeof Unit>;

export interface ProductTreeNode {
  elementID: string;
  type: 'root' | 'node' | 'leaf';
  parentID: string | null;
  descriptions: { name: string; language: string }[];
  productCount: number;
  children: ProductTreeNode[];
}
export const ProductTreeNode: z.ZodType<ProductTreeNode> = z
  .object({
    elementID: z.string(),
    type: z.enum(['root', 'node', 'leaf']),
    parentID: z.string().nullable(),
    descriptions: z.array(z.object({ name: z.string(), language: z.string() })),
    productCount: z.number().int(),
    get children() {
      return z.array(ProductTreeNode);
    },
  })
  .meta({ id: 'ProductTreeNode' });

// ——— search request ———

export const SearchFilterValue = z.object({
  value: z.string().max(200),
  displayName: z.string().max(300).optional(),
  count: z.number().optional(),
});

export const SliderValues = z.object({
  minValue: z.number().nullable().optional(),
  maxValue: z.number().nullable().optional(),
});

export const SearchFilter = z
  .object({
    columnName: z.string().max(100),
    columnDescr: z.string().max(300).nullable().optional(),
    filterType: FilterType,
    filterValue: z.array(SearchFilterValue).max(500).nullable().optional(),
    sliderValues: SliderValues.nullable().optional(),
  })
  .meta({ id: 'SearchFilter' });
export type SearchFilter = z.infer<typeof SearchFilter>;

/** Limits are checked by the service so that each gets its own German problem title. */
export const SearchRequest = z
  .object({
    page: z.number().int().optional(),
    pageSize: z.number().int().optional(),
    searchTerm: z.string().max(SEARCH_TERM_TRANSPORT_MAX).nullable().optional(),
    filter: z.array(SearchFilter).max(100).nullable().optional(),
    sortColumn: z.string().max(200).nullable().optional(),
    sortOrder: z.string().max(20).nullable().optional(),
    /** Article-number search only: exact and prefix matches of GTIN and article numbers, no full text. */
    useNumberSearch: z.boolean().optional(),
  })
  .meta({ id: 'SearchRequest' });
export type SearchRequest = z.infer<typeof SearchRequest>;

export const FilterOptionsRequest = z
  .object({
    filterName: z.string().max(100),
    searchTerm: z.string().max(SEARCH_TERM_TRANSPORT_MAX).nullable().optional(),
    useNumberSearch: z.boolean().optional(),
    filters: z.array(SearchFilter).max(100).nullable().optional(),
  })
  .meta({ id: 'FilterOptionsRequest' });
export type FilterOptionsRequest = z.infer<typeof FilterOptionsRequest>;

// ——— search response ———

export const Price = z
  .object({
    value: z.number().nullable(),
    currency: z.literal('EUR'),
    /** The price is for this many quantity units (price basis). */
    basis: z.number(),
    quantityUnit: z.string().nullable(),
    priceOnDemand: z.boolean(),
  })
  .meta({ id: 'Price' });
export type Price = z.infer<typeof Price>;

export const Wholesaler = z.object({ supplierID: z.string(), supplierName: z.string(), supplierPID: z.string() });

export const SearchHit = z
  .object({
    rows: z.object({
      manufacturerID: z.string(),
      manufacturerPID: z.string(),
      herstellerName: z.string(),
      gtin: z.string().nullable(),
      brandname: z.string(),
      artikelbeschreibung: z.string(),
      bild: z.string().nullable(),
      PRODUCTINSTANCE_ID: z.string(),
      werksartikelnummerKatalog: z.string().nullable(),
      wholesalers: z.array(Wholesaler),
      supplierID: z.string(),
      supplierName: z.string(),
      artikelnummer: z.string(),
      artikeltyp: z.string().nullable(),
      serie: z.string().nullable(),
      etimKlasse: z.string().nullable(),
      TREE_ELEMENT_ID_SHKMARKET: z.string(),
    }),
    /** manufacturerID~manufacturerPID, the /produkt id. */
    productId: z.string(),
    isFavorite: z.boolean(),
    productOrderableStatus: z.number().int(),
    /** None when the shown offer's conditions are withheld from the caller (conditionsHidden). */
    price: Price.nullable(),
    /** Minimum order quantity of the shown offer (cards start their quantity counter there); null when withheld. */
    minOrderQuantity: z.number().nullable(),
    /**
     * The shown offer is a competitor's and the caller a seller: price, minimum quantity and delivery time are not
     * given (a marketplace shows a seller only its own conditions, docs/security.md).
     */
    conditionsHidden: z.boolean(),
  })
  .meta({ id: 'SearchHit' });
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchFilterOptionValue = z.object({
  value: z.string(),
  displayName: z.string(),
  count: z.number().int(),
  /** Tree filter: element id of the parent node. */
  parentId: z.string().nullable().optional(),
  selected: z.boolean(),
});

export const SearchFilterOption = z
  .object({
    columnName: z.string(),
    columnDescr: z.string(),
    filterType: FilterType,
    filterValue: z.array(SearchFilterOptionValue),
    /** Number of distinct values (filterValue may show only the first ones; FilterOptions returns all). */
    valueCount: z.number().int(),
    /** Slider: range over the result set (ignoring this filter's own selection). */
    sliderValues: z.object({ minValue: z.number().nullable(), maxValue: z.number().nullable() }).nullable(),
    /** Slider: the selected range, if any. */
    selectedSliderValues: z.object({ minValue: z.number().nullable(), maxValue: z.number().nullable() }).nullable(),
    /** Slider unit (caret marks superscript), e.g. EUR, mm, m^3/h. */
    unit: z.string().nullable(),
  })
  .meta({ id: 'SearchFilterOption' });
export type SearchFilterOption = z.infer<typeof SearchFilterOption>;

export const SearchResponse = z
  .object({
    hits: z.array(SearchHit),
    hitCount: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    /** Pages the UI may offer (at most 100). */
    pageCount: z.number().int(),
    filterOption: z.array(SearchFilterOption),
    filterUsed: z.array(SearchFilter),
    searchTerm: z.string(),
    sortColumn: z.string(),
    sortOrder: z.enum(['asc', 'desc']),
    /** Words that had no match and were replaced by similar ones (typo tolerance). */
    correctedTerms: z.array(z.object({ from: z.string(), to: z.array(z.string()) })),
  })
  .meta({ id: 'SearchResponse' });
export type SearchResponse = z.infer<typeof SearchResponse>;

export const Suggestions = z
  .object({
    term: z.string(),
    suggestions: z.array(
      z.object({ text: z.string(), kind: z.enum(['Begriff', 'Marke', 'Kategorie', 'Serie']), count: z.number().int() }),
    ),
    products: z.array(
      z.object({
        productId: z.string(),
        productInstanceId: z.string(),
        productName: z.string(),
        brandName: z.string(),
        imageUrl: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'Suggestions' });
export type Suggestions = z.infer<typeof Suggestions>;

// ——— product ———

const Measure = z.object({ value: z.number(), unit: z.string() }).nullable();

export const Picture = z.object({
  url: z.string(),
  filename: z.string(),
  description: z.string(),
  size: z.number().int(),
});
/**
 * Product media kinds anyone may fetch without signing in (media URLs carry sequential product numbers): pictures and
 * the manufacturer's technical documents. Every other kind – a price list, a document whose purpose the supplier's
 * catalogue does not state – is served to signed-in users only (docs/security.md).
 */
export const PUBLIC_MEDIA_KINDS = ['picture', 'Datenblatt', 'Montageanleitung', '2D', '3C'] as const;
export const isPublicMediaKind = (type: string) => (PUBLIC_MEDIA_KINDS as readonly string[]).includes(type);

export const ProductDocument = z.object({
  /**
   * Datenblatt, Montageanleitung, 2D (Maßzeichnung) or 3C (3D model); 2D and 3C are dimensional data. Preisliste and
   * Dokument (purpose not stated) are not public.
   */
  type: z.string(),
  url: z.string(),
  /** The URL needs the bearer token (a kind outside PUBLIC_MEDIA_KINDS). */
  requiresSignIn: z.boolean(),
  filename: z.string(),
  description: z.string(),
  size: z.number().int(),
});

export const ProductFeature = z.object({
  featureId: z.string(),
  description: z.string(),
  kind: z.enum(['N', 'A']),
  value: z.union([z.number(), z.string()]),
  valueId: z.string().nullable(),
  unit: z.string().nullable(),
});

export const SupplierInfo = z.object({
  bpNumber: z.string(),
  name: z.string(),
  requiredOnboardingForm: z.boolean(),
  hideAdditionalInfo: z.boolean(),
});

/**
 * An accessory or spare part resolved to a product the caller can open: name, first picture and the preferred
 * offer (the one its product page opens with). References without a visible offer are left out.
 */
export const RelatedProduct = z
  .object({
    kind: z.enum(['accessory', 'sparePart', 'successor']),
    productId: z.string(),
    productInstanceId: z.string(),
    manufacturerId: z.string(),
    manufacturerPid: z.string(),
    productName: z.string(),
    brandName: z.string(),
    imageUrl: z.string().nullable(),
    supplierName: z.string(),
    /** None when the offer's conditions are withheld from the caller (a seller: a competitor's offer). */
    price: Price.nullable(),
    productOrderableStatus: z.number().int(),
  })
  .meta({ id: 'RelatedProduct' });
export type RelatedProduct = z.infer<typeof RelatedProduct>;

export const Product = z
  .object({
    productInstanceId: z.string(),
    productId: z.string(),
    manufacturerId: z.string(),
    manufacturerPid: z.string(),
    manufacturerName: z.string(),
    supplierPid: z.string(),
    supplierBpNo: z.string(),
    gtin: z.string().nullable(),
    brandName: z.string(),
    productName: z.string(),
    isFavorite: z.boolean(),
    productDataSource: z.number().int(),
    productOrderableStatus: z.number().int(),
    supplier: SupplierInfo,
    basicPackage: z.object({
      productShortDescr: z.string(),
      modelNumber: z.string().nullable(),
      serie: z.string().nullable(),
      noteOfUse: z.string().nullable(),
      priceOnDemand: z.boolean(),
    }),
    descriptionsPackage: z.object({ productDescr: z.string().nullable(), marketingText: z.string().nullable() }),
    logisticsPackage: z.object({
      /** Depth/length. */
      measureA: Measure,
      measureB: Measure,
      measureC: Measure,
      weight: Measure,
      standardDeliveryPeriod: z.number().int().nullable(),
      packagingQuantity: z.number().nullable(),
      countryOfOrigin: z.string().nullable(),
    }),
    additionalPackage: z.object({
      /** Product ids as the catalogue delivers them. */
      accessories: z.array(z.string()),
      spareParts: z.array(z.string()),
      /** Product ids of the articles that replace this one (supplier catalogue PRODUCT_REFERENCE type followup). */
      successors: z.array(z.string()),
      /** The same references resolved to products with their preferred offer (successors, accessories, spare parts). */
      relatedProducts: z.array(RelatedProduct),
      commodityGroupDescrManufacturer: z.string().nullable(),
      articleNumberCatalogue: z.string().nullable(),
      energyEfficiencyClass: z.string().nullable(),
      /** Null when the offer's conditions are withheld (conditionsHidden). */
      minOrderQuantityValue: z.number().nullable(),
      minOrderUnit: z.string().nullable(),
      color: z.string().nullable(),
      articleType: z.string().nullable(),
    }),
    /**
     * The offer is a competitor's and the caller a seller: no prices, minimum quantity or delivery times are given
     * (docs/security.md).
     */
    conditionsHidden: z.boolean(),
    /** Null when the offer's conditions are withheld (conditionsHidden). */
    pricesPackage: z
      .object({
        netPrice: z.object({ value: z.number().nullable(), quantityUnit: z.string().nullable(), basis: z.number() }),
        grossListPrice: z.number().nullable(),
        hasConnectionError: z.boolean(),
      })
      .nullable(),
    picturesPackage: z.array(Picture),
    documentsPackage: z.array(ProductDocument),
    etimClass: z.object({ id: z.string(), description: z.string() }).nullable(),
    features: z.array(ProductFeature),
    treeElementId: z.string(),
    /** Path from the top category to the product's leaf (names). */
    categoryPath: z.array(z.object({ elementID: z.string(), name: z.string() })),
  })
  .meta({ id: 'Product' });
export type Product = z.infer<typeof Product>;

export const ProductOffer = z
  .object({
    productInstanceId: z.string(),
    /** Supplier name. */
    name: z.string(),
    pid: z.string(),
    supplierId: z.string(),
    supplier: SupplierInfo,
    productDataSource: z.number().int(),
    unit: z.string(),
    unitDescription: z.string().nullable(),
    /**
     * A competitor's offer seen by a seller: price, price basis, gross list price, minimum quantity and delivery time
     * are not given (null; priceOnDemand and hasConnectionError false). docs/security.md.
     */
    conditionsHidden: z.boolean(),
    timeToDelivery: z.number().int().nullable(),
    pricePerPiece: z.number().nullable(),
    priceBasis: z.number().nullable(),
    priceOnDemand: z.boolean(),
    grossListPrice: z.number().nullable(),
    minOrderQuantity: z.number().nullable(),
    minOrderQuantityUnit: z.string().nullable(),
    productOrderableStatus: z.number().int(),
    noteOfUse: z.string().nullable(),
    accessories: z.array(z.string()),
    spareParts: z.array(z.string()),
    hasConnectionError: z.boolean(),
    hasUnitError: z.boolean(),
    color: z.string().nullable(),
    dimensions: z.object({
      height: z.number().nullable(),
      width: z.number().nullable(),
      length: z.number().nullable(),
    }),
    factoryArticleNumber: z.string(),
    gtin: z.string().nullable(),
  })
  .meta({ id: 'ProductOffer' });
export type ProductOffer = z.infer<typeof ProductOffer>;

export const ProductDetails = z
  .object({
    productId: z.string(),
    productInstanceId: z.string(),
    offers: z.array(ProductOffer),
  })
  .meta({ id: 'ProductDetails' });
export type ProductDetails = z.infer<typeof ProductDetails>;

export const Favourite = z
  .object({
    productInstanceId: z.string(),
    brandName: z.string().nullable(),
    articleNumber: z.string().nullable(),
    gtin: z.string().nullable(),
    articleCatalogNumber: z.string().nullable(),
    imageUrl: z.string().nullable(),
    articleShortDescription: z.string().nullable(),
    /** Missing when the product is no longer available. */
    productDetails: Product.optional(),
  })
  .meta({ id: 'FavoriteProduct' });
export type Favourite = z.infer<typeof Favourite>;

export const ProductInstanceQuery = z.object({ productInstanceId: z.string().min(1).max(300) });
export const ByManufacturerDataQuery = z.object({
  manufacturerId: z.string().min(1).max(100),
  manufacturerPid: z.string().min(1).max(200),
  productInstanceId: z.string().max(300).optional(),
});
export const SuggestionsQuery = z.object({ term: z.string().max(SEARCH_TERM_TRANSPORT_MAX) });
