/**
 * A product as the catalogue loader writes it (generator today, a supplier import later): the
 * manufacturer article with its offers. Mirrors the tables products and product_offers.
 */
export interface MediaEntry {
  /** 'picture' or a document type: Datenblatt, Montageanleitung, 2D, 3C (2D/3C are dimensional data). */
  type: string;
  file: string;
  description: string;
  /**
   * A supplier catalogue's reference (MIME_SOURCE URL, or a file its zip lacked): served only once stored (`stored`,
   * fetched by the media fetcher), never redirected to.
   */
  url?: string;
  /** A file a supplier catalogue delivered in its zip, stored under DATA_DIR/catalogue-media (catalogue import). */
  stored?: { supplier: string; sha256: string; contentType: string; size: number };
}

export interface CatalogueOffer {
  productInstanceId: string;
  supplierBpNumber: string;
  supplierPid: string;
  supplierPidNorm: string;
  productDataSource: number;
  unitCode: string;
  netPrice: number | null;
  priceBasis: number;
  priceQuantityUnit: string | null;
  grossListPrice: number | null;
  priceOnDemand: boolean;
  minOrderQuantity: number;
  minOrderUnit: string | null;
  timeToDeliveryDays: number | null;
  noteOfUse: string | null;
}

export interface CatalogueProduct {
  /** Internal number; also the static "recommended" rank (lower first). */
  id: number;
  productId: string;
  manufacturerId: string;
  manufacturerPid: string;
  manufacturerPidNorm: string;
  gtin: string | null;
  brandNo: number;
  brandName: string;
  series: string | null;
  modelNumber: string | null;
  productName: string;
  productDescr: string | null;
  marketingText: string | null;
  noteOfUse: string | null;
  productType: string | null;
  articleNumberCatalogue: string | null;
  classNo: number | null;
  className: string | null;
  /** In class slot order: the number, or the value number of an alphanumeric value. */
  featureValues: number[];
  /** Texts of the alphanumeric values (indexed for search). */
  alphanumericValues: string[];
  commodityGroupDescr: string | null;
  energyEfficiencyClass: string | null;
  color: string | null;
  measureAMm: number | null;
  measureBMm: number | null;
  measureCMm: number | null;
  weightKg: number | null;
  packagingQuantity: number | null;
  countryOfOrigin: string | null;
  standardDeliveryPeriod: number | null;
  leafNo: number;
  leafName: string;
  isPromotion: boolean;
  accessories: string[];
  spareParts: string[];
  media: MediaEntry[];
  offers: CatalogueOffer[];
}
