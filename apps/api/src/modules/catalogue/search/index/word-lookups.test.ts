/**
 * The dictionary lookups asked in one turn of the event loop go to Postgres as one statement, and each answer is what
 * its statement of its own gives: the words' normalisation, their one-edit neighbours, each search's article numbers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test/support/test-app.ts';
import { recordStatements } from '../../../../../test/support/statements.ts';
import { oneEditNeighbours } from '../query-analyser.ts';
import { codeMatches } from '../search.repo.ts';
import { normaliseQueryTexts } from './search-index.repo.ts';
import { WordLookups } from './word-lookups.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** codeMatches' rows as the analyser reads them: ids per code. */
async function codesAlone(codes: string[]): Promise<Map<string, number[]>> {
  const byCode = new Map<string, number[]>();
  for (const r of await codeMatches(t.pool, codes)) byCode.set(r.code, [...(byCode.get(r.code) ?? []), r.id]);
  return byCode;
}

describe('word lookups', () => {
  it('answers the lookups of one turn in one statement, each as its own statement does', async () => {
    const { rows } = await t.pool.query<{ gtin: string; m: string; s: string }>(
      `SELECT p.gtin, p.manufacturer_pid_norm AS m, o.supplier_pid_norm AS s
         FROM products p JOIN product_offers o ON o.product_no = p.id
        WHERE p.gtin IS NOT NULL ORDER BY p.id LIMIT 2`,
    );
    const groups = [[rows[0].gtin, rows[0].m, 'X0000NIX'], [rows[1].s], ['0000000']];
    const words = ['thermostat', 'und', 'heizkorperventile', 'dn15'];
    const typos = ['thermostt', 'kugelhan', 'bogen'];
    const normalised: Map<string, string>[] = [];
    const lookups = new WordLookups(
      () => t.pool,
      (tokens) => normalised.push(tokens),
    );
    const recorder = recordStatements(t.pool);
    let answers;
    try {
      answers = await Promise.all([
        lookups.normalise(words),
        lookups.neighbours(typos),
        ...groups.map((codes) => lookups.codes(codes)),
      ]);
    } finally {
      recorder.stop();
    }
    expect(recorder.texts).toHaveLength(1);
    const [queries, neighbours, ...codes] = answers as [
      string[],
      Awaited<ReturnType<WordLookups['neighbours']>>,
      ...Map<string, number[]>[],
    ];
    expect(queries).toEqual((await normaliseQueryTexts(t.pool, words, [])).queries);
    expect(neighbours.neighbours).toEqual(await oneEditNeighbours(t.pool, typos));
    expect(neighbours.neighbours.size).toBeGreaterThan(0);
    const spellings = await t.pool.query<{ folded: string; term: string }>(
      'SELECT folded, term FROM search_terms WHERE folded = ANY($1::text[])',
      [[...neighbours.spellings.keys()]],
    );
    expect(neighbours.spellings).toEqual(new Map(spellings.rows.map((r) => [r.folded, r.term])));
    for (const [g, group] of groups.entries()) expect(codes[g], group.join()).toEqual(await codesAlone(group));
    expect(codes[0].size).toBe(2);
    expect(codes[2].size).toBe(0);
    // The neighbours' tokens came normalised with them, as Postgres normalises each alone.
    const tokens = new Map(normalised.flatMap((m) => [...m]));
    const alone = (await normaliseQueryTexts(t.pool, [...tokens.keys()], [])).queries;
    expect([...tokens.values()]).toEqual(alone);
  });
});
