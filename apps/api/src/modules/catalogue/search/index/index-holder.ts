/**
 * Owns the process's search index: builds it from Postgres on first use and builds it again when
 * the catalogue version changes (a catalogue load or import). Concurrent callers share one build.
 */
import type pg from 'pg';
import type { CatalogueMetaCache } from '../../catalogue-meta.ts';
import { SearchIndex } from './search-index.ts';

export class SearchIndexHolder {
  private current: { version: number; index: Promise<SearchIndex> } | null = null;
  /** Build time of the last build in ms (benchmarks, logs). */
  lastBuildMs = 0;

  constructor(
    private readonly pool: () => pg.Pool,
    private readonly meta: CatalogueMetaCache,
  ) {}

  async get(): Promise<SearchIndex> {
    const { version } = await this.meta.get();
    if (!this.current || this.current.version !== version) {
      const started = performance.now();
      const index = SearchIndex.build(this.pool()).then((built) => {
        this.lastBuildMs = performance.now() - started;
        return built;
      });
      // A failed build is not kept: the next request tries again.
      index.catch(() => {
        if (this.current?.index === index) this.current = null;
      });
      this.current = { version, index };
    }
    return this.current.index;
  }
}
