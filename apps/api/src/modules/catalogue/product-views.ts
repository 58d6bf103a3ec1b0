/**
 * Builds the API shapes from product rows and offer views: search hits (spec column names), the
 * Product entity of one product instance and the per-supplier offers of the detail page.
 */
import type pg from 'pg';
import {
  isPublicMediaKind,
  type Product,
  type ProductOffer,
  type RelatedProduct,
  type SearchHit,
} from '@shk/contracts';
import type { CatalogueMeta } from './catalogue-meta.ts';
import type { MediaEntry } from './catalogue.types.ts';
import {
  mayHaveSignedInMedium,
  mediaUrl,
  renderedMediaSize,
  signedInMediaUrl,
  type MediaProduct,
} from './media/media.ts';
import { hitRowsOfProducts, productRows, type HitProductRow, type ProductRow } from './catalogue.repo.ts';
import {
  callerFavourites,
  offersOfRows,
  offerViews,
  type CallerContext,
  type OfferRow,
  type OfferView,
} from './offers.ts';
import type { HitRows, HitStore } from './search/hit-store.ts';
import { offersWithCallerState } from './product-offers.ts';
import { phaseClock } from './search/index/phase-clock.ts';

export type { ProductRow } from './catalogue.repo.ts';

/** What a search hit shows (no descriptions: pages of 100 hits stay small). */
const HIT_COLUMNS =
  'id, product_id, manufacturer_id, manufacturer_pid, gtin, brand_no, series, product_name, product_type, article_number_catalogue, class_no, leaf_no, media';

export const firstPictureUrl = (p: Pick<ProductRow, 'id' | 'media'>) => {
  const picture = p.media.find((m) => m.type === 'picture');
  return picture ? mediaUrl(p.id, picture.file) : null;
};

/**
 * Search hits in the order of `ids`, beside them the supplier lookups (relations, settings) of the caller. Without the
 * hits' store, products, offers and the caller's favourites come in one statement. With it, the products and offers
 * (the same for every caller) come from memory and the favourites from the read-model cache: no round trip when all
 * are kept.
 */
export async function searchHits(
  pool: pg.Pool,
  ids: number[],
  ctx: CallerContext,
  store?: HitStore,
): Promise<SearchHit[]> {
  if (!ids.length) return [];
  const [{ products }, offers] = await phaseClock.measureCpu('hydration', () => {
    const { read, favourites } = hitSources(pool, ids, ctx, store);
    return Promise.all([
      read,
      offersOfRows(
        pool,
        ctx,
        read.then((r) => r.offers),
        favourites,
      ),
    ]);
  });
  return phaseClock.measure('answer', () => hitsOf(ids, products, offers, ctx));
}

/** The products and offers of the hits `ids` and the caller's favourites, from the hits' store or from one statement. */
function hitSources(
  pool: pg.Pool,
  ids: number[],
  ctx: CallerContext,
  store?: HitStore,
): { read: Promise<HitRows>; favourites: Promise<Set<string>> } {
  if (store) return { read: store.rowsOf(pool, ids), favourites: callerFavourites(pool, ctx) };
  const read = hitRowsOfProducts(pool, ids, ctx.userId, ctx.bpNumber);
  return { read, favourites: read.then((r) => new Set(r.favourites)) };
}

function hitsOf(
  ids: number[],
  rows: HitProductRow[],
  offers: Map<number, OfferView[]>,
  ctx: CallerContext,
): SearchHit[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const { meta } = ctx;
  return ids.flatMap((id) => {
    const p = byId.get(id);
    const list = offers.get(id) ?? [];
    if (!p || !list.length) return [];
    const primary = list[0];
    return [
      {
        rows: {
          manufacturerID: p.manufacturer_id,
          manufacturerPID: p.manufacturer_pid,
          herstellerName: meta.manufacturers.get(p.manufacturer_id) ?? '',
          gtin: p.gtin,
          brandname: meta.brands.get(p.brand_no)?.name ?? '',
          artikelbeschreibung: p.product_name,
          bild: firstPictureUrl(p),
          PRODUCTINSTANCE_ID: primary.row.product_instance_id,
          werksartikelnummerKatalog: p.article_number_catalogue,
          wholesalers: list
            .filter((o) => o.supplier.organisationType === 1)
            .map((o) => ({
              supplierID: o.supplier.bp,
              supplierName: o.supplier.name,
              supplierPID: o.row.supplier_pid,
            })),
          supplierID: primary.supplier.bp,
          supplierName: primary.supplier.name,
          artikelnummer: primary.row.supplier_pid,
          artikeltyp: p.product_type,
          serie: p.series,
          etimKlasse: p.class_no ? (meta.classes.get(p.class_no)?.description ?? null) : null,
          TREE_ELEMENT_ID_SHKMARKET: meta.tree.get(p.leaf_no)?.elementId ?? '',
        },
        productId: p.product_id,
        isFavorite: primary.isFavorite,
        productOrderableStatus: primary.orderableStatus,
        price: hitPrice(primary),
        minOrderQuantity: primary.conditionsHidden ? null : Number(primary.row.min_order_quantity),
        conditionsHidden: primary.conditionsHidden,
      },
    ];
  });
}

/** The price a hit or related product shows; none for a competitor's offer seen by a seller. */
function hitPrice(offer: OfferView) {
  if (offer.conditionsHidden) return null;
  return {
    value: offer.price.value,
    currency: 'EUR' as const,
    basis: offer.price.basis,
    quantityUnit: offer.price.quantityUnit,
    priceOnDemand: offer.price.priceOnDemand,
  };
}

const measure = (value: number | null, unit: string) => (value === null ? null : { value: Number(value), unit });

/** Name of the top category (SHKMARKET_n) of a leaf. */
export function topCategoryOf(meta: CatalogueMeta, leafNo: number): string {
  let node = meta.tree.get(leafNo);
  while (node?.parentNo !== null && node?.parentNo !== undefined && meta.tree.get(node.parentNo)?.type !== 'root')
    node = meta.tree.get(node.parentNo);
  return node?.elementId ?? '';
}

export function mediaProductOf(p: ProductRow, meta: CatalogueMeta): MediaProduct {
  return {
    id: p.id,
    productName: p.product_name,
    brandName: meta.brands.get(p.brand_no)?.name ?? '',
    manufacturerPid: p.manufacturer_pid,
    gtin: p.gtin,
    topCategory: topCategoryOf(meta, p.leaf_no),
    measures: { a: p.measure_a_mm, b: p.measure_b_mm, c: p.measure_c_mm },
    descr: p.product_descr,
    media: p.media,
  };
}

/** The Product entity for one of the product's offers. */
export function productEntity(p: ProductRow, offer: OfferView, ctx: CallerContext): Product {
  const { meta } = ctx;
  const mediaProduct = mediaProductOf(p, meta);
  const cls = p.class_no ? meta.classes.get(p.class_no) : undefined;
  const path: { elementID: string; name: string }[] = [];
  for (
    let node = meta.tree.get(p.leaf_no);
    node && node.type !== 'root';
    node = node.parentNo !== null ? meta.tree.get(node.parentNo) : undefined
  ) {
    path.unshift({ elementID: node.elementId, name: node.name });
  }
  return {
    productInstanceId: offer.row.product_instance_id,
    productId: p.product_id,
    manufacturerId: p.manufacturer_id,
    manufacturerPid: p.manufacturer_pid,
    manufacturerName: meta.manufacturers.get(p.manufacturer_id) ?? '',
    supplierPid: offer.row.supplier_pid,
    supplierBpNo: offer.supplier.bp,
    gtin: p.gtin,
    brandName: meta.brands.get(p.brand_no)?.name ?? '',
    productName: p.product_name,
    isFavorite: offer.isFavorite,
    productDataSource: offer.row.product_data_source,
    productOrderableStatus: offer.orderableStatus,
    supplier: supplierInfo(offer),
    basicPackage: {
      productShortDescr: p.product_name,
      modelNumber: p.model_number,
      serie: p.series,
      noteOfUse: offer.row.note_of_use ?? p.note_of_use,
      priceOnDemand: offer.price.priceOnDemand,
    },
    descriptionsPackage: { productDescr: p.product_descr, marketingText: p.marketing_text },
    logisticsPackage: {
      measureA: measure(p.measure_a_mm, 'MMT'),
      measureB: measure(p.measure_b_mm, 'MMT'),
      measureC: measure(p.measure_c_mm, 'MMT'),
      weight: measure(p.weight_kg, 'KGM'),
      standardDeliveryPeriod: offer.conditionsHidden ? null : p.standard_delivery_period,
      packagingQuantity: p.packaging_quantity === null ? null : Number(p.packaging_quantity),
      countryOfOrigin: p.country_of_origin,
    },
    additionalPackage: {
      accessories: offer.row.accessories.length ? offer.row.accessories : p.accessories,
      spareParts: offer.row.spare_parts.length ? offer.row.spare_parts : p.spare_parts,
      successors: p.successors ?? [],
      // Filled by withRelatedProducts (needs the referenced products and their offers).
      relatedProducts: [],
      commodityGroupDescrManufacturer: p.commodity_group_descr,
      articleNumberCatalogue: p.article_number_catalogue,
      energyEfficiencyClass: p.energy_efficiency_class,
      minOrderQuantityValue: offer.conditionsHidden ? null : Number(offer.row.min_order_quantity),
      minOrderUnit: offer.row.min_order_unit,
      color: p.color,
      articleType: p.product_type,
    },
    conditionsHidden: offer.conditionsHidden,
    pricesPackage: offer.conditionsHidden
      ? null
      : {
          netPrice: { value: offer.price.value, quantityUnit: offer.price.quantityUnit, basis: offer.price.basis },
          grossListPrice: offer.price.grossListPrice,
          hasConnectionError: offer.price.hasConnectionError,
        },
    picturesPackage: p.media
      .filter((m) => m.type === 'picture')
      .map((m) => ({
        url: mediaUrl(p.id, m.file),
        filename: m.file,
        description: m.description,
        size: mediaSize(mediaProduct, m),
      })),
    documentsPackage: p.media
      .filter((m) => m.type !== 'picture')
      .filter((m) => isPublicMediaKind(m.type) || mayHaveSignedInMedium(m, ctx.conditionsOnlyFor))
      .map((m) => ({
        type: m.type,
        url: isPublicMediaKind(m.type) ? mediaUrl(p.id, m.file) : signedInMediaUrl(p.id, m.file),
        requiresSignIn: !isPublicMediaKind(m.type),
        filename: m.file,
        description: m.description,
        size: mediaSize(mediaProduct, m),
      })),
    etimClass: cls ? { id: cls.id, description: cls.description } : null,
    features: (cls?.slots ?? []).flatMap((slot) => {
      const raw = p.feature_values[slot.slot - 1];
      const f = meta.features.get(slot.featureId);
      if (raw === undefined || raw === null || !f) return [];
      const value = f.kind === 'A' ? meta.values.get(Math.round(raw)) : null;
      return [
        {
          featureId: f.id,
          description: f.description,
          kind: f.kind,
          value: f.kind === 'A' ? (value?.description ?? String(raw)) : Number(raw),
          valueId: value?.id ?? null,
          unit: f.unitDescription,
        },
      ];
    }),
    treeElementId: meta.tree.get(p.leaf_no)?.elementId ?? '',
    categoryPath: path,
  };
}

function supplierInfo(o: OfferView) {
  return {
    bpNumber: o.supplier.bp,
    name: o.supplier.name,
    requiredOnboardingForm: o.supplier.requiredOnboardingForm,
    hideAdditionalInfo: o.supplier.hideAdditionalInfo,
  };
}

export function productOffer(p: ProductRow, o: OfferView, meta: CatalogueMeta): ProductOffer {
  return {
    productInstanceId: o.row.product_instance_id,
    name: o.supplier.name,
    pid: o.row.supplier_pid,
    supplierId: o.supplier.bp,
    supplier: supplierInfo(o),
    productDataSource: o.row.product_data_source,
    unit: o.row.unit_code,
    unitDescription: meta.units.get(o.row.unit_code) ?? null,
    conditionsHidden: o.conditionsHidden,
    timeToDelivery: o.row.time_to_delivery_days,
    pricePerPiece: o.price.value,
    priceBasis: o.conditionsHidden ? null : o.price.basis,
    priceOnDemand: o.price.priceOnDemand,
    grossListPrice: o.price.grossListPrice,
    minOrderQuantity: o.conditionsHidden ? null : Number(o.row.min_order_quantity),
    minOrderQuantityUnit: o.row.min_order_unit,
    productOrderableStatus: o.orderableStatus,
    noteOfUse: o.row.note_of_use ?? p.note_of_use,
    accessories: o.row.accessories.length ? o.row.accessories : p.accessories,
    spareParts: o.row.spare_parts.length ? o.row.spare_parts : p.spare_parts,
    hasConnectionError: o.price.hasConnectionError,
    hasUnitError: o.hasUnitError,
    color: p.color,
    dimensions: {
      height: p.measure_c_mm === null ? null : Number(p.measure_c_mm),
      width: p.measure_b_mm === null ? null : Number(p.measure_b_mm),
      length: p.measure_a_mm === null ? null : Number(p.measure_a_mm),
    },
    factoryArticleNumber: p.manufacturer_pid,
    gtin: p.gtin,
  };
}

/** Bytes of a medium: a stored supplier file's size, 0 for a supplier's URL reference (not fetched), else the generated one's. */
function mediaSize(p: MediaProduct, m: MediaEntry): number {
  if (m.stored) return m.stored.size;
  if (m.url) return 0;
  return renderedMediaSize(p, m);
}

/** At most this many accessories and spare parts are resolved for one product page. */
const MAX_RELATED = 24;

/**
 * Resolves the product's accessory and spare-part references (product ids) to products with their preferred
 * offer for the caller, in the catalogue's order; unknown ids, the product itself and products without an offer
 * are left out.
 */
export async function withRelatedProducts(pool: pg.Pool, product: Product, ctx: CallerContext): Promise<Product> {
  const { accessories, spareParts, successors } = product.additionalPackage;
  const refs = [
    ...successors.map((id) => ({ id, kind: 'successor' as const })),
    ...accessories.map((id) => ({ id, kind: 'accessory' as const })),
    ...spareParts.map((id) => ({ id, kind: 'sparePart' as const })),
  ]
    .filter((r) => r.id !== product.productId)
    .slice(0, MAX_RELATED);
  if (!refs.length) return product;
  // The related products and their offers side by side (two statements, one round trip of waiting).
  const ids = [...new Set(refs.map((r) => r.id))];
  const [rows, offers] = await Promise.all([
    productRows(pool, 'p.product_id = ANY($1::text[])', [ids], HIT_COLUMNS),
    offersWithCallerState(pool, ctx, 'p.product_id = ANY($3::text[])', [ids]),
  ]);
  const byProductId = new Map(rows.map((r) => [r.product_id, r]));
  const seen = new Set<string>();
  const related: RelatedProduct[] = [];
  for (const ref of refs) {
    const row = byProductId.get(ref.id);
    const offer = row ? offers.get(row.id)?.[0] : undefined;
    if (!row || !offer || seen.has(`${ref.kind}:${ref.id}`)) continue;
    seen.add(`${ref.kind}:${ref.id}`);
    related.push({
      kind: ref.kind,
      productId: row.product_id,
      productInstanceId: offer.row.product_instance_id,
      manufacturerId: row.manufacturer_id,
      manufacturerPid: row.manufacturer_pid,
      productName: row.product_name,
      brandName: ctx.meta.brands.get(row.brand_no)?.name ?? '',
      imageUrl: firstPictureUrl(row),
      supplierName: offer.supplier.name,
      price: hitPrice(offer),
      productOrderableStatus: offer.orderableStatus,
    });
  }
  return { ...product, additionalPackage: { ...product.additionalPackage, relatedProducts: related } };
}

export async function viewOfOffer(pool: pg.Pool, row: OfferRow, ctx: CallerContext): Promise<OfferView> {
  return (await offerViews(pool, [row], ctx))[0];
}
