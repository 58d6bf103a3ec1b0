/**
 * The in-process search index (ADR 0003): the rows of `product_search` held as roaring bitmaps
 * keyed by product id – one posting bitmap per lexeme and weight (A name, B brand/series,
 * C category/features, D description), one bitmap per facet value (brand, class, leaf, supplier,
 * Aktion) – plus columns (rank, name rank, price, feature slots f1…f8) for ranges, sorting and
 * feature facets. Postgres stays the source of truth: the index is built from it and follows its
 * changes (change-feed.ts).
 */
import fs from 'node:fs';
import type pg from 'pg';
import roaring from 'roaring';
import { parseTsquery, type TsNode } from './tsquery.ts';
import { WordBitmaps } from './word-bitmaps.ts';
import { SLOTS } from './column-stats.ts';
import { feedHorizon, maxSearchId, searchRowsBetween, type SearchRow } from './search-index.repo.ts';
import {
  fileSink,
  fileSource,
  memorySink,
  memorySource,
  SNAPSHOT_MAGIC,
  SnapshotReader,
  SnapshotWriter,
  type SnapshotSink,
  type SnapshotSource,
} from './snapshot.ts';

export const { RoaringBitmap32 } = roaring;
export type Bitmap = InstanceType<typeof RoaringBitmap32>;

/**
 * One feature slot over all products of a class: its value counts (rounded values, as a facet shows them) and range,
 * and per distinct value the products holding it. The value bitmaps answer what reading each member's slot answered
 * before: a dimension or feature filter is the union of the passing values' bitmaps, a large class part's value counts
 * are intersection cardinalities and its range the first values from either end that it intersects (feature-stats.ts).
 */
export interface SlotSummary {
  values: Map<number, number>;
  min: number;
  max: number;
  /** The products at the lowest and at the highest value (holders[0] and holders[last]). */
  atMin: Bitmap;
  atMax: Bitmap;
  /** The slot's distinct values ascending (as read from the float32 slot column). */
  exact: number[];
  /** holders[k]: the class's products whose slot holds exact[k]. */
  holders: Bitmap[];
}

/** The feature slots f1…f8 of a whole class (null: no product of the class has a value in the slot). */
export interface ClassSummary {
  members: number;
  slots: (SlotSummary | null)[];
}

/** Version of the snapshot layout (serialize); another version is rebuilt instead of loaded. */
const SNAPSHOT_FORMAT = 'search-index-3';

/** Weight letters in tsvector order; index 0..3. */
const WEIGHTS = 'ABCD';

/**
 * Visits each lexeme of tsvector text ('abc':1A,5 'def':2B 'ghi') with its weight bits (A=1, B=2, C=4, D=8). A
 * tsvector lists each lexeme once. Lexemes without quote or backslash inside are sliced, not assembled character
 * by character: the build parses every product's vector (5M at the largest catalogue).
 */
function eachLexeme(text: string, visit: (lexeme: string, bits: number) => void) {
  let i = 0;
  const n = text.length;
  const escapes = text.includes('\\');
  while (i < n) {
    if (text.charCodeAt(i) !== 39 /* ' */) {
      i++;
      continue;
    }
    i++;
    let lexeme: string;
    const close = text.indexOf("'", i);
    if (!escapes && close >= 0 && text.charCodeAt(close + 1) !== 39) {
      lexeme = text.slice(i, close);
      i = close + 1;
    } else {
      lexeme = '';
      while (i < n) {
        const c = text[i];
        if (c === "'" && text[i + 1] === "'") {
          lexeme += "'";
          i += 2;
        } else if (c === '\\' && i + 1 < n) {
          lexeme += text[i + 1];
          i += 2;
        } else if (c === "'") {
          i++;
          break;
        } else {
          lexeme += c;
          i++;
        }
      }
    }
    let bits = 0;
    if (text.charCodeAt(i) === 58 /* : */) {
      i++;
      // Positions with optional weight letter, comma-separated; a position without a letter is D.
      while (i < n) {
        let c = text.charCodeAt(i);
        if (c === 32) break;
        while (c >= 48 && c <= 57) c = text.charCodeAt(++i);
        if (c === 65) bits |= 1;
        else if (c === 66) bits |= 2;
        else if (c === 67) bits |= 4;
        else bits |= 8;
        if (c >= 65 && c <= 68) c = text.charCodeAt(++i);
        if (c === 44) i++;
      }
    } else bits = 8;
    visit(lexeme, bits);
  }
}

/** Parses tsvector text into lexeme → weight bits (A=1, B=2, C=4, D=8). */
export function parseTsvector(text: string): Map<string, number> {
  const out = new Map<string, number>();
  eachLexeme(text, (lexeme, bits) => out.set(lexeme, (out.get(lexeme) ?? 0) | bits));
  return out;
}

type Postings = (Bitmap | null)[]; // per weight A, B, C, D

/**
 * A column with room for `size` ids. Grows by a quarter (not doubling: at 5M products a doubled set of columns would
 * hold up to 3M empty slots each); the build reserves the exact size up front (reserve()).
 */
const grow = <T extends Float64Array | Float32Array | Int32Array | Uint16Array>(
  a: T,
  size: number,
  make: (n: number) => T,
  empty: number = NaN,
): T => {
  if (a.length >= size) return a;
  const b = make(Math.max(size, a.length + (a.length >> 2)));
  b.fill(empty as never);
  b.set(a);
  return b;
};

/** Ids per chunk when the interleaved slots are written as the snapshot's eight columns. */
const SLOT_CHUNK = 1 << 20;

/** The combination "none" of a two-byte combination column (comboOf). */
const NO_COMBO = 0xffff;

/** Per id, the key of the value bitmap holding it (-1: none) – derived from a map of value bitmaps. */
function keyColumn(map: Map<number, Bitmap>, size: number): Int32Array<ArrayBuffer> {
  const column = new Int32Array(size).fill(-1);
  for (const [key, bitmap] of map) for (const id of bitmap.toUint32Array()) column[id] = key;
  return column;
}

export class SearchIndex {
  readonly all = new RoaringBitmap32();
  readonly lexemes = new Map<string, Postings>();
  private sortedLexemes: string[] | null = null;
  readonly brands = new Map<number, Bitmap>();
  readonly classes = new Map<number, Bitmap>();
  readonly leaves = new Map<number, Bitmap>();
  readonly suppliers = new Map<number, Bitmap>();
  readonly promo = new RoaringBitmap32();
  rank = new Float64Array(0);
  nameRank = new Float64Array(0);
  price = new Float64Array(0);
  /** Brand, leaf and class of each id (-1: none): facet counts of large results in one pass (facetSetOf). */
  brandOf = new Int32Array(0);
  leafOf = new Int32Array(0);
  classNoOf = new Int32Array(0);
  /**
   * Each id's combination of brand, leaf and class (an index into `combos`, -1: none): a result's brand, leaf and class
   * counts from one column read per id into a small count array (facetSetOf). The combinations seen are few (hundreds
   * to a few thousand: a brand's products sit in few leaves) and are never forgotten. Two bytes per id while there
   * are fewer than NO_COMBO combinations (the column is read at random positions: half the memory traffic), then four.
   */
  comboOf: Uint16Array | Int32Array = new Uint16Array(0);
  readonly combos: { brand: number; leaf: number; classNo: number }[] = [];
  private readonly comboKeys = new Map<string, number>();
  /**
   * The feature slots f1…f8, interleaved: slot s (1…8) of id at [id * SLOTS + s - 1]. A class part's statistics read
   * every slot of an id at once (feature-stats.ts): its eight values share one cache line instead of eight columns'
   * random reads per id.
   */
  slotValues = new Float32Array(0);
  /** Ids in name order (null name ranks last) and each id's position in it, rebuilt lazily after changes. */
  private namePermutation: Uint32Array | null = null;
  private namePositions: Uint32Array | null = null;
  /** Ids in price order (lowest price ascending, ties by id; unpriced ids last), each id's position, the priced count. */
  private priceOrdering: PriceOrdering | null = null;
  /** Scratch space for the ids of a result, read synchronously (ids()). */
  private scratch = new Uint32Array(0);
  /** Whether ascending ids are ascending ranks (bitmap order is then rank order); checked lazily after changes. */
  private rankFollows = true;
  private rankChecked = false;
  /**
   * Summaries of whole classes' feature slots (classSummary), kept up to date by the changes: a product leaving or
   * joining a class is taken out of or put into its value bitmaps (taking a large class's summary again costs 0.1–0.4 s
   * at 5M; a change of a few products, microseconds).
   */
  private readonly summaries = new Map<number, ClassSummary>();
  /** Raised by every change of the index's content (memos of whole-catalogue figures compare it). */
  changes = 0;
  /** Word unions kept across searches while the index does not change (word-bitmaps.ts). */
  readonly wordBitmaps = new WordBitmaps();
  /** Change-feed position (a transaction id, xid8 text): changes of transactions from here on are not applied yet. */
  feedPosition = '0';

  get size() {
    return this.all.size;
  }

  private ensure(id: number) {
    if (id < this.rank.length) return;
    this.reserve(id + 1);
  }

  /** Room in every column for ids below `size`. */
  private reserve(size: number) {
    this.rank = grow(this.rank, size, (n) => new Float64Array(n));
    this.nameRank = grow(this.nameRank, size, (n) => new Float64Array(n));
    this.price = grow(this.price, size, (n) => new Float64Array(n));
    this.brandOf = grow(this.brandOf, size, (n) => new Int32Array(n), -1);
    this.leafOf = grow(this.leafOf, size, (n) => new Int32Array(n), -1);
    this.classNoOf = grow(this.classNoOf, size, (n) => new Int32Array(n), -1);
    this.comboOf =
      this.comboOf instanceof Uint16Array
        ? grow(this.comboOf, size, (n) => new Uint16Array(n), NO_COMBO)
        : grow(this.comboOf, size, (n) => new Int32Array(n), -1);
    this.slotValues = grow(this.slotValues, size * SLOTS, (n) => new Float32Array(n));
  }

  /** Adds rows that are not in the index (their ids must not be present). */
  addRows(rows: SearchRow[]) {
    const perLexeme = new Map<string, number[][]>();
    const perValue = (map: Map<number, number[]>, key: number, id: number) => {
      const list = map.get(key);
      if (list) list.push(id);
      else map.set(key, [id]);
    };
    const brands = new Map<number, number[]>();
    const classes = new Map<number, number[]>();
    const leaves = new Map<number, number[]>();
    const suppliers = new Map<number, number[]>();
    const promo: number[] = [];
    const ids: number[] = [];
    let id = 0;
    const addLexeme = (lexeme: string, bits: number) => {
      let lists = perLexeme.get(lexeme);
      if (!lists) perLexeme.set(lexeme, (lists = [[], [], [], []]));
      if (bits & 1) lists[0].push(id);
      if (bits & 2) lists[1].push(id);
      if (bits & 4) lists[2].push(id);
      if (bits & 8) lists[3].push(id);
    };
    // Room for the batch's highest id at once (the columns grow by a quarter, not per row).
    let highest = -1;
    for (const r of rows) if (r.id > highest) highest = r.id;
    this.ensure(highest);
    for (const r of rows) {
      id = r.id;
      ids.push(id);
      this.rank[id] = r.rank;
      this.nameRank[id] = r.name_rank ?? NaN;
      this.price[id] = r.price_cents ?? NaN;
      this.brandOf[id] = r.brand_no;
      this.leafOf[id] = r.leaf_no;
      this.classNoOf[id] = r.class_no ?? -1;
      // The combination first: a new one may widen the column (a new array).
      const combo = this.combo(r.brand_no, r.leaf_no, r.class_no ?? -1);
      this.comboOf[id] = combo;
      for (let k = 0; k < SLOTS; k++) this.slotValues[id * SLOTS + k] = r.f[k] ?? NaN;
      const joined = r.class_no === null ? undefined : this.summaries.get(r.class_no);
      if (joined) addToSummary(joined, id, this.slotValues);
      perValue(brands, r.brand_no, id);
      if (r.class_no !== null) perValue(classes, r.class_no, id);
      perValue(leaves, r.leaf_no, id);
      const supplierNos = r.supplier_nos;
      for (let k = 0; k < supplierNos.length; k++)
        if (supplierNos.indexOf(supplierNos[k]) === k) perValue(suppliers, supplierNos[k], id);
      if (r.promo) promo.push(id);
      eachLexeme(r.vec, addLexeme);
    }
    const flush = (target: Map<number, Bitmap>, source: Map<number, number[]>) => {
      for (const [key, list] of source) {
        const bitmap = target.get(key);
        if (bitmap) bitmap.addMany(list);
        else target.set(key, new RoaringBitmap32(list));
      }
    };
    flush(this.brands, brands);
    flush(this.classes, classes);
    flush(this.leaves, leaves);
    flush(this.suppliers, suppliers);
    this.promo.addMany(promo);
    for (const [lexeme, lists] of perLexeme) {
      let postings = this.lexemes.get(lexeme);
      if (!postings) {
        // A copy of the key: the sliced lexeme would keep its row's whole vector text alive (eachLexeme).
        this.lexemes.set(Buffer.from(lexeme, 'utf8').toString('utf8'), (postings = [null, null, null, null]));
        this.sortedLexemes = null;
      }
      for (let w = 0; w < 4; w++) {
        if (!lists[w].length) continue;
        const bitmap = postings[w];
        if (bitmap) bitmap.addMany(lists[w]);
        else postings[w] = new RoaringBitmap32(lists[w]);
      }
    }
    this.all.addMany(ids);
    this.changes++;
    this.namePermutation = null;
    this.namePositions = null;
    this.priceOrdering = null;
    this.rankChecked = false;
  }

  /** Replaces products by their current rows (a product without a row is removed). */
  applyChanges(ids: number[], rows: SearchRow[]) {
    this.removeIds(ids);
    if (rows.length) this.addRows(rows);
  }

  /** Removes products from every structure (before re-adding their new rows). */
  removeIds(ids: number[]) {
    const gone = new RoaringBitmap32(ids).andInPlace(this.all);
    if (!gone.size) return;
    const strip = (map: Map<number, Bitmap>) => {
      for (const [key, bitmap] of map)
        if (bitmap.intersects(gone)) {
          bitmap.andNotInPlace(gone);
          if (!bitmap.size) map.delete(key);
        }
    };
    strip(this.brands);
    strip(this.classes);
    strip(this.leaves);
    strip(this.suppliers);
    this.promo.andNotInPlace(gone);
    for (const [lexeme, postings] of this.lexemes) {
      let empty = true;
      for (let w = 0; w < 4; w++) {
        const bitmap = postings[w];
        if (!bitmap) continue;
        if (bitmap.intersects(gone)) bitmap.andNotInPlace(gone);
        if (bitmap.size) empty = false;
        else postings[w] = null;
      }
      if (empty) {
        this.lexemes.delete(lexeme);
        this.sortedLexemes = null;
      }
    }
    this.all.andNotInPlace(gone);
    this.changes++;
    for (const id of gone) {
      this.rank[id] = NaN;
      this.nameRank[id] = NaN;
      this.price[id] = NaN;
      this.brandOf[id] = -1;
      this.leafOf[id] = -1;
      const left = this.classNoOf[id] >= 0 ? this.summaries.get(this.classNoOf[id]) : undefined;
      if (left) removeFromSummary(left, id, this.slotValues); // before its slots are cleared
      this.classNoOf[id] = -1;
      this.comboOf[id] = this.comboOf instanceof Uint16Array ? NO_COMBO : -1;
      this.slotValues.fill(NaN, id * SLOTS, id * SLOTS + SLOTS);
    }
    this.namePermutation = null;
    this.namePositions = null;
    this.priceOrdering = null;
  }

  /** The number of a combination of brand, leaf and class (-1: none), added when new. */
  private combo(brand: number, leaf: number, classNo: number): number {
    const last = this.combos.length ? this.combos[this.lastCombo] : undefined;
    // Neighbouring ids share their combination where ids are numbered in category order (not in the seeded
    // catalogue: its products' leaves cycle with their number, 4.98M combination changes among 5M ids).
    if (last && last.brand === brand && last.leaf === leaf && last.classNo === classNo) return this.lastCombo;
    const key = `${brand},${leaf},${classNo}`;
    let k = this.comboKeys.get(key);
    if (k === undefined) {
      k = this.combos.length;
      if (k === NO_COMBO && this.comboOf instanceof Uint16Array) this.widenCombos();
      this.combos.push({ brand, leaf, classNo });
      this.comboKeys.set(key, k);
    }
    this.lastCombo = k;
    return k;
  }

  private lastCombo = 0;

  /** Four bytes per id from the 65,535th combination on (none: -1). */
  private widenCombos() {
    const wide = new Int32Array(this.comboOf.length);
    for (let id = 0; id < wide.length; id++) wide[id] = this.comboOf[id] === NO_COMBO ? -1 : this.comboOf[id];
    this.comboOf = wide;
  }

  get rankFollowsId(): boolean {
    if (!this.rankChecked) {
      const rank = this.rank;
      let last = -Infinity;
      this.rankFollows = true;
      for (const id of this.all.toUint32Array()) {
        const r = rank[id];
        if (!(r > last)) {
          this.rankFollows = false;
          break;
        }
        last = r;
      }
      this.rankChecked = true;
    }
    return this.rankFollows;
  }

  /**
   * Builds the index from product_search in id ranges; two ranges are read ahead on their own
   * connections while the previous one is added, so Postgres and Node work at the same time.
   */
  static async build(pool: pg.Pool, options: { batch?: number } = {}): Promise<SearchIndex> {
    const index = new SearchIndex();
    const batch = options.batch ?? 25_000;
    // The feed position first: changes committed while the build runs are applied again afterwards.
    index.feedPosition = await feedHorizon(pool);
    const maxId = await maxSearchId(pool);
    index.reserve(maxId + 1);
    const ranges: Promise<SearchRow[]>[] = [];
    let from = 1;
    const next = () => {
      if (from > maxId) return;
      ranges.push(searchRowsBetween(pool, from, Math.min(maxId, from + batch - 1)));
      from += batch;
    };
    next();
    next();
    for (let k = 0; k < ranges.length; k++) {
      const rows = await ranges[k];
      next();
      index.addRows(rows);
      ranges[k] = Promise.resolve([]);
    }
    index.compact();
    index.prepareOrders();
    return index;
  }

  /** Every bitmap of the index with the map it belongs to (for compaction and the memory report). */
  private *bitmaps(): Generator<[string, Bitmap]> {
    yield ['all', this.all];
    yield ['promo', this.promo];
    for (const [name, map] of [
      ['brands', this.brands],
      ['classes', this.classes],
      ['leaves', this.leaves],
      ['suppliers', this.suppliers],
    ] as const)
      for (const bitmap of map.values()) yield [name, bitmap];
    for (const postings of this.lexemes.values()) for (const bitmap of postings) if (bitmap) yield ['lexemes', bitmap];
  }

  /**
   * Run containers where they are smaller (where ids are numbered in category order, a leaf's, a brand's or a frequent
   * word's products lie in runs) and no spare capacity in the containers: after a build or a snapshot load.
   */
  compact() {
    for (const [, bitmap] of this.bitmaps()) {
      bitmap.runOptimize();
      bitmap.shrinkToFit();
    }
  }

  /**
   * Bytes held per structure: bitmaps (roaring's serialised size, close to its memory), the columns and orders
   * (typed arrays), and the lexeme dictionary's keys (string length; object overhead not counted).
   */
  memoryReport(): Record<string, number> {
    const out: Record<string, number> = {};
    const add = (key: string, bytes: number) => (out[key] = (out[key] ?? 0) + bytes);
    for (const [name, bitmap] of this.bitmaps()) add(`bitmaps.${name}`, bitmap.getSerializationSizeInBytes('croaring'));
    add('columns.rank', this.rank.byteLength);
    add('columns.nameRank', this.nameRank.byteLength);
    add('columns.price', this.price.byteLength);
    add(
      'columns.brandOf+leafOf+classNoOf+comboOf',
      this.brandOf.byteLength + this.leafOf.byteLength + this.classNoOf.byteLength + this.comboOf.byteLength,
    );
    add('columns.f1-f8', this.slotValues.byteLength);
    add(
      'orders.name+price',
      (this.namePermutation?.byteLength ?? 0) +
        (this.namePositions?.byteLength ?? 0) +
        (this.priceOrdering
          ? this.priceOrdering.order.byteLength +
            this.priceOrdering.positions.byteLength +
            this.priceOrdering.byCombo.ids.byteLength
          : 0),
    );
    add('scratch', this.scratch.byteLength);
    for (const summary of this.summaries.values())
      for (const slot of summary.slots)
        for (const holders of slot?.holders ?? [])
          add('summaries.valueBitmaps', holders.getSerializationSizeInBytes('croaring'));
    let keys = 0;
    for (const lexeme of this.lexemes.keys()) keys += lexeme.length;
    add('lexemes.keys', keys);
    add('lexemes.count', this.lexemes.size);
    return out;
  }

  /** Writes the snapshot to a file (a stream of sections, see snapshot.ts). */
  writeSnapshot(file: string, meta: Record<string, unknown>): number {
    const fd = fs.openSync(file, 'w');
    try {
      return this.writeTo(fileSink(fd), meta);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** The snapshot of a file and the meta it was saved with; null when it has another format. */
  static readSnapshot(file: string): { index: SearchIndex; meta: Record<string, unknown> } | null {
    const fd = fs.openSync(file, 'r');
    try {
      return SearchIndex.readFrom(fileSource(fd));
    } finally {
      fs.closeSync(fd);
    }
  }

  /** The whole snapshot in one buffer (tests). */
  serialize(meta: Record<string, unknown>): Buffer {
    const sink = memorySink();
    this.writeTo(sink, meta);
    return sink.buffer();
  }

  static deserialize(buffer: Uint8Array): { index: SearchIndex; meta: Record<string, unknown> } | null {
    return SearchIndex.readFrom(memorySource(buffer));
  }

  /** Writes the snapshot; returns its size in bytes. */
  private writeTo(sink: SnapshotSink, meta: Record<string, unknown>): number {
    const w = new SnapshotWriter(sink);
    // Only ids up to the highest present one: the columns' spare room is not saved.
    const length = this.all.size ? this.all.maximum() + 1 : 0;
    const maps = [this.brands, this.classes, this.leaves, this.suppliers];
    const header = Buffer.from(
      JSON.stringify({ format: SNAPSHOT_FORMAT, meta, feedPosition: this.feedPosition, length }),
      'utf8',
    );
    w.raw(SNAPSHOT_MAGIC);
    w.u32(header.length);
    w.raw(header);
    w.bitmap(this.all);
    w.bitmap(this.promo);
    for (const map of maps) {
      w.u32(map.size);
      for (const [key, bitmap] of map) {
        w.i32(key);
        w.bitmap(bitmap);
      }
    }
    w.u32(this.lexemes.size);
    for (const [lexeme, postings] of this.lexemes) {
      const bytes = Buffer.from(lexeme, 'utf8');
      w.u16(bytes.length);
      w.raw(bytes);
      let mask = 0;
      for (let k = 0; k < 4; k++) if (postings[k]) mask |= 1 << k;
      w.u8(mask);
      for (const bitmap of postings) if (bitmap) w.bitmap(bitmap);
    }
    // Every id of the index has its slot in the columns (ensure() on adding).
    for (const column of [this.rank, this.nameRank, this.price]) w.column(column.subarray(0, length));
    // The slots as eight columns (the snapshot's layout), taken out of the interleaved array in chunks.
    const chunk = new Float32Array(Math.min(length, SLOT_CHUNK));
    for (let k = 0; k < SLOTS; k++)
      for (let from = 0; from < length; from += chunk.length) {
        const n = Math.min(chunk.length, length - from);
        for (let i = 0; i < n; i++) chunk[i] = this.slotValues[(from + i) * SLOTS + k];
        w.column(chunk.subarray(0, n)); // written synchronously: the chunk is reused afterwards
      }
    w.raw(SNAPSHOT_MAGIC);
    w.flush();
    return w.bytes;
  }

  private static readFrom(source: SnapshotSource): { index: SearchIndex; meta: Record<string, unknown> } | null {
    const r = new SnapshotReader(source);
    if (!r.bytes(SNAPSHOT_MAGIC.length).equals(SNAPSHOT_MAGIC)) return null;
    const header = JSON.parse(r.bytes(r.u32()).toString('utf8')) as {
      format: string;
      meta: Record<string, unknown>;
      feedPosition: string;
      length: number;
    };
    if (header.format !== SNAPSHOT_FORMAT) return null;
    const index = new SearchIndex();
    index.feedPosition = header.feedPosition;
    index.all.orInPlace(r.bitmap());
    index.promo.orInPlace(r.bitmap());
    for (const map of [index.brands, index.classes, index.leaves, index.suppliers]) {
      const count = r.u32();
      for (let k = 0; k < count; k++) {
        const key = r.i32();
        map.set(key, r.bitmap());
      }
    }
    const lexemes = r.u32();
    for (let k = 0; k < lexemes; k++) {
      const lexeme = r.bytes(r.u16()).toString('utf8');
      const mask = r.u8();
      const postings: Postings = [null, null, null, null];
      for (let w = 0; w < 4; w++) if (mask & (1 << w)) postings[w] = r.bitmap();
      index.lexemes.set(lexeme, postings);
    }
    const n = header.length;
    index.rank = r.column((m) => new Float64Array(m), n);
    index.nameRank = r.column((m) => new Float64Array(m), n);
    index.price = r.column((m) => new Float64Array(m), n);
    index.slotValues = new Float32Array(n * SLOTS);
    const column = new Float32Array(n);
    for (let k = 0; k < SLOTS; k++) {
      r.into(column);
      for (let id = 0; id < n; id++) index.slotValues[id * SLOTS + k] = column[id];
    }
    if (!r.bytes(SNAPSHOT_MAGIC.length).equals(SNAPSHOT_MAGIC)) throw new Error('search index snapshot: bad end');
    index.brandOf = keyColumn(index.brands, n);
    index.leafOf = keyColumn(index.leaves, n);
    index.classNoOf = keyColumn(index.classes, n);
    index.comboOf = new Uint16Array(n).fill(NO_COMBO);
    const ids = index.ids(index.all);
    for (let k = 0; k < ids.length && k < index.all.size; k++) {
      const id = ids[k];
      const combo = index.combo(index.brandOf[id], index.leafOf[id], index.classNoOf[id]);
      index.comboOf[id] = combo; // after combo(): it may widen the column
    }
    index.compact();
    index.prepareOrders();
    return { index, meta: header.meta };
  }

  /**
   * Computes the name order and the rank check now (≈ 0.5 s at 1M products) – while a build or snapshot load runs,
   * before searches are answered from the index – instead of on the event loop of the first search that needs them.
   */
  prepareOrders() {
    this.nameOrder();
    this.priceOrder();
    void this.rankFollowsId;
    for (const classNo of this.classes.keys()) this.classSummary(classNo);
  }

  /**
   * The feature slots of a whole class with a bitmap per value: a result holding most of a class reads only the
   * products it lacks, a filter is a union of value bitmaps (feature-stats.ts, slotFilter). Taken for every class while
   * a build or snapshot load runs (one pass over the catalogue), then kept up to date by the changes (addRows,
   * removeIds); a class that appears later when a search first needs it.
   */
  classSummary(classNo: number): ClassSummary | null {
    const kept = this.summaries.get(classNo);
    if (kept) return kept;
    const members = this.classes.get(classNo);
    if (!members) return null;
    const ids = this.ids(members); // shared buffer: read synchronously below
    const n = members.size;
    const slots = slotSummaries(this.slotValues, ids, n);
    const summary: ClassSummary = { members: n, slots };
    this.summaries.set(classNo, summary);
    return summary;
  }

  /** Whether the name order is computed (false after a change until the next name-sorted search). */
  get nameOrderReady(): boolean {
    return this.namePermutation !== null;
  }

  /** Lexemes in code-unit order (Postgres compares lexeme bytes; folded lexemes are ASCII). */
  private sorted(): string[] {
    this.sortedLexemes ??= [...this.lexemes.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return this.sortedLexemes;
  }

  /** Products having the lexeme (or a lexeme starting with it) with one of the weights ('' = any); a fresh bitmap. */
  lexemeBitmap(lexeme: string, prefix: boolean, weights: string): Bitmap {
    return fresh(this.lexemeOperand(this.keptWords(), lexeme, prefix, weights));
  }

  /** The word unions kept for the index as it is now (word-bitmaps.ts). */
  private keptWords(): WordBitmaps {
    return this.wordBitmaps.at(this.changes);
  }

  /**
   * A lexeme's products with the weights: the index's own posting when there is one, else the union of its postings
   * (a prefix's lexemes, several weights) as kept across searches. Read-only either way.
   */
  private lexemeOperand(words: WordBitmaps, lexeme: string, prefix: boolean, weights: string): Operand {
    const key = `${lexeme}\u0000${prefix ? '*' : ''}${weights}`;
    const kept = words.get(key);
    if (kept) return shared(kept);
    let parts: Bitmap[][] | null = null; // a prefix's postings per weight, found once for every weight
    const chosen: Bitmap[] = [];
    for (let w = 0; w < 4; w++) {
      if (weights && !weights.includes(WEIGHTS[w])) continue;
      let union: Bitmap | null | undefined;
      if (!prefix) union = this.lexemes.get(lexeme)?.[w];
      else {
        // One weight of a prefix is shared by the texts of a query ('ventil:*A', 'ventil:*AB', 'ventil:*').
        const weightKey = `${lexeme}\u0000*${WEIGHTS[w]}`;
        union = words.get(weightKey);
        if (!union) {
          parts ??= this.postingsOf(lexeme, true);
          const ofWeight = parts[w];
          union =
            ofWeight.length === 0
              ? null
              : ofWeight.length === 1
                ? ofWeight[0]
                : words.keep(weightKey, RoaringBitmap32.orMany(ofWeight));
        }
      }
      if (union) chosen.push(union);
    }
    if (!chosen.length) return own(new RoaringBitmap32());
    if (chosen.length === 1) return shared(chosen[0]);
    return shared(words.keep(key, RoaringBitmap32.orMany(chosen)));
  }

  /** The posting bitmaps per weight of the lexeme, or of every lexeme starting with it. */
  private postingsOf(lexeme: string, prefix: boolean): Bitmap[][] {
    const parts: Bitmap[][] = [[], [], [], []];
    const take = (postings: Postings | undefined) => {
      if (!postings) return;
      for (let w = 0; w < 4; w++) {
        const bitmap = postings[w];
        if (bitmap) parts[w].push(bitmap);
      }
    };
    if (!prefix) take(this.lexemes.get(lexeme));
    else {
      const sorted = this.sorted();
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (sorted[mid] < lexeme) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < sorted.length && sorted[i].startsWith(lexeme); i++) take(this.lexemes.get(sorted[i]));
    }
    return parts;
  }

  /**
   * Evaluates a parsed tsquery; a fresh bitmap (the caller may change and free it). A phrase is evaluated as the AND
   * of its words: the caller rechecks the candidates in Postgres (positions are not held in memory).
   */
  evaluate(node: TsNode | null): Bitmap {
    if (!node) return new RoaringBitmap32();
    return fresh(this.operand(this.keptWords(), node));
  }

  evaluateText(tsqueryText: string): Bitmap {
    return this.evaluate(parseTsquery(tsqueryText));
  }

  /**
   * Like evaluateText, read-only: the caller must neither change nor free it. It stays as it is when the index changes
   * (a kept word union is frozen, anything else is the evaluation's own), so a search may hold it across awaits.
   * Saves the copy of a kept union a fresh bitmap would need.
   */
  evaluateTextShared(tsqueryText: string): Bitmap {
    const node = parseTsquery(tsqueryText);
    if (!node) return new RoaringBitmap32().freeze();
    const { bitmap, own: owned } = this.operand(this.keptWords(), node);
    // An index posting changes in place with the feed: copied. A kept union is frozen already.
    if (!owned) return bitmap.isFrozen ? bitmap : bitmap.clone().freeze();
    return bitmap.freeze();
  }

  /** How many products match the tsquery text (no bitmap kept or copied for it). */
  countText(tsqueryText: string): number {
    const node = parseTsquery(tsqueryText);
    if (!node) return 0;
    const result = this.operand(this.keptWords(), node);
    const n = result.bitmap.size;
    release(result);
    return n;
  }

  /**
   * A node's products: own bitmaps where an operator had to make one, the index's postings and the kept word unions
   * read as they are (no copy per operand). A word with its alternatives (an OR: 'kupfer | kupfe', typo alternatives,
   * compound parts) is kept as one union.
   */
  private operand(words: WordBitmaps, node: TsNode): Operand {
    switch (node.op) {
      case 'lexeme':
        return this.lexemeOperand(words, node.lexeme, node.prefix, node.weights);
      case 'not': {
        const arg = this.operand(words, node.arg);
        const result = RoaringBitmap32.andNot(this.all, arg.bitmap);
        release(arg);
        return own(result);
      }
      case 'and':
      case 'phrase': {
        const left = this.operand(words, node.left);
        if (!left.bitmap.size) return left;
        return combine(left, this.operand(words, node.right), 'and');
      }
      case 'or': {
        const key = `(${tsText(node)})`;
        const kept = words.get(key);
        if (kept) return shared(kept);
        return shared(words.keep(key, this.alternatives(words, node).bitmap));
      }
    }
  }

  /** The union of an OR's operands (nested ORs merged into it, not kept on their own); always an own bitmap. */
  private alternatives(words: WordBitmaps, node: TsNode): Operand {
    const side = (n: TsNode) => (n.op === 'or' ? this.alternatives(words, n) : this.operand(words, n));
    if (node.op !== 'or') return side(node);
    return combine(side(node.left), side(node.right), 'or');
  }

  valuesBitmap(map: Map<number, Bitmap>, keys: number[]): Bitmap {
    const parts = keys.map((k) => map.get(k)).filter((b): b is Bitmap => !!b);
    return parts.length ? RoaringBitmap32.orMany(parts) : new RoaringBitmap32();
  }

  /**
   * Products of the given classes whose feature slot has a value that passes the test: the union of the passing values' bitmaps of the
   * classes' summaries (classSummary) – no read of every member's slot (a dimension such as '1/2"' names classes of
   * hundreds of thousands of products at 5M, read at random positions).
   */
  slotFilter(classNos: number[], slot: number, test: (v: number) => boolean): Bitmap {
    const passing: Bitmap[] = [];
    for (const classNo of classNos) {
      const summary = this.classSummary(classNo)?.slots[slot - 1];
      if (!summary) continue;
      const { exact, holders } = summary;
      for (let k = 0; k < exact.length; k++) if (test(exact[k])) passing.push(holders[k]);
    }
    return passing.length ? RoaringBitmap32.orMany(passing) : new RoaringBitmap32();
  }

  /** Products of the given classes whose feature slot passes the test, read member by member (the tests' reference). */
  slotFilterByIds(classNos: number[], slot: number, test: (v: number) => boolean): Bitmap {
    const values = this.slotValues;
    const at = slot - 1;
    const members = this.valuesBitmap(this.classes, classNos);
    return this.keep(members, (id) => test(values[id * SLOTS + at]));
  }

  /**
   * The members of a bitmap that pass a test, collected in place in the shared id buffer (no array of the size of the
   * bitmap per request: at 5M products these were most of a search's garbage).
   */
  private keep(bitmap: Bitmap, test: (id: number) => boolean): Bitmap {
    const ids = this.ids(bitmap); // shared buffer: read and compacted synchronously here
    const n = bitmap.size;
    let kept = 0;
    for (let k = 0; k < n; k++) {
      const id = ids[k];
      if (test(id)) ids[kept++] = id;
    }
    return new RoaringBitmap32(ids.subarray(0, kept));
  }

  /** Products whose lowest price (cents) lies within the bounds. */
  priceFilter(min: number | null, max: number | null): Bitmap {
    const price = this.price;
    const lo = min ?? -Infinity;
    const hi = max ?? Infinity;
    return this.keep(this.all, (id) => {
      const p = price[id];
      return p >= lo && p <= hi;
    });
  }

  /** The ids of a bitmap from offset, limit many, in static rank order. */
  rankPage(bitmap: Bitmap, offset: number, limit: number): number[] {
    if (offset >= bitmap.size || limit <= 0) return [];
    if (this.rankFollowsId) return Array.from(bitmap.toUint32Array(offset + limit).subarray(offset));
    const rank = this.rank;
    const need = offset + limit;
    // An early page of a large result: the best `need` ids kept while reading the ids, no sort of the whole result.
    if (need * TOP_K_SHARE < bitmap.size) return bestByRank(this.ids(bitmap), rank, need).slice(offset);
    const ids = Array.from(bitmap.toUint32Array());
    ids.sort((a, b) => rank[a] - rank[b] || a - b);
    return ids.slice(offset, offset + limit);
  }

  /**
   * The ids of a bitmap in ascending order, in a buffer shared by all callers: valid until the next call, so only
   * for synchronous use (no await while reading it). Saves allocating a large array per result.
   */
  ids(bitmap: Bitmap): Uint32Array {
    if (this.scratch.length < bitmap.size) this.scratch = new Uint32Array(Math.max(bitmap.size, this.all.size));
    return bitmap.toUint32Array(this.scratch);
  }

  /** The ids of a bitmap in name order (NULL name ranks last ascending, first descending, as Postgres). */
  namePage(bitmap: Bitmap, offset: number, limit: number, descending: boolean): number[] {
    if (offset >= bitmap.size || limit <= 0) return [];
    // A large result: walk the name order and keep members; a small one: its members' positions in the name
    // order as a bitmap (sorted by CRoaring), the page read from it – no comparison sort in JavaScript.
    if (bitmap.size * 8 > this.all.size) {
      const order = this.nameOrder();
      const out: number[] = [];
      let seen = 0;
      const n = order.length;
      for (let k = 0; k < n && out.length < limit; k++) {
        const id = order[descending ? n - 1 - k : k];
        if (!bitmap.has(id)) continue;
        if (seen++ >= offset) out.push(id);
      }
      return out;
    }
    const order = this.nameOrder();
    const positionOf = this.namePositions!;
    // The members' positions replace their ids in the shared buffer (read synchronously here).
    const positions = this.ids(bitmap).subarray(0, bitmap.size);
    for (let k = 0; k < positions.length; k++) positions[k] = positionOf[positions[k]];
    // An early page of a result much larger than the page: its positions kept while reading them (no bitmap of all).
    if ((offset + limit) * TOP_K_SHARE < positions.length)
      return firstPositions(positions, offset + limit, descending)
        .slice(offset)
        .map((position) => order[position]);
    const sorted = new RoaringBitmap32(positions);
    const out: number[] = [];
    const n = sorted.size;
    for (let k = offset; k < n && out.length < limit; k++) out.push(order[sorted.select(descending ? n - 1 - k : k)!]);
    return out;
  }

  /**
   * The ids of a bitmap by lowest price (cents), ascending or descending; ids without a price come last either way
   * (as Postgres' NULLS LAST). Read like namePage: a large result walks the price order, a small one is ordered through
   * its members' positions in it.
   */
  pricePage(bitmap: Bitmap, offset: number, limit: number, descending: boolean): number[] {
    if (offset >= bitmap.size || limit <= 0) return [];
    const { order, positions: positionOf, priced } = this.priceOrder();
    const n = order.length;
    // The k-th id of the whole order in the requested direction: the priced head reversed when descending.
    const at = (k: number) => (descending && k < priced ? priced - 1 - k : k);
    const out: number[] = [];
    if (bitmap.size * 8 > this.all.size) {
      let seen = 0;
      for (let k = 0; k < n && out.length < limit; k++) {
        const id = order[at(k)];
        if (!bitmap.has(id)) continue;
        if (seen++ >= offset) out.push(id);
      }
      return out;
    }
    // The members' positions replace their ids in the shared buffer (read synchronously here).
    const positions = this.ids(bitmap).subarray(0, bitmap.size);
    let pricedMembers = 0;
    for (let k = 0; k < positions.length; k++) {
      const position = positionOf[positions[k]];
      positions[k] = position;
      if (position < priced) pricedMembers++;
    }
    const sorted = new RoaringBitmap32(positions);
    const m = sorted.size;
    for (let k = offset; k < m && out.length < limit; k++) {
      const rank = descending && k < pricedMembers ? pricedMembers - 1 - k : k;
      out.push(order[sorted.select(rank)!]);
    }
    return out;
  }

  /**
   * The lowest and highest price of a bitmap's members, read from the ends of the price order: the first member met
   * from either end holds the bound, so a large result is answered after a few steps instead of a pass over its ids.
   * Null when the walk would be long (a small result, or one whose prices cluster) or the price order is not computed
   * now (after a change; computing it here would block the event loop for seconds at 5M): the caller then reads the ids.
   */
  priceRangeByOrder(bitmap: Bitmap, maxSteps: number): { min: number | null; max: number | null } | null {
    const ordering = this.priceOrdering;
    if (!ordering) return null;
    const { order, priced } = ordering;
    const price = this.price;
    let low = -1;
    for (let k = 0; k < priced && k < maxSteps; k++)
      if (bitmap.has(order[k])) {
        low = k;
        break;
      }
    if (low < 0) return priced <= maxSteps ? { min: null, max: null } : null;
    let high = -1;
    for (let k = priced - 1, steps = 0; k >= low && steps < maxSteps; k--, steps++)
      if (bitmap.has(order[k])) {
        high = k;
        break;
      }
    if (high < 0) return null;
    return { min: price[order[low]], max: price[order[high]] };
  }

  /**
   * The lowest and highest price of a bitmap's members whose combinations (brand, leaf, class) are the first `count`
   * of `touched`, holding `members[t]` members each – every combination holding a member, as the combination counts
   * found: per combination, the first member met from either end of the combination's own price order. A result's
   * prices cluster in the whole price order (a word or a class names products of a price band: a walk along the whole
   * order met its first member only after most of the catalogue), much less within one combination. The combinations
   * where members are dense are walked first; a walk stops where the combination's prices can no longer beat the bound
   * found so far. Null when the price order is not computed now (after a change) or the walks would test more than
   * maxSteps members: the caller then reads the ids' prices.
   */
  priceRangeByCombos(
    bitmap: Bitmap,
    touched: Int32Array,
    members: Int32Array,
    count: number,
    maxSteps: number,
  ): { min: number | null; max: number | null } | null {
    const ordering = this.priceOrdering;
    if (!ordering) return null;
    const { ids, start, priced } = ordering.byCombo;
    const price = this.price;
    let min = Infinity;
    let max = -Infinity;
    let steps = 0;
    // Dense combinations first (a member within the first DENSE_WALK ids expected), then the others.
    for (let pass = 0; pass < 2; pass++)
      for (let t = 0; t < count; t++) {
        const c = touched[t];
        const first = start[c];
        const end = first + priced[c]; // the combination's priced ids: [first, end)
        if (members[t] * DENSE_WALK >= end - first !== (pass === 0)) continue;
        for (let k = first; k < end && price[ids[k]] < min; k++) {
          if (++steps > maxSteps) return null;
          if (bitmap.has(ids[k])) {
            min = price[ids[k]];
            break;
          }
        }
        for (let k = end - 1; k >= first && price[ids[k]] > max; k--) {
          if (++steps > maxSteps) return null;
          if (bitmap.has(ids[k])) {
            max = price[ids[k]];
            break;
          }
        }
      }
    return min === Infinity ? { min: null, max: null } : { min, max };
  }

  private priceOrder() {
    if (!this.priceOrdering) {
      const { order, positions, valued } = orderBy(this.price, this.all.toUint32Array(), this.rank.length);
      const byCombo = groupByCombo(order, valued, this.comboOf, this.combos.length);
      this.priceOrdering = { order, positions, priced: valued, byCombo };
    }
    return this.priceOrdering;
  }

  private nameOrder(): Uint32Array {
    if (!this.namePermutation) {
      const { order, positions } = orderBy(this.nameRank, this.all.toUint32Array(), this.rank.length);
      this.namePermutation = order;
      this.namePositions = positions;
    }
    return this.namePermutation;
  }
}

/**
 * The ids ordered by a column (ascending value, ties by id; ids whose value is NaN last, by id), each id's position
 * in that order, and how many have a value. Sorted as numbers, without a comparison function (a 1M sort with one
 * took over a second on the event loop): value and the id's place in the ascending id list packed into one exactly
 * representable double when the values are whole numbers whose range fits, else the general sort. Plain loops, not
 * TypedArray.from with a mapping function or filter callbacks: at 5M products those took seconds each (measured).
 */
function orderBy(
  column: Float64Array,
  ids: Uint32Array,
  size: number,
): { order: Uint32Array; positions: Uint32Array; valued: number } {
  const n = ids.length;
  const order = new Uint32Array(n);
  let valued = 0;
  let min = Infinity;
  let max = -Infinity;
  let whole = true;
  for (let k = 0; k < n; k++) {
    const v = column[ids[k]];
    if (Number.isNaN(v)) continue;
    order[valued++] = ids[k];
    if (v < min) min = v;
    if (v > max) max = v;
    if (whole && !Number.isInteger(v)) whole = false;
  }
  // NaN ids after the valued ones, in id order.
  let tail = valued;
  for (let k = 0; k < n; k++) if (Number.isNaN(column[ids[k]])) order[tail++] = ids[k];
  const span = 2 ** Math.max(1, Math.ceil(Math.log2(valued + 1)));
  if (whole && (valued === 0 || (max - min + 1) * span <= 2 ** 53)) {
    const keys = new Float64Array(valued);
    for (let k = 0; k < valued; k++) keys[k] = (column[order[k]] - min) * span + k;
    keys.sort();
    const valuedIds = order.slice(0, valued);
    for (let k = 0; k < valued; k++) order[k] = valuedIds[keys[k] % span];
  } else {
    const sorted = Array.from(order.subarray(0, valued)).sort((a, b) => column[a] - column[b] || a - b);
    order.set(sorted);
  }
  const positions = new Uint32Array(size);
  for (let k = 0; k < n; k++) positions[order[k]] = k;
  return { order, positions, valued };
}

/**
 * Every slot's summary over the ids of a class (null: none of them has a value in the slot): one pass over the ids
 * groups each slot's members by value (the ids ascending, so each group is a sorted list), then a bitmap per value.
 */
function slotSummaries(values: Float32Array, ids: Uint32Array, n: number): (SlotSummary | null)[] {
  const groups = Array.from({ length: SLOTS }, () => new Map<number, number[]>());
  for (let k = 0; k < n; k++) {
    const id = ids[k];
    const base = id * SLOTS;
    for (let s = 0; s < SLOTS; s++) {
      const v = values[base + s];
      if (v !== v) continue; // NaN: no value
      const group = groups[s].get(v);
      if (group) group.push(id);
      else groups[s].set(v, [id]);
    }
  }
  return groups.map((byValue) => {
    if (!byValue.size) return null;
    const exact = Array.from(Float64Array.from(byValue.keys()).sort());
    const holders = exact.map((v) => new RoaringBitmap32(byValue.get(v)!));
    const counts = new Map<number, number>();
    exact.forEach((v, k) => {
      const r = Math.round(v);
      counts.set(r, (counts.get(r) ?? 0) + holders[k].size);
    });
    const last = exact.length - 1;
    return {
      values: counts,
      min: exact[0],
      max: exact[last],
      atMin: holders[0],
      atMax: holders[last],
      exact,
      holders,
    };
  });
}

/** The first position in an ascending list whose value is not below v. */
function lowerBound(list: number[], v: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The bounds of a slot summary from its first and last value. */
function setBounds(slot: SlotSummary) {
  const last = slot.exact.length - 1;
  slot.min = slot.exact[0];
  slot.max = slot.exact[last];
  slot.atMin = slot.holders[0];
  slot.atMax = slot.holders[last];
}

/** Puts a product that joins a class (its slots already written) into the class's summary. */
function addToSummary(summary: ClassSummary, id: number, values: Float32Array) {
  summary.members++;
  for (let s = 0; s < SLOTS; s++) {
    const v = values[id * SLOTS + s];
    if (v !== v) continue; // NaN: no value
    let slot = summary.slots[s];
    if (!slot) {
      const none = new RoaringBitmap32();
      slot = { values: new Map(), min: v, max: v, atMin: none, atMax: none, exact: [], holders: [] };
      summary.slots[s] = slot;
    }
    const k = lowerBound(slot.exact, v);
    if (slot.exact[k] !== v) {
      slot.exact.splice(k, 0, v);
      slot.holders.splice(k, 0, new RoaringBitmap32());
    }
    slot.holders[k].add(id);
    const r = Math.round(v);
    slot.values.set(r, (slot.values.get(r) ?? 0) + 1);
    setBounds(slot);
  }
}

/** Takes a product that leaves a class (its slots not yet cleared) out of the class's summary. */
function removeFromSummary(summary: ClassSummary, id: number, values: Float32Array) {
  summary.members--;
  for (let s = 0; s < SLOTS; s++) {
    const v = values[id * SLOTS + s];
    const slot = summary.slots[s];
    if (v !== v || !slot) continue; // NaN: no value
    const k = lowerBound(slot.exact, v);
    if (slot.exact[k] !== v) continue; // not in the summary (cannot happen while it follows every change)
    slot.holders[k].remove(id);
    const r = Math.round(v);
    const n = (slot.values.get(r) ?? 1) - 1;
    if (n > 0) slot.values.set(r, n);
    else slot.values.delete(r);
    if (slot.holders[k].size) continue;
    slot.exact.splice(k, 1);
    slot.holders.splice(k, 1);
    if (slot.exact.length) setBounds(slot);
    else summary.slots[s] = null;
  }
}

/** A combination of this many ids per member of a result is walked first (priceRangeByCombos). */
const DENSE_WALK = 64;

/** The ids in price order, each id's position in it, the priced count, and the same order per combination. */
interface PriceOrdering {
  order: Uint32Array;
  positions: Uint32Array;
  priced: number;
  byCombo: ComboPriceOrders;
}

/**
 * The price order grouped by combination of brand, leaf and class: combination c's ids in price order at
 * ids[start[c]] … ids[start[c + 1] - 1], its priced ones first (priced[c] of them; the unpriced after them).
 */
interface ComboPriceOrders {
  ids: Uint32Array;
  start: Int32Array;
  priced: Int32Array;
}

/** The price order grouped by combination (a stable counting sort: each combination's ids stay in price order). */
function groupByCombo(
  order: Uint32Array,
  priced: number,
  comboOf: Uint16Array | Int32Array,
  combos: number,
): ComboPriceOrders {
  const none = comboOf instanceof Uint16Array ? NO_COMBO : -1;
  const start = new Int32Array(combos + 1);
  for (let k = 0; k < order.length; k++) {
    const c = comboOf[order[k]];
    if (c !== none) start[c + 1]++;
  }
  for (let c = 0; c < combos; c++) start[c + 1] += start[c];
  const next = start.slice(0, combos);
  const pricedOf = new Int32Array(combos);
  const ids = new Uint32Array(start[combos]);
  for (let k = 0; k < order.length; k++) {
    const id = order[k];
    const c = comboOf[id];
    if (c === none) continue;
    ids[next[c]++] = id;
    if (k < priced) pricedOf[c]++;
  }
  return { ids, start, priced: pricedOf };
}

/** A page is taken by top-k (bestByRank) when the result holds at least this many times the ids up to its end. */
const TOP_K_SHARE = 16;

/** The `k` ids of lowest rank (ties by id), in that order. */
function bestByRank(ids: Uint32Array, rank: Float64Array, k: number): number[] {
  return firstK(ids, k, (a, b) => rank[a] < rank[b] || (rank[a] === rank[b] && a < b));
}

/** The `k` smallest (descending: largest) of distinct numbers, in that order. */
function firstPositions(values: Uint32Array, k: number, descending: boolean): number[] {
  return firstK(values, k, descending ? (a, b) => a > b : (a, b) => a < b);
}

/**
 * The first `k` of the values in the order `before` (a strict total order), in that order: a sorted list of the first so
 * far, most values rejected by one comparison with its last.
 */
function firstK(values: Uint32Array, k: number, before: (a: number, b: number) => boolean): number[] {
  const first: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (first.length === k && !before(value, first[k - 1])) continue;
    let lo = 0;
    let hi = first.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(first[mid], value)) lo = mid + 1;
      else hi = mid;
    }
    first.splice(lo, 0, value);
    if (first.length > k) first.pop();
  }
  return first;
}

/** An operand of an evaluation: `own` – made by it (may be changed and freed); else read-only (a posting, a kept union). */
interface Operand {
  bitmap: Bitmap;
  own: boolean;
}
const own = (bitmap: Bitmap): Operand => ({ bitmap, own: true });
const shared = (bitmap: Bitmap): Operand => ({ bitmap, own: false });
/** An operand as a bitmap its caller may change: a read-only one copied. */
const fresh = (operand: Operand): Bitmap => (operand.own ? operand.bitmap : operand.bitmap.clone());
/**
 * Frees an own operand's native memory now: roaring reports its allocations to V8 as external memory, so large
 * temporaries left to the garbage collector make it run more often.
 */
function release(operand: Operand) {
  if (operand.own) operand.bitmap.dispose();
}

/**
 * AND or OR of two operands, into one that is own (changed in place, the other freed) or into a new bitmap when both
 * are read-only. Always an own operand.
 */
function combine(left: Operand, right: Operand, op: 'and' | 'or'): Operand {
  const into = (target: Bitmap, other: Bitmap) => (op === 'and' ? target.andInPlace(other) : target.orInPlace(other));
  if (left.own) {
    into(left.bitmap, right.bitmap);
    release(right);
    return left;
  }
  if (right.own) {
    into(right.bitmap, left.bitmap);
    return right;
  }
  return own(
    op === 'and' ? RoaringBitmap32.and(left.bitmap, right.bitmap) : RoaringBitmap32.or(left.bitmap, right.bitmap),
  );
}

/** A parsed tsquery as text, unambiguous (the key of a kept word union). */
function tsText(node: TsNode): string {
  switch (node.op) {
    case 'lexeme':
      return `'${node.lexeme.replace(/'/g, "''")}':${node.prefix ? '*' : ''}${node.weights}`;
    case 'not':
      return `!(${tsText(node.arg)})`;
    default:
      return `(${tsText(node.left)} ${node.op === 'and' ? '&' : node.op === 'or' ? '|' : '<->'} ${tsText(node.right)})`;
  }
}
