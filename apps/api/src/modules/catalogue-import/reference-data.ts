/**
 * The catalogue's reference data an import resolves against (manufacturers, brands, ETIM classes,
 * features and values, tree leaves), cached per import run; what a file brings that the
 * catalogue does not know yet is created on first use.
 */
import type pg from 'pg';
import { fold } from '../catalogue/search/fold.ts';
import type { ImportedName } from './import.types.ts';

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

  static async load(c: pg.PoolClient, supplier: string): Promise<ReferenceData> {
    const r = new ReferenceData(c);
    // One session: the statements run one after the other (a pg client does not pipeline).
    const statements: [string, unknown[]][] = [
      ['SELECT manufacturer_id, name FROM manufacturers', []],
      ['SELECT brand_no, name FROM brands', []],
      ['SELECT class_no, class_id, description FROM etim_classes', []],
      ['SELECT class_no, slot, feature_no FROM etim_class_features', []],
      ['SELECT feature_no, feature_id, kind FROM etim_features', []],
      ['SELECT value_no, value_id, description FROM etim_values', []],
      ['SELECT node_no, element_id, name, type FROM product_tree', []],
      // the leaf that holds most products of a class (the generated catalogue: exactly one)
      [
        `SELECT DISTINCT ON (class_no) class_no, leaf_no FROM (
           SELECT class_no, leaf_no, count(*) AS n FROM products WHERE class_no IS NOT NULL GROUP BY 1, 2) x
         ORDER BY class_no, n DESC`,
        [],
      ],
      [
        `SELECT g.group_id, g.leaf_no FROM supplier_catalogue_groups g JOIN product_tree t ON t.node_no = g.leaf_no
          WHERE g.supplier_bp_number = $1`,
        [supplier],
      ],
      ['SELECT organisation_type FROM business_partners WHERE bp_number = $1', [supplier]],
    ];
    const results: pg.QueryResult[] = [];
    for (const [text, params] of statements) results.push(await c.query(text, params));
    const [m, b, cl, slots, f, v, tree, classLeaf, groups, bp] = results;
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
    await c.query(
      `INSERT INTO catalogue_supplier_numbers (supplier_no, bp_number)
       SELECT COALESCE(max(supplier_no), 0) + 1, $1 FROM catalogue_supplier_numbers
       HAVING NOT COALESCE(bool_or(bp_number = $1), false)`,
      [supplier],
    );
    r.supplierNo = (
      await c.query('SELECT supplier_no FROM catalogue_supplier_numbers WHERE bp_number = $1', [supplier])
    ).rows[0].supplier_no;
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
      const [table, key] =
        n.kind === 'class'
          ? ['etim_classes', 'class_id']
          : n.kind === 'feature'
            ? ['etim_features', 'feature_id']
            : ['etim_values', 'value_id'];
      renamed +=
        (
          await this.c.query(`UPDATE ${table} SET description = $2 WHERE ${key} = $1 AND description = ${key}`, [
            id,
            n.name,
          ])
        ).rowCount ?? 0;
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
    await this.c.query(
      `INSERT INTO supplier_catalogue_groups (supplier_bp_number, group_id, name, parent_id, leaf_no) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (supplier_bp_number, group_id) DO UPDATE SET name = EXCLUDED.name, parent_id = EXCLUDED.parent_id, leaf_no = EXCLUDED.leaf_no`,
      [supplier, id, name, parentId, leaf],
    );
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
    await this.c.query('INSERT INTO manufacturers (manufacturer_id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
      id,
      name,
    ]);
    this.manufacturers.set(key, id);
    this.manufacturerIds.add(id);
    return id;
  }

  /** BMEcat 2005 has no brand element: the manufacturer name is the brand. */
  async brand(name: string, manufacturerId: string): Promise<{ brandNo: number; name: string }> {
    const key = fold(name);
    const known = this.brands.get(key);
    if (known) return known;
    const { rows } = await this.c.query(
      `INSERT INTO brands (brand_no, name, manufacturer_id) SELECT COALESCE(max(brand_no), 0) + 1, $1, $2 FROM brands
       ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING brand_no`,
      [name, manufacturerId],
    );
    const brand = { brandNo: rows[0].brand_no, name };
    this.brands.set(key, brand);
    return brand;
  }

  async etimClass(classId: string): Promise<ClassInfo> {
    const key = classId.toUpperCase();
    const known = this.classes.get(key);
    if (known) return known;
    // A class unknown to the catalogue: named as the file's dictionary names it, else by its code.
    const { rows } = await this.c.query(
      `INSERT INTO etim_classes (class_no, class_id, description) SELECT COALESCE(max(class_no), 0) + 1, $1, $2 FROM etim_classes
       ON CONFLICT (class_id) DO UPDATE SET class_id = EXCLUDED.class_id RETURNING class_no, description`,
      [key, this.names.get(`class:${key}`) ?? key],
    );
    const info = { classNo: rows[0].class_no, name: rows[0].description, slots: new Map<number, number>() };
    this.classes.set(key, info);
    return info;
  }

  async feature(featureId: string, sample: string, unit: string | null): Promise<FeatureInfo> {
    const key = featureId.toUpperCase();
    const known = this.features.get(key);
    if (known) return known;
    const kind = numericValue(sample) !== null ? 'N' : 'A';
    const { rows } = await this.c.query(
      `INSERT INTO etim_features (feature_no, feature_id, description, kind, unit_code)
       SELECT COALESCE(max(feature_no), 0) + 1, $1, $4, $2, $3 FROM etim_features
       ON CONFLICT (feature_id) DO UPDATE SET feature_id = EXCLUDED.feature_id RETURNING feature_no, kind`,
      [key, kind, kind === 'N' ? unit : null, this.names.get(`feature:${key}`) ?? key],
    );
    const info = { featureNo: rows[0].feature_no, kind: rows[0].kind };
    this.features.set(key, info);
    return info;
  }

  /** The class slot of a feature; a feature new to the class takes the next free slot (max. 8). */
  async slot(cls: ClassInfo, featureNo: number): Promise<number | null> {
    const known = cls.slots.get(featureNo);
    if (known) return known;
    if (cls.slots.size >= 8) return null;
    const slot = Math.max(0, ...cls.slots.values()) + 1;
    await this.c.query(
      'INSERT INTO etim_class_features (class_no, slot, feature_no) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [cls.classNo, slot, featureNo],
    );
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
    const { rows } = await this.c.query(
      `INSERT INTO etim_values (value_no, value_id, description) SELECT COALESCE(max(value_no), 0) + 1, $1, $2 FROM etim_values
       ON CONFLICT (value_id) DO UPDATE SET value_id = EXCLUDED.value_id RETURNING value_no, description`,
      [key, text],
    );
    const info = { valueNo: rows[0].value_no, text: rows[0].description };
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
    const { rows } = await this.c.query(
      `INSERT INTO product_tree (node_no, element_id, parent_no, type, name, sort)
       SELECT COALESCE(max(node_no), 0) + 1, $1, (SELECT node_no FROM product_tree WHERE parent_no IS NULL ORDER BY node_no LIMIT 1),
              'leaf', 'Weitere Artikel', 999 FROM product_tree
       ON CONFLICT (element_id) DO UPDATE SET name = product_tree.name RETURNING node_no`,
      [FALLBACK_LEAF],
    );
    this.fallbackLeaf = rows[0].node_no as number;
    this.leafNames.set(this.fallbackLeaf, 'Weitere Artikel');
    return this.fallbackLeaf;
  }
}

export function numericValue(text: string): number | null {
  const t = text.split(/,\s|\s-\s/)[0].trim();
  if (!/^-?\d+([.,]\d+)?$/.test(t)) return null;
  return Number(t.replace(',', '.'));
}
