/**
 * Seeded generator of distinct search requests built from the loaded catalogue itself:
 * single words, part words, compounds, multi-word terms, brand/class filters, one-edit typos (of single and
 * hyphenated words),
 * sorted searches, deep pages, article numbers and GTINs. The same seed and catalogue give the same
 * queries; every request body is distinct (each query is a first occurrence for the search).
 */
import type pg from 'pg';
import { PART_WORDS } from '../src/modules/catalogue/search/decompound.ts';
import { applyEdit, EDIT_KINDS, seededRandom } from '../src/modules/catalogue/search/typo-sample.ts';

export const QUERY_KINDS = [
  'word',
  'part word',
  'compound',
  'multi-word',
  'brand/class filter',
  'typo',
  'sort',
  'deep page',
  'article number',
  'GTIN',
] as const;
export type QueryKind = (typeof QUERY_KINDS)[number];
export interface BenchQuery {
  kind: QueryKind;
  body: Record<string, unknown>;
}

export async function distinctQueries(pool: pg.Pool, options: { seed: number; count: number }): Promise<BenchQuery[]> {
  const random = seededRandom(options.seed);
  const pick = <T>(list: T[]): T => list[Math.floor(random() * list.length)];
  const q = async <T>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as T[];
  const words = (
    await q<{ term: string }>(
      `SELECT term FROM search_terms WHERE kind = 1 AND folded ~ '^[a-z]{4,}$' AND doc_count > 0 ORDER BY folded`,
    )
  ).map((r) => r.term);
  const compounds = words.filter((w) => w.length >= 12);
  // Typos also hit hyphenated words ('Brennwert-Kombitherme', 'Stand-WC'), as users type them.
  const hyphenated = (
    await q<{ term: string }>(
      `SELECT term FROM search_terms WHERE kind = 1 AND folded ~ '^[a-z]+(-[a-z]+)+$' AND folded ~ '[a-z]{4}'
          AND doc_count > 0 ORDER BY folded`,
    )
  ).map((r) => r.term);
  const typoWords = [...words.filter((w) => w.length >= 5), ...hyphenated];
  const brands = (await q<{ name: string }>('SELECT name FROM brands ORDER BY brand_no')).map((r) => r.name);
  const classes = (await q<{ class_id: string }>('SELECT class_id FROM etim_classes ORDER BY class_no')).map(
    (r) => r.class_id,
  );
  const [{ max }] = await q<{ max: number }>('SELECT max(id)::int AS max FROM products');
  const product = async () =>
    (
      await q<{ name: string; gtin: string | null; mpid: string; brand: string }>(
        `SELECT p.product_name AS name, p.gtin, p.manufacturer_pid AS mpid, b.name AS brand
           FROM products p JOIN brands b USING (brand_no) WHERE p.id >= $1 ORDER BY p.id LIMIT 1`,
        [1 + Math.floor(random() * max)],
      )
    )[0];

  const perKind = Math.ceil(options.count / QUERY_KINDS.length);
  const seen = new Set<string>();
  const out: BenchQuery[] = [];
  for (const kind of QUERY_KINDS) {
    let made = 0;
    for (let attempt = 0; made < perKind && attempt < perKind * 20; attempt++) {
      let body: Record<string, unknown>;
      switch (kind) {
        case 'word':
          body = { searchTerm: pick(words) };
          break;
        case 'part word':
          body = { searchTerm: pick(PART_WORDS.filter((w) => w.length >= 4)) };
          break;
        case 'compound':
          body = { searchTerm: pick(compounds.length ? compounds : words) };
          break;
        case 'multi-word': {
          const name = (await product()).name.split(' ');
          body = { searchTerm: name.slice(0, 2 + Math.floor(random() * 2)).join(' ') };
          break;
        }
        case 'brand/class filter': {
          const filter =
            random() < 0.5
              ? [{ columnName: 'brandname', filterType: 'Auswahl', filterValue: [{ value: pick(brands) }] }]
              : [{ columnName: 'etimKlasse', filterType: 'Auswahl', filterValue: [{ value: pick(classes) }] }];
          body = { searchTerm: random() < 0.5 ? pick(words) : '', filter };
          break;
        }
        case 'typo': {
          const word = pick(typoWords);
          body = { searchTerm: applyEdit(word, pick(EDIT_KINDS), random) };
          break;
        }
        case 'sort':
          body = {
            searchTerm: pick(words),
            sortColumn: 'artikelbeschreibung',
            sortOrder: random() < 0.5 ? 'asc' : 'desc',
          };
          break;
        case 'deep page':
          body = { searchTerm: random() < 0.7 ? pick(words) : '', page: 10 + Math.floor(random() * 91) };
          break;
        case 'article number':
          body = { searchTerm: (await product()).mpid };
          break;
        case 'GTIN': {
          const gtin = (await product()).gtin;
          if (!gtin) continue;
          body = { searchTerm: gtin };
          break;
        }
      }
      const full = { page: 1, pageSize: 25, ...body };
      const key = JSON.stringify(full);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ kind, body: full });
      made++;
    }
  }
  // Interleave the kinds as real traffic would (seeded shuffle).
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out.slice(0, options.count);
}
