/**
 * The word bitmaps kept across searches (like Lucene's filter cache): per word of a query the union of its postings –
 * a prefix's lexemes, several weights ('ventil:*' is the union of every lexeme starting with 'ventil' in A, B, C and
 * D), a word with its typo alternatives ('(kupfer | kupfe)'). Distinct queries share words, so a word merged for one
 * search is read by the next one that has it. Only these unions are kept, never a query's or a page's result.
 *
 * Exact: valid for one state of one index. The index's change count is given with every use (at()); when it moved
 * (the change feed applied rows) everything kept is dropped. A kept bitmap is frozen: nothing changes it in place,
 * and a search that still holds it after it was dropped or evicted keeps reading the state it was made from.
 *
 * Bounded by bytes (least recently used dropped first). An evicted bitmap is not freed here (dispose()): a running
 * evaluation may still read it; roaring reports its memory to V8, which frees it with its last reference.
 */
import { LRUCache } from 'lru-cache';
import type roaring from 'roaring';

type Bitmap = InstanceType<typeof roaring.RoaringBitmap32>;

/** Bytes of word bitmaps kept per index: at 5M products a frequent word's union of all weights is ≈ 600 KB. */
export const WORD_BITMAPS_MAX_BYTES = 64 * 1024 * 1024;

/** Per kept bitmap besides its containers (the JS object, the native header, the key). */
const ENTRY_OVERHEAD_BYTES = 128;

export class WordBitmaps {
  private readonly kept: LRUCache<string, Bitmap>;
  /** The index's change count the kept bitmaps belong to. */
  private changes = -1;
  /** Unions answered from memory and unions made and kept (tests, bench). */
  hits = 0;
  made = 0;

  constructor(maxBytes = WORD_BITMAPS_MAX_BYTES) {
    this.kept = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (bitmap, key) =>
        bitmap.getSerializationSizeInBytes('croaring') + key.length + ENTRY_OVERHEAD_BYTES,
    });
  }

  /** The bitmaps kept for the index at change count `changes`: all of them dropped when the index changed since. */
  at(changes: number): this {
    if (changes !== this.changes) {
      this.kept.clear();
      this.changes = changes;
    }
    return this;
  }

  /** Drops every kept union and the counts (after the index's warm-up: nothing it merged stays for the searches). */
  clear(): void {
    this.kept.clear();
    this.hits = 0;
    this.made = 0;
  }

  get(key: string): Bitmap | undefined {
    const bitmap = this.kept.get(key);
    if (bitmap) this.hits++;
    return bitmap;
  }

  /** Keeps a union made for the current state (frozen from now on) and returns it. */
  keep(key: string, bitmap: Bitmap): Bitmap {
    bitmap.freeze();
    this.made++;
    this.kept.set(key, bitmap);
    return bitmap;
  }

  /** Unions kept now. */
  get size(): number {
    return this.kept.size;
  }

  /** Bytes of the kept unions (as counted for the bound). */
  get bytes(): number {
    return this.kept.calculatedSize;
  }
}
