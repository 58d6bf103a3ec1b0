/**
 * The catalogue's reference data an import resolves against (manufacturers, brands, ETIM classes,
 * features and values, tree leaves), cached per import run; what a file brings that the
 * catalogue does not know yet is created on first use.
 */
import type pg from 'pg';
import { fold } from '../catalogue/index.ts';
import type { ImportedName } from './import.types.ts';
import * as repo from './reference-data.repo.ts';

export interface ClassInfo {
  classNo: number;
  name: string;
  /** feature_no → slot (1–8) */
  slots: Map<number, number>;
}
export interface FeatureInfo {
  featureNo: number;
  kind: 'N' | 'A';
}

const FALLBACK_LEAF = 'SHKMARKET_99';

export class ReferenceData {
  private manufacturers = new Map<string, string>();
  private manufacturerIds = new Set<string>();
  private brands = new Map<string, { brandNo: number; name: string }>();
  private classes = new Map<string, ClassInfo>();
  private features = new Map<string, FeatureInfo>();
  private values = new Map<string, { valueNo: number; text: string }>();
  private leavesByName = new Map<string, { leafNo: number; name: string }>();
  private leafNames = new Map<number, string>();
  private leafByClass = new Map<number, number>();
  readonly groupLeaves = new Map<string, number>();
  private fallbackLeaf: number | null = null;
  /** Readable names the file's classification dictionary gives ids ("class:EC000001" → name). */
  private names = new Map<string, string>();
  supplierNo = 0;
  productDataSource = 1;

  private constructor(private readonly c: pg.PoolClient) {}

  /** Nothing loaded: for a price update, which resolves no reference data. */
  static unloaded(c: pg.PoolClient): ReferenceData {
    return new ReferenceData(c);
  }

  static async load(c: pg.PoolClient, supplier: string): Promise<ReferenceData> {
    const r = new ReferenceData(c);
    // One session: the statements run one after the other (a pg client does not pipeline).
    const [m, b, cl, slots, f, v, tree, classLeaf, groups, bp] = await repo.loadReferenceRows(c, supplier);
    for (const x of m.rows) {
      r.manufacturers.set(fold(x.name), x.manufacturer_id);
      r.manufacturerIds.add(x.manufacturer_id);
    }
    for (const x of b.rows) r.brands.set(fold(x.name), { brandNo: x.brand_no, name: x.name });
    const byNo = new Map<number, ClassInfo>();
    for (const x of cl.rows) {
      const info = { classNo: x.class_no, name: x.description, slots: new Map<number, number>() };
      r.classes.set(x.class_id.toUpperCase(), info);
      byNo.set(x.class_no, info);
    }
    for (const x of slots.rows) byNo.get(x.class_no)?.slots.set(x.feature_no, x.slot);
    for (const x of f.rows) r.features.set(x.feature_id.toUpperCase(), { featureNo: x.feature_no, kind: x.kind });
    for (const x of v.rows) r.values.set(x.value_id.toUpperCase(), { valueNo: x.value_no, text: x.description });
    for (const x of tree.rows) {
      if (x.type === 'leaf') {
        r.leavesByName.set(fold(x.name), { leafNo: x.node_no, name: x.name });
        r.leafNames.set(x.node_no, x.name);
      }
      if (x.element_id === FALLBACK_LEAF) r.fallbackLeaf = x.node_no;
    }
    for (const x of classLeaf.rows) r.leafByClass.set(x.class_no, x.leaf_no);
    for (const x of groups.rows) r.groupLeaves.set(x.group_id, x.leaf_no);
    const source = Number(bp.rows[0]?.organisation_type ?? 1);
    r.productDataSource = source >= 1 && source <= 4 ? source : 1;
    r.supplierNo = await repo.ensureSupplierNo(c, supplier);
    return r;
  }

  /**
   * Names from the file's classification dictionary: used when an id new to the catalogue is created,
   * and given to classes, features and values an earlier import created with their code as name.
   */
  async addNames(names: ImportedName[]): Promise<number> {
    let renamed = 0;
    for (const n of names) {
      const id = n.id.toUpperCase();
      this.names.set(`${n.kind}:${id}`, n.name);
      renamed += await repo.renameByCode(this.c, n.kind, id, n.name);
      if (n.kind === 'class') {
        const known = this.classes.get(id);
        if (known && known.name === id) known.name = n.name;
      } else if (n.kind === 'value') {
        const known = this.values.get(id);
        if (known && known.text === id) known.text = n.name;
      }
    }
    return renamed;
  }

  leafName(leafNo: number) {
    return this.leafNames.get(leafNo) ?? '';
  }

  /** A supplier group is mapped to the portal leaf of the same name, else to its parent's leaf. */
  async mapGroup(supplier: string, id: string, name: string, parentId: string | null) {
    const leaf =
      this.leavesByName.get(fold(name))?.leafNo ?? (parentId ? this.groupLeaves.get(parentId) : undefined) ?? null;
    if (leaf) this.groupLeaves.set(id, leaf);
    await repo.upsertSupplierGroup(this.c, supplier, id, name, parentId, leaf);
  }

  async manufacturer(name: string): Promise<string> {
    const key = fold(name);
    const known = this.manufacturers.get(key);
    if (known) return known;
    const base =
      name
        .normalize('NFKD')
        .replace(/[^A-Za-z0-9]/g, '')
        .toUpperCase()
        .slice(0, 24) || 'HERSTELLER';
    let id = base;
    for (let k = 2; this.manufacturerIds.has(id); k++) id = `${base}${k}`;
    await repo.insertManufacturer(this.c, id, name);
    this.manufacturers.set(key, id);
    this.manufacturerIds.add(id);
    return id;
  }

  /** BMEcat 2005 has no brand element: the manufacturer name is the brand. */
  async brand(name: string, manufacturerId: string): Promise<{ brandNo: number; name: string }> {
    const key = fold(name);
    const known = this.brands.get(key);
    if (known) return known;
    const brand = { brandNo: await repo.insertBrand(this.c, name, manufacturerId), name };
    this.brands.set(key, brand);
    return brand;
  }

  async etimClass(classId: string): Promise<ClassInfo> {
    const key = classId.toUpperCase();
    const known = this.classes.get(key);
    if (known) return known;
    // A class unknown to the catalogue: named as the file's dictionary names it, else by its code.
    const row = await repo.insertEtimClass(this.c, key, this.names.get(`class:${key}`) ?? key);
    const info = { classNo: row.class_no, name: row.description, slots: new Map<number, number>() };
    this.classes.set(key, info);
    return info;
  }

  async feature(featureId: string, sample: string, unit: string | null): Promise<FeatureInfo> {
    const key = featureId.toUpperCase();
    const known = this.features.get(key);
    if (known) return known;
    const kind = numericValue(sample) !== null ? 'N' : 'A';
    const row = await repo.insertEtimFeature(
      this.c,
      key,
      kind,
      kind === 'N' ? unit : null,
      this.names.get(`feature:${key}`) ?? key,
    );
    const info = { featureNo: row.feature_no, kind: row.kind };
    this.features.set(key, info);
    return info;
  }

  /** The class slot of a feature; a feature new to the class takes the next free slot (max. 8). */
  async slot(cls: ClassInfo, featureNo: number): Promise<number | null> {
    const known = cls.slots.get(featureNo);
    if (known) return known;
    if (cls.slots.size >= 8) return null;
    const slot = Math.max(0, ...cls.slots.values()) + 1;
    await repo.insertClassFeature(this.c, cls.classNo, slot, featureNo);
    cls.slots.set(featureNo, slot);
    return slot;
  }

  async value(valueId: string): Promise<{ valueNo: number; text: string }> {
    const key = valueId.toUpperCase();
    const known = this.values.get(key);
    if (known) return known;
    const text = /^true$/i.test(valueId)
      ? 'Ja'
      : /^false$/i.test(valueId)
        ? 'Nein'
        : (this.names.get(`value:${key}`) ?? valueId);
    const row = await repo.insertEtimValue(this.c, key, text);
    const info = { valueNo: row.value_no, text: row.description };
    this.values.set(key, info);
    return info;
  }

  async leafFor(classNo: number | null, groupIds: string[]): Promise<number> {
    for (const g of groupIds) {
      const leaf = this.groupLeaves.get(g);
      if (leaf) return leaf;
    }
    if (classNo !== null) {
      const leaf = this.leafByClass.get(classNo);
      if (leaf) return leaf;
    }
    return this.fallback();
  }

  /** "Weitere Artikel": the leaf for products neither a group nor their ETIM class place in the tree. */
  private async fallback(): Promise<number> {
    if (this.fallbackLeaf) return this.fallbackLeaf;
    this.fallbackLeaf = await repo.ensureFallbackLeaf(this.c, FALLBACK_LEAF);
    this.leafNames.set(this.fallbackLeaf, 'Weitere Artikel');
    return this.fallbackLeaf;
  }
}

export function numericValue(text: string): number | null {
  const t = text.split(/,\s|\s-\s/)[0].trim();
  if (!/^-?\d+([.,]\d+)?$/.test(t)) return null;
  return Number(t.replace(',', '.'));
}
