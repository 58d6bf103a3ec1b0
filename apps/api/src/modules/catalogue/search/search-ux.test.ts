/**
 * What a user of the search expects (sorting by price, a price slider that follows the result, a corrected word
 * that gives the corrected word's results, whole words above brand prefixes), on both engines: the in-process index
 * (default) and SQL per request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.ts';

const buyer = 'einkauf@example.com';
const seller = 'verkauf@example.com';

for (const engine of ['index', 'sql'] as const) {
  describe(`search as users expect it (${engine} engine)`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ env: { SEARCH_ENGINE: engine } });
    });
    afterAll(async () => {
      await t?.close();
    });

    const search = (body: Record<string, unknown>, as = buyer) => t.request('POST', '/v1/Product/Search', { as, body });
    const ok = async (body: Record<string, unknown>, as = buyer) => {
      const res = await search(body, as);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    const names = (body: any): string[] => body.hits.map((h: any) => h.rows.artikelbeschreibung);
    const option = (body: any, column: string) => body.filterOption.find((o: any) => o.columnName === column);
    /** The lowest net price per unit (cents) of each hit's product, as the price slider and filter use it. */
    const lowestPrices = async (body: any): Promise<(number | null)[]> => {
      const ids = body.hits.map((h: any) => h.rows.PRODUCTINSTANCE_ID);
      const { rows } = await t.pool.query<{ id: string; price: number | null }>(
        `SELECT o.product_instance_id AS id, sp.price_cents AS price
           FROM product_offers o LEFT JOIN product_search_prices sp ON sp.id = o.product_no
          WHERE o.product_instance_id = ANY($1::text[])`,
        [ids],
      );
      const byId = new Map(rows.map((r) => [r.id, r.price === null ? null : Number(r.price)]));
      return ids.map((id: string) => byId.get(id) ?? null);
    };
    const allHits = async (body: Record<string, unknown>) => {
      const first = await ok({ ...body, page: 1, pageSize: 100 });
      const hits = [...first.hits];
      for (let page = 2; page <= Math.min(first.pageCount, 20); page++)
        hits.push(...(await ok({ ...body, page, pageSize: 100 })).hits);
      return hits;
    };

    it('sorts by price ascending and descending (products without a price last), pages continue the order', async () => {
      const asc = await ok({ searchTerm: 'Heizkörper', sortColumn: 'mhk_handelsdaten_preis', sortOrder: 'asc' });
      expect(asc.sortColumn).toBe('mhk_handelsdaten_preis');
      expect(asc.hitCount).toBeGreaterThan(asc.hits.length);
      const ascPrices = await lowestPrices(asc);
      const priced = ascPrices.filter((p): p is number => p !== null);
      expect(priced.length).toBeGreaterThan(5);
      expect(priced).toEqual([...priced].sort((a, b) => a - b));
      // The first page starts at the lowest price of the whole result (the slider's minimum).
      expect(priced[0] * 1).toBe(Math.round(option(asc, 'mhk_handelsdaten_preis').sliderValues.minValue * 100));

      const desc = await ok({ searchTerm: 'Heizkörper', sortColumn: 'mhk_handelsdaten_preis', sortOrder: 'desc' });
      const descPrices = (await lowestPrices(desc)).filter((p): p is number => p !== null);
      expect(descPrices).toEqual([...descPrices].sort((a, b) => b - a));
      expect(descPrices[0]).toBe(Math.round(option(desc, 'mhk_handelsdaten_preis').sliderValues.maxValue * 100));

      const page2 = await ok({
        searchTerm: 'Heizkörper',
        sortColumn: 'mhk_handelsdaten_preis',
        sortOrder: 'asc',
        page: 2,
      });
      const page2Prices = (await lowestPrices(page2)).filter((p): p is number => p !== null);
      expect(page2Prices[0]).toBeGreaterThanOrEqual(priced[priced.length - 1]);

      // The whole catalogue (no term: the index walks its price order instead of sorting the result).
      const { rows: range } = await t.pool.query<{ lo: number; hi: number }>(
        `SELECT min(price_cents)::int AS lo, max(price_cents)::int AS hi FROM product_search_prices`,
      );
      for (const [order, edge] of [
        ['asc', range[0].lo],
        ['desc', range[0].hi],
      ] as const) {
        const page = await ok({ sortColumn: 'mhk_handelsdaten_preis', sortOrder: order });
        const prices = (await lowestPrices(page)).filter((p): p is number => p !== null);
        expect(prices[0]).toBe(edge);
        expect(prices).toEqual([...prices].sort((a, b) => (order === 'asc' ? a - b : b - a)));
      }

      // Every product without a price comes after every priced one. every product without a price comes after every priced one.
      const whole = await allHits({ sortColumn: 'mhk_handelsdaten_preis', sortOrder: 'desc', searchTerm: 'Ventil' });
      const wholePrices = await lowestPrices({ hits: whole });
      const firstUnpriced = wholePrices.indexOf(null);
      if (firstUnpriced >= 0) expect(wholePrices.slice(firstUnpriced).every((p) => p === null)).toBe(true);
      const wholePriced = wholePrices.filter((p): p is number => p !== null);
      expect(wholePriced).toEqual([...wholePriced].sort((a, b) => b - a));
    });

    it('refuses sorting by price to a seller (competitors’ prices), with a German title', async () => {
      const res = await search({ searchTerm: 'Ventil', sortColumn: 'mhk_handelsdaten_preis' }, seller);
      expect(res.status).toBe(400);
      expect(res.body.title).toBe('Die Sortierung nach Preis steht Verkäufern nicht zur Verfügung');
      expect((await search({ searchTerm: 'Ventil', sortColumn: 'preis' })).status).toBe(400);
    });

    it('the price slider follows the filtered result (term and facets), not the whole catalogue', async () => {
      const all = await ok({});
      const whole = option(all, 'mhk_handelsdaten_preis').sliderValues;
      const term = await ok({ searchTerm: 'Thermostatkopf' });
      const termRange = option(term, 'mhk_handelsdaten_preis').sliderValues;
      const brand = option(term, 'brandname').filterValue[0].value;
      const filtered = await ok({
        searchTerm: 'Thermostatkopf',
        filter: [{ columnName: 'brandname', filterType: 'Auswahl', filterValue: [{ value: brand }] }],
      });
      const range = option(filtered, 'mhk_handelsdaten_preis').sliderValues;
      const { rows } = await t.pool.query<{ lo: number; hi: number }>(
        `SELECT min(sp.price_cents)::int AS lo, max(sp.price_cents)::int AS hi
           FROM product_search s JOIN product_search_prices sp ON sp.id = s.id JOIN brands b ON b.brand_no = s.brand_no
          WHERE b.name = $1 AND s.vec @@ to_tsquery('german_unaccent', 'thermostatkopf:*')`,
        [brand],
      );
      expect(range).toEqual({ minValue: rows[0].lo / 100, maxValue: rows[0].hi / 100 });
      expect(range.maxValue - range.minValue).toBeLessThan(whole.maxValue - whole.minValue);
      expect(range.maxValue).toBeLessThanOrEqual(termRange.maxValue);
    });

    it("a corrected typo gives the corrected word's results and names the word as typed", async () => {
      const typed = await ok({ searchTerm: 'Thermostt', pageSize: 100 });
      const right = await ok({ searchTerm: 'Thermostat', pageSize: 100 });
      expect(right.hitCount).toBeGreaterThan(0);
      expect(typed.hitCount).toBe(right.hitCount);
      expect(names(typed)).toEqual(names(right));
      expect(option(typed, 'brandname').filterValue).toEqual(option(right, 'brandname').filterValue);
      expect(typed.correctedTerms).toEqual([{ from: 'Thermostt', to: ['Thermostat'] }]);
      expect(typed.searchTerm).toBe('Thermostt');
      expect(right.correctedTerms).toEqual([]);
    });

    it("ranks every product with the whole word above products of a brand that only starts with it ('Thermostatica')", async () => {
      const hits = await allHits({ searchTerm: 'Thermostat' });
      const ids = hits.map((h: any) => h.rows.PRODUCTINSTANCE_ID);
      // Whether the product has the word itself anywhere (name, brand, series, category, features, description).
      const { rows } = await t.pool.query<{ id: string; whole: boolean }>(
        `SELECT o.product_instance_id AS id, s.vec @@ to_tsquery('german_unaccent', 'thermostat') AS whole
           FROM product_offers o JOIN product_search s ON s.id = o.product_no
          WHERE o.product_instance_id = ANY($1::text[])`,
        [ids],
      );
      const whole = new Map(rows.map((r) => [r.id, r.whole]));
      const hasWord = hits.map((h: any) => whole.get(h.rows.PRODUCTINSTANCE_ID) === true);
      const brandPrefixOnly = hits.map(
        (h: any, i: number) =>
          !hasWord[i] && h.rows.brandname === 'Thermostatica' && !/thermostat/i.test(h.rows.artikelbeschreibung),
      );
      const firstBrandOnly = brandPrefixOnly.indexOf(true);
      const lastWithWord = hasWord.lastIndexOf(true);
      // The seeded brand's radiators and pipe clamps are found (a prefix of the brand name) …
      expect(firstBrandOnly).toBeGreaterThan(-1);
      // … products that have the word only outside the name (category, features) exist …
      expect(hits.some((h: any, i: number) => hasWord[i] && !/thermostat/i.test(h.rows.artikelbeschreibung))).toBe(
        true,
      );
      // … and every product with the word ranks above them.
      expect(firstBrandOnly).toBeGreaterThan(lastWithWord);
    });
  });
}
