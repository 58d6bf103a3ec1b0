/**
 * Deterministic product generator: product i depends only on (seed, i) – plus N for the choice of
 * accessories – so the 2,500-product test catalogue is the beginning of the 20,000-product demo
 * catalogue and of the 1,000,000-product benchmark catalogue.
 */
import { ProductDataSource, round2 } from '@shk/contracts';
import { wholesalers } from './brands.ts';
import { hash32, pad, Rng, scramble, gtinCheckDigit } from './random.ts';
import { reference, type BrandRef, type LeafRef, type Reference } from './reference.ts';
import { description, marketingText, noteOfUse } from './texts.ts';
import { normaliseCode } from '../../modules/catalogue/search/fold.ts';
import type { CatalogueProduct, CatalogueOffer, MediaEntry } from '../../modules/catalogue/catalogue.types.ts';

export const DEFAULT_SEED = 20_240_501;
/** Units some offers carry that the portal does not know (UnitNotSupported). */
export const UNKNOWN_UNIT = 'H87';

const offerNotes = [
  'Lieferung nur in ganzen Verpackungseinheiten.',
  'Sonderanfertigung – vom Umtausch ausgeschlossen.',
  'Versand als Sperrgut.',
  'Abholung im Lager möglich.',
];
const countries = ['DE', 'DE', 'DE', 'AT', 'IT', 'PL', 'CZ', 'CH', 'NL', 'CN', 'TR'];

interface Identity {
  leaf: LeafRef;
  brand: BrandRef;
  productId: string;
  manufacturerPid: string;
}

/**
 * Categories follow a shuffled, weight-proportional table of LEAF_TABLE slots (product i gets slot
 * i mod LEAF_TABLE), so "some product of category X" is found in O(1) for accessories.
 */
const LEAF_TABLE = 2_000;
const leafTables = new Map<number, { table: LeafRef[]; slotsByLeaf: Map<string, number[]> }>();
function leafTable(ref: Reference, seed: number) {
  let entry = leafTables.get(seed);
  if (entry) return entry;
  const table: LeafRef[] = [];
  let assigned = 0;
  ref.leaves.forEach((leaf, k) => {
    const target =
      k === ref.leaves.length - 1
        ? LEAF_TABLE
        : Math.round(((assigned + leaf.def.weight) / ref.leafWeightTotal) * LEAF_TABLE);
    while (table.length < target) table.push(leaf);
    assigned += leaf.def.weight;
  });
  const rng = new Rng(seed);
  for (let k = table.length - 1; k > 0; k--) {
    const j = Math.floor(rng.next() * (k + 1));
    [table[k], table[j]] = [table[j], table[k]];
  }
  const slotsByLeaf = new Map<string, number[]>();
  table.forEach((leaf, slot) => {
    const list = slotsByLeaf.get(leaf.def.key) ?? [];
    list.push(slot);
    slotsByLeaf.set(leaf.def.key, list);
  });
  entry = { table, slotsByLeaf };
  leafTables.set(seed, entry);
  return entry;
}

/** The first draws of product i: category and brand fix its identity (used for accessories). */
function identity(ref: Reference, rng: Rng, i: number, seed: number): Identity {
  const leaf = leafTable(ref, seed).table[i % LEAF_TABLE];
  const domainBrands = ref.brandsByDomain.get(leaf.def.domain)!;
  const brand = rng.weighted(domainBrands.list, (b) => b.def.weight, domainBrands.total);
  const manufacturerPid = formatPid(brand, pad(scramble(i, 48_271, brand.brandNo * 7_919), 8));
  return { leaf, brand, manufacturerPid, productId: `${brand.manufacturerId}~${manufacturerPid}` };
}

function formatPid(brand: BrandRef, d: string): string {
  switch (brand.def.pidStyle) {
    case 'dotted':
      return `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5)}`;
    case 'dash':
      return `${brand.def.code}-${d.slice(0, 4)}-${d.slice(4)}`;
    case 'spaced':
      return `${d.slice(0, 3)} ${d.slice(3, 5)} ${d.slice(5)}`;
    case 'prefixed':
      return `${brand.def.code}${d}`;
    default:
      return d;
  }
}

const identityOf = (ref: Reference, seed: number, j: number) => identity(ref, new Rng(hash32(seed, j)), j, seed);

/** Up to `max` products (below `total`) of the given categories. */
function relatedProducts(
  ref: Reference,
  seed: number,
  i: number,
  total: number,
  leafKeys: readonly string[] | undefined,
  max: number,
  salt: number,
): string[] {
  if (!leafKeys?.length) return [];
  const { slotsByLeaf } = leafTable(ref, seed);
  const blocks = Math.floor(total / LEAF_TABLE);
  const found: string[] = [];
  for (let k = 0; k < max * 2 && found.length < max; k++) {
    const h = hash32(seed + salt, i * 61 + k);
    const slots = slotsByLeaf.get(leafKeys[h % leafKeys.length]);
    if (!slots) continue;
    const slot = slots[(h >>> 8) % slots.length];
    const j = (blocks > 0 ? ((h >>> 4) % blocks) * LEAF_TABLE : 0) + slot;
    if (j === i || j >= total) continue;
    const other = identityOf(ref, seed, j);
    if (!found.includes(other.productId)) found.push(other.productId);
  }
  return found;
}

const displayValue = (v: number | string) => (typeof v === 'number' ? String(v).replace('.', ',') : v);

export function generateProduct(i: number, total: number, seed = DEFAULT_SEED): CatalogueProduct {
  const ref = reference();
  const rng = new Rng(hash32(seed, i));
  const { leaf, brand, manufacturerPid, productId } = identity(ref, rng, i, seed);
  const def = leaf.def;
  const series = rng.pick(brand.def.series);
  const type = rng.pick(def.types);
  const values: Record<string, number | string> = {};
  const featureValues: number[] = [];
  const alphanumeric: string[] = [];
  const featureSentence: string[] = [];
  for (const slot of leaf.slots) {
    const value = rng.pick(slot.values);
    values[slot.key] = value;
    if (slot.feature.kind === 'A') {
      featureValues.push(ref.values.get(String(value))!.valueNo);
      alphanumeric.push(String(value));
    } else {
      featureValues.push(Number(value));
    }
    const unit = slot.feature.unit ? ` ${unitSymbol(slot.feature.unit)}` : '';
    featureSentence.push(`${slot.feature.name} ${displayValue(value)}${slot.feature.kind === 'N' ? unit : ''}`);
  }
  const productName = def.title({ type, series, v: values }).replace(/\s+/g, ' ').trim();
  const gtin = rng.chance(0.01)
    ? null
    : (() => {
        const base = `40${pad(brand.brandNo, 2)}${pad(i, 8)}`;
        return base + gtinCheckDigit(base);
      })();
  const catalogueNumber = `${pad(brand.brandNo, 2)}${pad(scramble(i, 7_919, 12_345 + brand.brandNo), 8)}`;
  const size = def.size;
  const energyClass = values.energyClass ? String(values.energyClass) : null;
  const color = values.colour ? String(values.colour) : values.surface ? String(values.surface) : null;
  const basePrice = rng.logUniform(def.price[0], def.price[1]);
  const grossFactor = 1.45 + rng.next() * 0.4;
  const onDemand = rng.chance(def.onDemand ?? 0);
  const delivery = def.delivery ?? [1, 5];
  const mpidNorm = normaliseCode(manufacturerPid);

  const offers: CatalogueOffer[] = [];
  const unit = def.unit ?? 'C62';
  const makeOffer = (
    supplierBp: string,
    supplierPid: string,
    source: number,
    days: readonly [number, number],
  ): CatalogueOffer => {
    const missingPrice = !onDemand && rng.chance(0.003);
    const offerUnit = rng.chance(0.005) ? UNKNOWN_UNIT : unit === 'C62' && supplierBp === '200007' ? 'PCE' : unit;
    return {
      productInstanceId: `${supplierBp}~${supplierPid}`,
      supplierBpNumber: supplierBp,
      supplierPid,
      supplierPidNorm: normaliseCode(supplierPid),
      productDataSource: source,
      unitCode: offerUnit,
      netPrice: onDemand || missingPrice ? null : round2(basePrice * (0.88 + rng.next() * 0.2)),
      priceBasis: def.priceBasis ?? 1,
      priceQuantityUnit: offerUnit,
      grossListPrice: onDemand ? null : round2(basePrice * grossFactor),
      priceOnDemand: onDemand,
      minOrderQuantity: def.minOrder ?? (rng.chance(0.1) ? (def.packaging ?? 1) : 1),
      minOrderUnit: offerUnit,
      timeToDeliveryDays: rng.int(days[0], days[1]),
      noteOfUse: rng.chance(0.2) ? rng.pick(offerNotes) : null,
    };
  };
  if (brand.def.supplier && rng.chance(0.85)) {
    offers.push(
      makeOffer(
        brand.def.supplier,
        manufacturerPid,
        ref.manufacturerSupplierSource.get(brand.def.supplier) ?? ProductDataSource.TwoTierManufacturer,
        [Math.max(2, delivery[0]), delivery[1] + 5],
      ),
    );
  }
  const stocking = wholesalers.filter((w) => w.domains.includes(def.domain));
  const chosen = stocking.filter((w) => rng.chance(w.share));
  if (!offers.length && !chosen.length && stocking.length) chosen.push(rng.pick(stocking));
  stocking.forEach((w) => {
    if (!chosen.includes(w)) return;
    // Per wholesaler (not per domain list position) one bijection: its article numbers never repeat.
    const k = wholesalers.indexOf(w);
    const pid = w.pid(pad(scramble(i, [1_000_003, 3_000_017, 5_000_011, 7_000_003][k % 4], 4_711 * (k + 1)), 8));
    offers.push(
      makeOffer(w.bp, pid, ProductDataSource.Wholesaler, [delivery[0], Math.min(delivery[1], delivery[0] + 3)]),
    );
  });

  const pictureCount = rng.chance(0.02) ? 0 : rng.int(1, 4);
  const media: MediaEntry[] = [];
  for (let k = 1; k <= pictureCount; k++) {
    media.push({
      type: 'picture',
      file: `${mpidNorm}_${k}.png`,
      description: k === 1 ? 'Produktbild' : `Ansicht ${k}`,
    });
  }
  media.push({ type: 'Datenblatt', file: `Datenblatt_${mpidNorm}.pdf`, description: `Datenblatt ${productName}` });
  if (rng.chance(0.6))
    media.push({
      type: 'Montageanleitung',
      file: `Montageanleitung_${mpidNorm}.pdf`,
      description: 'Montage- und Bedienungsanleitung',
    });
  if (rng.chance(0.4))
    media.push({ type: '2D', file: `Masszeichnung_${mpidNorm}.pdf`, description: 'Maßzeichnung (2D)' });
  if (def.cad && rng.chance(0.6))
    media.push({ type: '3C', file: `3D-Modell_${mpidNorm}.stp`, description: '3D-CAD-Modell (STEP)' });

  return {
    id: i + 1,
    productId,
    manufacturerId: brand.manufacturerId,
    manufacturerPid,
    manufacturerPidNorm: mpidNorm,
    gtin,
    brandNo: brand.brandNo,
    brandName: brand.def.name,
    series,
    modelNumber: `${brand.def.code} ${rng.int(100, 999)}${rng.chance(0.3) ? `-${rng.pick(['E', 'S', 'P', 'X'])}` : ''}`,
    productName,
    productDescr: description(rng, def.domain, {
      type,
      brand: brand.def.name,
      series,
      features: featureSentence.join(', '),
    }),
    marketingText: marketingText(rng),
    noteOfUse: rng.chance(0.5) ? noteOfUse(rng) : null,
    productType: type,
    articleNumberCatalogue: catalogueNumber,
    classNo: leaf.classNo,
    className: def.className,
    featureValues,
    alphanumericValues: alphanumeric,
    commodityGroupDescr: leaf.commodityGroup,
    energyEfficiencyClass: energyClass,
    color,
    measureAMm: rng.int(size.a[0], size.a[1]),
    measureBMm: rng.int(size.b[0], size.b[1]),
    measureCMm: rng.int(size.c[0], size.c[1]),
    weightKg: Math.round(rng.logUniform(size.kg[0], size.kg[1]) * 1000) / 1000,
    packagingQuantity: def.packaging ?? 1,
    countryOfOrigin: rng.chance(0.85) ? brand.def.country : rng.pick(countries),
    standardDeliveryPeriod: rng.int(delivery[0], delivery[1]),
    leafNo: leaf.nodeNo,
    leafName: def.name,
    isPromotion: rng.chance(0.03),
    accessories: relatedProducts(ref, seed, i, total, def.accessories, 3, 101),
    spareParts: relatedProducts(ref, seed, i, total, def.spareParts, 2, 202),
    media,
    offers,
  };
}

const unitSymbols: Record<string, string> = {
  MMT: 'mm',
  BAR: 'bar',
  WTT: 'W',
  KWT: 'kW',
  VLT: 'V',
  L2: 'l/min',
  MQH: 'm³/h',
  '2N': 'dB(A)',
  LTR: 'l',
  DD: '°',
  CEL: '°C',
  MTR: 'm',
};
const unitSymbol = (code: string) => unitSymbols[code] ?? code;
