/**
 * Reference data of the loaded catalogue (brands, suppliers, ETIM classes/features/values, tree,
 * units), cached in memory per catalogue version. Search and product assembly read ids and names
 * from here instead of joining them on every request.
 */
import type pg from 'pg';
import { listenChannel } from '../../db/listen.ts';
import { catalogueMetaRows, catalogueVersion } from './catalogue.repo.ts';

export interface SlotMeta {
  slot: number;
  featureId: string;
  featureNo: number;
}
export interface FeatureMeta {
  no: number;
  id: string;
  description: string;
  kind: 'N' | 'A';
  unit: string | null;
  unitDescription: string | null;
  slotByClass: Map<number, number>;
  /** The same feature sits in different slots (f1…f8) of different classes: the classes per slot. */
  classesBySlot: Map<number, number[]>;
}
export interface TreeNodeMeta {
  no: number;
  elementId: string;
  parentNo: number | null;
  type: 'root' | 'node' | 'leaf';
  name: string;
  sort: number;
  children: number[];
  leafNos: number[];
}
export interface SupplierMeta {
  no: number;
  bp: string;
  name: string;
  organisationType: number;
  /**
   * The settings flags as loaded with this catalogue version. They change with PUT /v1/Suppliers, not with
   * the catalogue: offers.ts reads them fresh on every request and overrides these (docs/back-office.md).
   */
  requiredOnboardingForm: boolean;
  hideAdditionalInfo: boolean;
  hideGrossPrice: boolean;
}

export interface CatalogueMeta {
  version: number;
  productCount: number;
  brands: Map<number, { no: number; name: string; manufacturerId: string }>;
  brandNoByName: Map<string, number>;
  manufacturers: Map<string, string>;
  suppliers: Map<number, SupplierMeta>;
  supplierByBp: Map<string, SupplierMeta>;
  classes: Map<number, { no: number; id: string; description: string; slots: SlotMeta[] }>;
  classNoById: Map<string, number>;
  features: Map<string, FeatureMeta>;
  values: Map<number, { no: number; id: string; description: string }>;
  valueNoById: Map<string, number>;
  tree: Map<number, TreeNodeMeta>;
  treeByElementId: Map<string, TreeNodeMeta>;
  root: TreeNodeMeta | null;
  units: Map<string, string>;
}

/** How long a cached version is trusted before catalogue_state is read again (without LISTEN). */
const VERSION_CHECK_MS = 2_000;
/** With LISTEN connected a version is trusted until a notification; this re-check is the safety net. */
const LISTENING_CHECK_MS = 60_000;

export class CatalogueMetaCache {
  private current: Promise<CatalogueMeta> | null = null;
  private checkedAt = 0;
  private readonly listeners: ((version: number) => void)[] = [];
  /** LISTEN catalogue_state is connected (migration 0190): a new version arrives as a notification. */
  private listening = false;
  /** A notification arrived after the last version check. */
  private notified = false;
  private stopListening: Promise<(() => Promise<void>) | null> | null = null;
  private closed = false;

  /**
   * options.listen: follow NOTIFY catalogue_state (a new version is read on the notification, milliseconds after
   * its commit) instead of trusting the version for pollMs; the poll stays as the fallback. The connection is
   * opened on first use and ended by close().
   */
  constructor(
    private readonly pool: () => pg.Pool,
    private readonly options: {
      listen?: boolean;
      pollMs?: number;
      log?: { warn: (o: object, m: string) => void };
    } = {},
  ) {}

  /** Called with the new version whenever the catalogue changed (caches drop their entries). */
  onChange(listener: (version: number) => void) {
    this.listeners.push(listener);
  }

  async get(): Promise<CatalogueMeta> {
    if (this.options.listen && !this.stopListening && !this.closed) this.stopListening = this.listen();
    const now = Date.now();
    const trusted = this.listening ? LISTENING_CHECK_MS : (this.options.pollMs ?? VERSION_CHECK_MS);
    if (this.current && !this.notified && now - this.checkedAt < trusted) return this.current;
    this.checkedAt = now;
    this.notified = false;
    const version = await catalogueVersion(this.pool());
    const cached = this.current ? await this.current.catch(() => null) : null;
    if (cached && cached.version === version) return cached;
    this.current = loadCatalogueMeta(this.pool(), version);
    this.current.then(
      (m) => this.listeners.forEach((l) => l(m.version)),
      () => {
        this.current = null;
      },
    );
    return this.current;
  }

  private async listen(): Promise<(() => Promise<void>) | null> {
    try {
      // catalogue_state: a new catalogue version (migration 0190).
      const stop = await listenChannel(
        this.pool(),
        'catalogue_state',
        () => {
          this.notified = true;
        },
        (e) => {
          this.listening = false;
          this.options.log?.warn({ err: e }, 'catalogue meta: change notifications lost, polling continues');
        },
      );
      // Anything committed before LISTEN took effect is read by the next check.
      this.notified = true;
      this.listening = !this.closed;
      return stop;
    } catch (e) {
      this.options.log?.warn({ err: e }, 'catalogue meta: LISTEN failed, polling catalogue_state');
      return null;
    }
  }

  async close() {
    this.closed = true;
    this.listening = false;
    const stop = await this.stopListening;
    await stop?.();
  }
}

async function loadCatalogueMeta(pool: pg.Pool, version: number): Promise<CatalogueMeta> {
  const { state, manufacturers, brands, suppliers, classes, slots, features, values, tree, units } =
    await catalogueMetaRows(pool);
  const unitMap = new Map(units.rows.map((u) => [u.code, u.short_description]));
  const featureByNo = new Map<number, FeatureMeta>();
  const featureMap = new Map<string, FeatureMeta>();
  for (const f of features.rows) {
    const meta: FeatureMeta = {
      no: f.feature_no,
      id: f.feature_id,
      description: f.description,
      kind: f.kind,
      unit: f.unit_code,
      unitDescription: f.unit_code ? (unitMap.get(f.unit_code) ?? f.unit_code) : null,
      slotByClass: new Map(),
      classesBySlot: new Map(),
    };
    featureByNo.set(meta.no, meta);
    featureMap.set(meta.id, meta);
  }
  const classMap = new Map(
    classes.rows.map((c) => [
      c.class_no,
      { no: c.class_no, id: c.class_id, description: c.description, slots: [] as SlotMeta[] },
    ]),
  );
  for (const s of slots.rows) {
    const feature = featureByNo.get(s.feature_no)!;
    classMap.get(s.class_no)?.slots.push({ slot: s.slot, featureId: feature.id, featureNo: feature.no });
    feature.slotByClass.set(s.class_no, s.slot);
    feature.classesBySlot.set(s.slot, [...(feature.classesBySlot.get(s.slot) ?? []), s.class_no]);
  }
  const supplierList: SupplierMeta[] = suppliers.rows.map((s) => ({
    no: s.supplier_no,
    bp: s.bp_number,
    name: s.name,
    organisationType: s.organisation_type,
    requiredOnboardingForm: s.required_onboarding_form ?? false,
    hideAdditionalInfo: s.hide_additional_info ?? false,
    hideGrossPrice: s.hide_gross_price ?? false,
  }));
  const treeMap = new Map<number, TreeNodeMeta>();
  for (const n of tree.rows)
    treeMap.set(n.node_no, {
      no: n.node_no,
      elementId: n.element_id,
      parentNo: n.parent_no,
      type: n.type,
      name: n.name,
      sort: n.sort,
      children: [],
      leafNos: [],
    });
  for (const n of treeMap.values()) if (n.parentNo !== null) treeMap.get(n.parentNo)?.children.push(n.no);
  const collectLeaves = (n: TreeNodeMeta): number[] => {
    n.leafNos = n.type === 'leaf' ? [n.no] : n.children.flatMap((c) => collectLeaves(treeMap.get(c)!));
    return n.leafNos;
  };
  const root = [...treeMap.values()].find((n) => n.type === 'root') ?? null;
  if (root) collectLeaves(root);
  return {
    version,
    productCount: state.rows[0]?.products ?? 0,
    brands: new Map(
      brands.rows.map((b) => [b.brand_no, { no: b.brand_no, name: b.name, manufacturerId: b.manufacturer_id }]),
    ),
    brandNoByName: new Map(brands.rows.map((b) => [b.name, b.brand_no])),
    manufacturers: new Map(manufacturers.rows.map((m) => [m.manufacturer_id, m.name])),
    suppliers: new Map(supplierList.map((s) => [s.no, s])),
    supplierByBp: new Map(supplierList.map((s) => [s.bp, s])),
    classes: classMap,
    classNoById: new Map(classes.rows.map((c) => [c.class_id, c.class_no])),
    features: featureMap,
    values: new Map(
      values.rows.map((v) => [v.value_no, { no: v.value_no, id: v.value_id, description: v.description }]),
    ),
    valueNoById: new Map(values.rows.map((v) => [v.value_id, v.value_no])),
    tree: treeMap,
    treeByElementId: new Map([...treeMap.values()].map((n) => [n.elementId, n])),
    root,
    units: unitMap,
  };
}
