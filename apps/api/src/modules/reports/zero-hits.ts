import type { Queryable } from '../../db/queryable.ts';
import { insertZeroHitSearches, type ZeroHitSearch } from './reports.repo.ts';

/** How long a search without hits waits for others to be written with it, at most. */
const FLUSH_MS = 500;
/** A batch this large is written at once. */
const MAX_BATCH = 200;

type Log = { warn: (obj: object, msg: string) => void };

/**
 * The log of product searches without hits for the report 'Suchbegriffe ohne Treffer'. Fire and forget: the search
 * answer never waits for or fails because of the log. The searches of half a second are written together in one
 * statement (one round trip instead of one per search), each with the time it was asked; the process's close
 * writes what is waiting. A crash loses at most the last half second's entries (docs/catalogue-search.md); a batch
 * Postgres refuses is written row by row, so one bad row (a user removed meanwhile) loses only itself.
 */
export class ZeroHitLog {
  private waiting: ZeroHitSearch[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: () => Queryable,
    private readonly log?: Log,
  ) {}

  /** Notes a search's result: kept when it has no hits and a term. */
  record(
    result: { hitCount: number; searchTerm: string; filterUsed?: unknown[] },
    caller: { userId?: string | null; bpNumber?: string | null },
  ): void {
    const term = result.searchTerm?.trim();
    if (result.hitCount > 0 || !term) return;
    // The filters as the search normalised them (filterUsed), so the report shows what was asked.
    this.waiting.push({
      term: term.slice(0, 200),
      userId: caller.userId ?? null,
      bpNumber: caller.bpNumber ?? null,
      filters: result.filterUsed ?? [],
      at: new Date(),
    });
    if (this.waiting.length >= MAX_BATCH) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes what is waiting (one batch after the other); resolves when it is written or given up. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length) this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  private async write(batch: ZeroHitSearch[]): Promise<void> {
    try {
      await insertZeroHitSearches(this.pool(), batch);
    } catch (err) {
      if (batch.length === 1) {
        this.log?.warn({ err }, 'zero-hit search not logged');
        return;
      }
      for (const search of batch) await this.write([search]);
    }
  }
}
