/**
 * Turns a search term into what the search needs: exact article-number matches (GTIN,
 * manufacturer / supplier article number, catalogue number) and a tsquery in which every word
 * must match – as itself (German stem, umlauts folded, the last word also as prefix), else split
 * into letters/digits ("dn15"), else as its compound parts ("Heizkörperventil"), else as the most
 * similar catalogue words (typo tolerance, "Termostatkopf" → thermostatkopf).
 *
 * tsquery text is only ever built from [a-z0-9] tokens, so user input cannot inject syntax.
 */
import type pg from 'pg';
import { compoundParts } from './decompound.ts';
import { foldedTokens, normaliseCode } from './fold.ts';
import { STOP_WORDS } from './stopwords.ts';

export interface AnalysedQuery {
  /** Unweighted tsquery text for to_tsquery('german_unaccent', …); null = no full-text part. */
  fts: string | null;
  /** All words found in the name (weight A) / in name, brand or series (A or B): relevance tiers. */
  ftsA: string | null;
  ftsAB: string | null;
  /** Like ftsA without prefix matching; null when no word was matched as a prefix. */
  ftsAExact: string | null;
  /** Products whose article number, GTIN or catalogue number equals the term (shown first). */
  codeIds: number[];
  corrections: { from: string; to: string[] }[];
}

/** Similarity (pg_trgm) a catalogue word needs to replace a word without matches. */
const TYPO_SIMILARITY = 0.4;
const MAX_ALTERNATIVES = 3;
/** Prefix matching on the last word only from this length on (shorter prefixes match half the catalogue). */
const MIN_PREFIX = 3;

type Alternative = string[]; // tokens that must all match (AND)

export async function analyseQuery(
  pool: pg.Pool,
  term: string,
  options: { numberSearch: boolean },
): Promise<AnalysedQuery> {
  const result: AnalysedQuery = { fts: null, ftsA: null, ftsAB: null, ftsAExact: null, codeIds: [], corrections: [] };
  if (!term) return result;
  const code = normaliseCode(term);
  if (options.numberSearch) {
    result.codeIds = await findByCode(pool, [code], true);
    return result;
  }
  // The whole term and single words may be article numbers ("4012345678901 Ventil").
  const parts = term.split(' ');
  const codeWords = parts.length > 1 ? parts.filter((w) => isCodeLike(normaliseCode(w))) : [];
  const candidates = [...new Set([code, ...codeWords.map(normaliseCode)].filter(isCodeLike))];
  const matched = candidates.length ? await findCodes(pool, candidates) : new Map<string, number[]>();
  result.codeIds = [...new Set([...matched.values()].flat())].sort((a, b) => a - b);
  // A term that is an article number is not also searched as text; matched code words are left out of it.
  if (matched.has(code)) return result;
  const textPart = parts.filter((w) => !matched.has(normaliseCode(w))).join(' ');

  const words = foldedTokens(textPart).filter((w) => !STOP_WORDS.has(w));
  if (!words.length) return result;
  const prefixLast = words[words.length - 1].length >= MIN_PREFIX;
  const plain = words.map((w, i) => [{ tokens: [w], prefix: prefixLast && i === words.length - 1 }]);
  const exists = await existing(
    pool,
    plain.map((alts) => toTsquery(alts)),
  );
  const perWord: { tokens: string[]; prefix: boolean }[][] = [];
  for (const [i, word] of words.entries()) {
    if (exists[i] === null) continue; // only stop words for Postgres
    if (exists[i]) {
      perWord.push(plain[i]);
      continue;
    }
    perWord.push(await fallback(pool, word, result));
  }
  if (!perWord.length) return result;
  result.fts = perWord.map((alts) => toTsquery(alts)).join(' & ');
  result.ftsA = perWord.map((alts) => toTsquery(alts, 'A')).join(' & ');
  result.ftsAB = perWord.map((alts) => toTsquery(alts, 'AB')).join(' & ');
  // 'ventil' as a whole word ranks above the prefix match 'Ventilator'.
  if (perWord.some((alts) => alts.some((a) => a.prefix))) {
    result.ftsAExact = perWord
      .map((alts) =>
        toTsquery(
          alts.map((a) => ({ ...a, prefix: false })),
          'A',
        ),
      )
      .join(' & ');
  }
  return result;
}

/** A word without matches: digits split off, compound parts, or similar catalogue words. */
async function fallback(
  pool: pg.Pool,
  word: string,
  result: AnalysedQuery,
): Promise<{ tokens: string[]; prefix: boolean }[]> {
  const candidates: Alternative[] = [];
  const split = word.match(/[a-z]+|\d+/g) ?? [];
  if (split.length > 1) candidates.push(split);
  const parts = compoundParts(word);
  if (parts.length > 1) candidates.push(parts);
  if (candidates.length) {
    const found = await existing(
      pool,
      candidates.map((tokens) => toTsquery([{ tokens, prefix: false }])),
    );
    const usable = candidates.filter((_, k) => found[k]);
    if (usable.length) return usable.map((tokens) => ({ tokens, prefix: false }));
  }
  const { rows } = await pool.query<{ folded: string }>(
    `SELECT folded FROM search_terms WHERE folded % $1 AND similarity(folded, $1) >= $2
      ORDER BY similarity(folded, $1) DESC, doc_count DESC LIMIT $3`,
    [word, TYPO_SIMILARITY, MAX_ALTERNATIVES],
  );
  const similar = rows.map((r) => foldedTokens(r.folded)).filter((t) => t.length);
  if (!similar.length) return [{ tokens: [word], prefix: false }]; // no match: the search is empty
  result.corrections.push({ from: word, to: rows.map((r) => r.folded) });
  return similar.map((tokens) => ({ tokens, prefix: false }));
}

/** "(a:* | (b & c))", optionally restricted to weights. */
function toTsquery(alternatives: { tokens: string[]; prefix: boolean }[], weights = ''): string {
  const parts = alternatives.map(({ tokens, prefix }) => {
    const ops = tokens.map((t, k) =>
      `${t}:${prefix && k === tokens.length - 1 ? '*' : ''}${weights}`.replace(/:$/, ''),
    );
    return ops.length > 1 ? `(${ops.join(' & ')})` : ops[0];
  });
  return parts.length > 1 ? `(${parts.join(' | ')})` : parts[0];
}

/** Per tsquery: whether any product matches; null when it is empty after stemming (stop words only). */
async function existing(pool: pg.Pool, queries: string[]): Promise<(boolean | null)[]> {
  if (!queries.length) return [];
  const { rows } = await pool.query<{ ord: number; empty: boolean; found: boolean }>(
    `SELECT q.ord, numnode(q.tsq) = 0 AS empty,
            numnode(q.tsq) > 0 AND EXISTS (SELECT 1 FROM product_search s WHERE s.vec @@ q.tsq) AS found
       FROM (SELECT ord, to_tsquery('german_unaccent', text) AS tsq FROM unnest($1::text[]) WITH ORDINALITY AS u(text, ord)) q`,
    [queries],
  );
  const byOrd = new Map(rows.map((r) => [Number(r.ord), r.empty ? null : r.found]));
  return queries.map((_, i) => byOrd.get(i + 1) ?? false);
}

const isCodeLike = (code: string) => code.length >= 4 && /\d/.test(code);

/** Exact matches of GTIN, manufacturer, supplier and catalogue article numbers, per code. */
async function findCodes(pool: pg.Pool, codes: string[]): Promise<Map<string, number[]>> {
  const { rows } = await pool.query<{ code: string; id: number }>(
    `SELECT code, id FROM (
       SELECT c.code, p.id FROM unnest($1::text[]) c(code) JOIN products p ON p.gtin = c.code
       UNION SELECT c.code, p.id FROM unnest($1::text[]) c(code) JOIN products p ON p.manufacturer_pid_norm = c.code
       UNION SELECT c.code, p.id FROM unnest($1::text[]) c(code) JOIN products p ON p.article_number_catalogue_norm = c.code
       UNION SELECT c.code, o.product_no FROM unnest($1::text[]) c(code) JOIN product_offers o ON o.supplier_pid_norm = c.code
     ) m ORDER BY id LIMIT 2000`,
    [codes],
  );
  const byCode = new Map<string, number[]>();
  for (const r of rows) byCode.set(r.code, [...(byCode.get(r.code) ?? []), r.id]);
  return byCode;
}

/** Number search: exact and prefix matches of the article numbers. */
async function findByCode(pool: pg.Pool, codes: string[], prefix: boolean): Promise<number[]> {
  const code = codes[0];
  if (!code || code.length < 4) return [];
  const pattern = `${code.replace(/[%_]/g, '')}%`;
  const { rows } = await pool.query<{ id: number }>(
    `SELECT id FROM (
       SELECT id FROM products WHERE gtin = $1 OR manufacturer_pid_norm = $1 OR article_number_catalogue_norm = $1
       UNION SELECT product_no FROM product_offers WHERE supplier_pid_norm = $1
       ${
         prefix
           ? `UNION (SELECT id FROM products WHERE manufacturer_pid_norm LIKE $2 OR gtin LIKE $2 OR article_number_catalogue_norm LIKE $2 LIMIT 2000)
       UNION (SELECT product_no FROM product_offers WHERE supplier_pid_norm LIKE $2 LIMIT 2000)`
           : ''
       }
     ) c ORDER BY id LIMIT 2000`,
    prefix ? [code, pattern] : [code],
  );
  return rows.map((r) => r.id);
}
