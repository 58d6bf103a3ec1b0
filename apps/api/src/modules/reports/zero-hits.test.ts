/**
 * The zero-hit log writes the searches without hits of half a second in one statement, each with the time it was
 * asked; a batch Postgres refuses is written row by row; flush (the app's close) writes what is waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { ZeroHitLog } from './zero-hits.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const rowsOf = async (prefix: string) =>
  (
    await t.pool.query<{ term: string; bp_number: string | null; created_at: Date; xmin: string }>(
      'SELECT term, bp_number, created_at, xmin::text FROM search_zero_hits WHERE term LIKE $1 ORDER BY term',
      [`${prefix}%`],
    )
  ).rows;

describe('zero-hit log', () => {
  it('writes the searches without hits of one moment in one statement, each with its own time', async () => {
    const before = Date.now();
    // A search first: the index is built, so the three searches below end close together.
    await t.request('POST', '/v1/Product/Search', {
      as: 'einkauf@example.com',
      body: { searchTerm: 'Ventil', page: 1, pageSize: 25 },
    });
    const terms = ['Qzxbatch eins', 'Qzxbatch zwei', 'Qzxbatch drei'];
    const answers = await Promise.all(
      terms.map((searchTerm) =>
        t.request('POST', '/v1/Product/Search', {
          as: 'einkauf@example.com',
          body: { searchTerm, page: 1, pageSize: 25 },
        }),
      ),
    );
    for (const r of answers) expect(r.body.hitCount).toBe(0);
    const rows = await eventually(async () => {
      const found = await rowsOf('Qzxbatch');
      return found.length === 3 && found;
    });
    expect(rows.map((r) => r.term)).toEqual(['Qzxbatch drei', 'Qzxbatch eins', 'Qzxbatch zwei']);
    expect(rows.every((r) => r.bp_number === '100001' && r.created_at.getTime() >= before - 1000)).toBe(true);
    // One statement (the search pool is the catalogue's own): the rows of one transaction.
    expect(new Set(rows.map((r) => r.xmin)).size).toBe(1);
  });

  it('flush writes what is waiting; a refused batch is written row by row', async () => {
    const warnings: unknown[] = [];
    const log = new ZeroHitLog(() => t.pool, { warn: (obj) => warnings.push(obj) });
    const result = (searchTerm: string) => ({ hitCount: 0, searchTerm });
    log.record(result('Qzxflush gut'), { userId: null, bpNumber: '100001' });
    // A user that does not exist (removed meanwhile): its row is refused, the other one is written.
    log.record(result('Qzxflush weg'), { userId: '00000000-0000-0000-0000-000000000000', bpNumber: null });
    log.record({ hitCount: 3, searchTerm: 'Qzxflush mit Treffern' }, { userId: null });
    await log.flush();
    expect((await rowsOf('Qzxflush')).map((r) => r.term)).toEqual(['Qzxflush gut']);
    expect(warnings).toHaveLength(1);
  });
});
