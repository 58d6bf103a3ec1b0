/**
 * Typo tolerance: one edit in a word of ≥ 5 letters → the intended product on page one
 * in ≥ 95 % of a generated sample, 4-letter words ≥ 80 %; exact matches rank above typo matches;
 * GTINs and article numbers are never expanded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.ts';
import { oneEditApart } from './query-analyser.ts';
import { applyEdit, EDIT_KINDS, recallTable, seededRandom, typoCases } from './typo-sample.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const buyer = 'einkauf@example.com';
const ok = async (body: Record<string, unknown>) => {
  const res = await t.request('POST', '/v1/Product/Search', { as: buyer, body: { page: 1, pageSize: 25, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const sql = async <T = any>(text: string, params: unknown[] = []) => (await t.pool.query(text, params)).rows as T[];

describe('one edit', () => {
  it('oneEditApart knows insertion, deletion, substitution and transposition of neighbours', () => {
    expect(oneEditApart('ventil', 'ventiel')).toBe(true);
    expect(oneEditApart('ventil', 'vntil')).toBe(true);
    expect(oneEditApart('ventil', 'wentil')).toBe(true);
    expect(oneEditApart('ventil', 'evntil')).toBe(true);
    expect(oneEditApart('ventil', 'ventli')).toBe(true);
    expect(oneEditApart('ventil', 'ventil')).toBe(false);
    expect(oneEditApart('ventil', 'vnetli')).toBe(false);
    expect(oneEditApart('ventil', 'tilven')).toBe(false);
  });

  it('the sample generator is seeded and makes exactly one edit of each kind', () => {
    const r1 = seededRandom(5);
    const r2 = seededRandom(5);
    for (const kind of EDIT_KINDS) {
      const a = applyEdit('Thermostatventil', kind, r1);
      expect(a).toBe(applyEdit('Thermostatventil', kind, r2));
      expect(oneEditApart('thermostatventil', a), `${kind}: ${a}`).toBe(true);
    }
  });
});

describe('typo recall over a generated sample of the test catalogue', () => {
  it('≥ 95 % for words of 5+ letters, ≥ 80 % for 4-letter words (intended product on page one)', async () => {
    const products = await sql<{ productId: string; name: string; series: string | null }>(
      'SELECT product_id AS "productId", product_name AS name, series FROM products ORDER BY id',
    );
    const cases = typoCases(products, { seed: 13, size: 100 });
    const results: { c: (typeof cases)[number]; found: boolean }[] = [];
    const missed: string[] = [];
    const pageOne = async (searchTerm: string) => (await ok({ searchTerm })).hits.map((h: any) => h.productId);
    for (const c of cases) {
      // Only cases whose exact words put the product on page one measure the typo.
      if (!(await pageOne(c.exact)).includes(c.productId)) continue;
      const found = (await pageOne(c.typo)).includes(c.productId);
      if (!found) missed.push(`${c.kind}: ${c.typo} (${c.word})`);
      results.push({ c, found });
    }
    const table = recallTable(results);
    const row = (key: string) => table.find((r) => r.key === key)!;
    expect(row('long all').cases).toBeGreaterThanOrEqual(80);
    expect(row('short all').cases).toBeGreaterThanOrEqual(60);
    for (const kind of EDIT_KINDS) expect(row(`long ${kind}`).cases).toBeGreaterThanOrEqual(15);
    expect(row('long all').recall, missed.join('\n')).toBeGreaterThanOrEqual(0.95);
    expect(row('short all').recall, missed.join('\n')).toBeGreaterThanOrEqual(0.8);
  }, 600_000); // about 400 searches: minutes on a loaded machine (the default is 30 s)

  it('typos in the first letters and inside compounds', async () => {
    for (const [typo, word] of [
      ['Hteizkörperverschraubung', 'Heizkörperverschraubung'],
      ['Thermostatvnetil', 'Thermostatventil'],
      ['Presfitting', 'Pressfitting'],
      ['Kugelhan', 'Kugelhahn'],
      ['Zirkulatoinspumpe', 'Zirkulationspumpe'],
    ]) {
      const body = await ok({ searchTerm: typo });
      expect(body.hitCount, typo).toBeGreaterThan(0);
      // Products with the word in their name first (others have it as their category).
      expect(
        body.hits.slice(0, 5).every((h: any) => h.rows.artikelbeschreibung.toLowerCase().includes(word.toLowerCase())),
        typo,
      ).toBe(true);
    }
  });
});

describe('typos inside one part of a hyphenated word or a compound', () => {
  const names = (body: any) => body.hits.map((h: any) => h.productId);

  // A transposition (Damerau: one edit) or a dropped letter in one part; the catalogue has the words only whole
  // ('Brennwert-Kombitherme'), so the part is found through the parts of the hyphenated words.
  it.each([
    ['Brennwert-Kombitehrme', 'Brennwert-Kombitherme'],
    ['Selbstsclhuss-Waschtischarmatur', 'Selbstschluss-Waschtischarmatur'],
    ['Stnad-WC', 'Stand-WC'],
    ['KG-Bgoen', 'KG-Bogen'],
    ['KG-Bogn', 'KG-Bogen'],
    ['Kombitehrme', 'Kombitherme'],
    // An edit in a part of two letters or across the hyphen: one edit away from the hyphenated word as a whole.
    ['HA-Muffe', 'HT-Muffe'],
    ['Stan-dWC', 'Stand-WC'],
    ['Tiefspülw-C', 'Tiefspül-WC'],
    ['Wand-Tiefspül-C', 'Wand-Tiefspül-WC'],
    // An edit in a short part whose own correction finds nothing with the rest ('Alo' → 'Aero'): the whole word is
    // the nearer reading.
    ['Alo-Verbundrohr', 'Alu-Verbundrohr'],
  ])("'%s' gives the results of '%s' and names the word as typed", async (typo, word) => {
    const right = await ok({ searchTerm: word, pageSize: 100 });
    expect(right.hitCount, word).toBeGreaterThan(0);
    expect(right.correctedTerms).toEqual([]);
    const typed = await ok({ searchTerm: typo, pageSize: 100 });
    expect(typed.hitCount, typo).toBe(right.hitCount);
    expect(names(typed)).toEqual(names(right));
    expect(typed.correctedTerms).toEqual([{ from: typo, to: [word] }]);
    expect(typed.searchTerm).toBe(typo);
  });

  it('the other words of the query stay as typed', async () => {
    const right = await ok({ searchTerm: 'Gas Brennwert-Kombitherme', pageSize: 100 });
    expect(right.hitCount).toBeGreaterThan(0);
    const typed = await ok({ searchTerm: 'Gas Brennwert-Kombitehrme', pageSize: 100 });
    expect(names(typed)).toEqual(names(right));
    expect(typed.correctedTerms).toEqual([{ from: 'Brennwert-Kombitehrme', to: ['Brennwert-Kombitherme'] }]);
  });

  it('correct hyphenated words (also with a piece of one letter) and article numbers with hyphens are not corrected', async () => {
    const [p] = await sql<{ manufacturer_pid: string }>(
      `SELECT manufacturer_pid FROM products WHERE manufacturer_pid ~ '-' ORDER BY id LIMIT 1`,
    );
    for (const term of [
      'Stand-WC',
      'Wand-Tiefspül-WC',
      'KG-Bogen',
      'T-Stück',
      'U-Kontur',
      'V-Kontur',
      p.manufacturer_pid,
    ]) {
      const body = await ok({ searchTerm: term });
      expect(body.hitCount, term).toBeGreaterThan(0);
      expect(body.correctedTerms, term).toEqual([]);
    }
  });
});

describe('ranking and limits', () => {
  it('exact matches rank above typo matches (a word that exists and has neighbours one edit away)', async () => {
    // A catalogue word of ≥ 5 letters with a neighbour one edit away that is also a catalogue word.
    const pairs = await sql<{ a: string; b: string }>(
      `SELECT a.folded AS a, b.folded AS b FROM search_terms a JOIN search_terms b
          ON b.deletes && (a.deletes || a.folded) AND a.folded <> b.folded
        WHERE a.folded ~ '^[a-z]{5,}$' AND b.folded ~ '^[a-z]{5,}$' AND a.doc_count > 0 AND b.doc_count > 0
        ORDER BY a.doc_count DESC, a.folded, b.doc_count DESC, b.folded`,
    );
    // Not a plural of the other ('kupferrohr' / 'kupferrohre' share their stem): 'amrum' / 'aurum'.
    const pair = pairs.find((p) => oneEditApart(p.a, p.b) && !p.a.startsWith(p.b) && !p.b.startsWith(p.a));
    expect(pair, JSON.stringify(pairs.slice(0, 5))).toBeDefined();
    const hits: any[] = [];
    for (let page = 1; page <= 4; page++) hits.push(...(await ok({ searchTerm: pair!.a, page, pageSize: 100 })).hits);
    const exact = await sql<{ product_id: string }>(
      `SELECT p.product_id FROM products p JOIN product_search s USING (id)
        WHERE p.product_id = ANY($1) AND s.vec @@ to_tsquery('german_unaccent', $2)`,
      [hits.map((h) => h.productId), pair!.a],
    );
    const isExact = new Set(exact.map((r) => r.product_id));
    const flags = hits.map((h) => isExact.has(h.productId));
    expect(flags.includes(true)).toBe(true);
    expect(flags.includes(false), `no typo match for ${pair!.a} / ${pair!.b}`).toBe(true);
    // All exact matches first, then the typo matches.
    expect(flags.indexOf(false)).toBe(flags.lastIndexOf(true) + 1);
  });

  it('GTINs, article numbers and words with digits are not expanded by typo tolerance', async () => {
    const [p] = await sql<{ product_id: string; gtin: string; manufacturer_pid: string }>(
      `SELECT product_id, gtin, manufacturer_pid FROM products WHERE gtin IS NOT NULL ORDER BY id LIMIT 1 OFFSET 100`,
    );
    const exact = await ok({ searchTerm: p.gtin });
    expect(exact.hits[0].productId).toBe(p.product_id);
    // One digit changed / two neighbours swapped: another number, not a typo of this one.
    const last = p.gtin.at(-1)!;
    const changed = `${p.gtin.slice(0, -1)}${last === '9' ? '0' : String(Number(last) + 1)}`;
    const swapped = `${p.gtin.slice(0, 5)}${p.gtin[6]}${p.gtin[5]}${p.gtin.slice(7)}`;
    for (const term of [changed, swapped]) {
      if (term === p.gtin) continue;
      const body = await ok({ searchTerm: term });
      expect(
        body.hits.some((h: any) => h.productId === p.product_id),
        term,
      ).toBe(false);
      expect(body.correctedTerms).toEqual([]);
    }
    const pid = p.manufacturer_pid.replace(/[^0-9A-Za-z]/g, '');
    const wrongPid = `${pid.slice(0, -1)}${pid.at(-1) === '1' ? '2' : '1'}`;
    const body = await ok({ searchTerm: wrongPid });
    expect(body.hits.some((h: any) => h.productId === p.product_id)).toBe(false);
    expect(body.correctedTerms).toEqual([]);
  });
});
