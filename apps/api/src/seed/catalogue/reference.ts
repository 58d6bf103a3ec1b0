/**
 * Numbers the assortment's tree, classes, features, values, brands and suppliers once, in a fixed
 * order, so the same catalogue gets the same ids on every machine.
 */
import { assortment, type Domain, type LeafDef, type NodeDef } from './assortment.ts';
import { brands, wholesalers, type BrandDef } from './brands.ts';
import { featureLibrary, type FeatureDef, type FeatureKey } from './features.ts';
import { pad } from './random.ts';

export interface TreeNodeRow {
  nodeNo: number;
  elementId: string;
  parentNo: number | null;
  type: 'root' | 'node' | 'leaf';
  name: string;
  sort: number;
}
export interface SlotRef {
  slot: number;
  key: FeatureKey;
  feature: FeatureDef;
  featureNo: number;
  values: readonly (number | string)[];
}
export interface LeafRef {
  nodeNo: number;
  elementId: string;
  def: LeafDef;
  classNo: number;
  commodityGroup: string;
  slots: SlotRef[];
}
export interface BrandRef {
  brandNo: number;
  def: BrandDef;
  manufacturerId: string;
}

export interface Reference {
  tree: TreeNodeRow[];
  leaves: LeafRef[];
  leafWeightTotal: number;
  leafByKey: Map<string, LeafRef>;
  features: { featureNo: number; key: FeatureKey; def: FeatureDef }[];
  values: Map<string, { valueNo: number; valueId: string }>;
  brands: BrandRef[];
  brandsByDomain: Map<Domain, { list: BrandRef[]; total: number }>;
  /** Supplier bp number → small number used in search rows. */
  supplierNumbers: Map<string, number>;
  /** Organisation type (= product data source) of the manufacturer suppliers. */
  manufacturerSupplierSource: Map<string, number>;
}

export const ROOT_ELEMENT_ID = 'SHKMARKET';
export const PROMOTION_ELEMENT_ID = 'SHKMARKET_10';
export const SELLER_CATALOGUE_ELEMENT_ID = 'SHKMARKET_11';

let cached: Reference | undefined;

export function reference(): Reference {
  if (cached) return cached;
  const tree: TreeNodeRow[] = [
    { nodeNo: 1, elementId: ROOT_ELEMENT_ID, parentNo: null, type: 'root', name: 'Alle Kategorien', sort: 0 },
  ];
  const leaves: LeafRef[] = [];
  const features = (Object.keys(featureLibrary) as FeatureKey[]).map((key, i) => ({
    featureNo: i + 1,
    key,
    def: featureLibrary[key] as FeatureDef,
  }));
  const featureNoByKey = new Map(features.map((f) => [f.key, f.featureNo]));
  const values = new Map<string, { valueNo: number; valueId: string }>();
  const valueOf = (text: string) => {
    if (!values.has(text)) values.set(text, { valueNo: values.size + 1, valueId: `EV${pad(values.size + 1, 6)}` });
    return values.get(text)!;
  };
  for (const f of features) if (f.def.kind === 'A') f.def.values.forEach((v) => valueOf(String(v)));

  let nextNo = 2;
  let classNo = 0;
  const walk = (items: readonly (NodeDef | LeafDef)[], parent: TreeNodeRow, parentName: string) => {
    items.forEach((item, index) => {
      const row: TreeNodeRow = {
        nodeNo: nextNo++,
        elementId: `${parent.elementId}_${index + 1}`,
        parentNo: parent.nodeNo,
        type: item.kind === 'leaf' ? 'leaf' : 'node',
        name: item.name,
        sort: index + 1,
      };
      tree.push(row);
      if (item.kind === 'node') {
        walk(item.children, row, item.name);
        return;
      }
      const slots = item.features.map((spec, s) => {
        const [key, list] = spec.split(':') as [FeatureKey, string | undefined];
        const feature = featureLibrary[key] as FeatureDef;
        if (!feature) throw new Error(`unknown feature ${key} in ${item.key}`);
        const own = list ? list.split(',').map((v) => (feature.kind === 'N' ? Number(v) : v)) : feature.values;
        if (feature.kind === 'A') own.forEach((v) => valueOf(String(v)));
        return { slot: s + 1, key, feature, featureNo: featureNoByKey.get(key)!, values: own };
      });
      if (slots.length < 3 || slots.length > 8) throw new Error(`class ${item.classId} needs 3–8 features`);
      leaves.push({
        nodeNo: row.nodeNo,
        elementId: row.elementId,
        def: item,
        classNo: ++classNo,
        commodityGroup: parentName,
        slots,
      });
    });
  };
  walk(assortment, tree[0], 'Alle Kategorien');
  tree.push({ nodeNo: nextNo++, elementId: PROMOTION_ELEMENT_ID, parentNo: 1, type: 'leaf', name: 'Aktion', sort: 10 });
  tree.push({
    nodeNo: nextNo++,
    elementId: SELLER_CATALOGUE_ELEMENT_ID,
    parentNo: 1,
    type: 'leaf',
    name: 'Verkäuferkatalog',
    sort: 11,
  });

  const brandRefs = brands.map((def, i) => ({
    brandNo: i + 1,
    def,
    manufacturerId: `40${pad(i + 1, 2)}${pad(((i + 1) * 37) % 1000, 3)}`,
  }));
  const brandsByDomain = new Map<Domain, { list: BrandRef[]; total: number }>();
  for (const b of brandRefs) {
    for (const d of b.def.domains) {
      const entry = brandsByDomain.get(d) ?? { list: [], total: 0 };
      entry.list.push(b);
      entry.total += b.def.weight;
      brandsByDomain.set(d, entry);
    }
  }
  const manufacturerSupplierSource = new Map([
    ['200003', 2],
    ['200004', 3],
    ['200005', 4],
    ['200006', 2],
    ['200008', 3],
  ]);
  const supplierBps = [...new Set([...wholesalers.map((w) => w.bp), ...manufacturerSupplierSource.keys()])].sort();
  cached = {
    tree,
    leaves,
    leafWeightTotal: leaves.reduce((s, l) => s + l.def.weight, 0),
    leafByKey: new Map(leaves.map((l) => [l.def.key, l])),
    features,
    values,
    brands: brandRefs,
    brandsByDomain,
    supplierNumbers: new Map(supplierBps.map((bp, i) => [bp, i + 1])),
    manufacturerSupplierSource,
  };
  return cached;
}
