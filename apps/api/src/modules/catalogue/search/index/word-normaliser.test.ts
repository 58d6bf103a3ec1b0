/**
 * The word-by-word normalisation of the analyser's tsquery texts is the query Postgres makes of the whole text
 * (to_tsquery('german_unaccent', …)): the same lexemes, flags and operators, stop words dropped the same way, and
 * an empty query where Postgres' is empty. Texts are drawn from the catalogue's words, German stop words, numbers
 * and the analyser's shapes (alternatives, prefixes, weights).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../../test/support/test-app.ts';
import { recordStatements } from '../../../../../test/support/statements.ts';
import { normaliseQueryTexts } from './search-index.repo.ts';
import { parseTsquery, type TsNode } from './tsquery.ts';
import { parseAnalyserText, WordNormaliser } from './word-normaliser.ts';

let t: TestApp;
let catalogueWords: string[];

beforeAll(async () => {
  t = await startTestApp();
  const { rows } = await t.pool.query<{ folded: string }>(
    `SELECT folded FROM search_terms WHERE folded ~ '^[a-z0-9]+$' ORDER BY doc_count DESC, folded LIMIT 400`,
  );
  catalogueWords = rows.map((r) => r.folded);
});
afterAll(async () => {
  await t?.close();
});

/** A query's canonical text: operands of nested and/or flattened and sorted, so equal queries read equal. */
function canonical(node: TsNode | null): string {
  if (!node) return '';
  switch (node.op) {
    case 'lexeme':
      return `${node.lexeme}:${node.prefix ? '*' : ''}${[...node.weights].sort().join('')}`;
    case 'not':
      return `!${canonical(node.arg)}`;
    case 'phrase':
      return `<${canonical(node.left)} ${canonical(node.right)}>`;
    default: {
      const operands: string[] = [];
      const collect = (n: TsNode) => {
        if (n.op === node.op) {
          collect((n as { left: TsNode }).left);
          collect((n as { right: TsNode }).right);
        } else operands.push(canonical(n));
      };
      collect(node);
      return `${node.op}(${operands.sort().join(',')})`;
    }
  }
}

/** A seeded generator of texts in the analyser's shapes (query-analyser.ts toTsquery, levels joined by &). */
function analyserTexts(words: string[], count: number): string[] {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const stop = ['und', 'der', 'die', 'mit', 'fur', 'aus', 'von', 'nicht', 'ein', 'zu', 'im', 'oder'];
  const numbers = ['15', '22', 'dn15', '3', '1000', 'g1', '2x'];
  const word = () => (random() < 0.15 ? pick(stop) : random() < 0.15 ? pick(numbers) : pick(words));
  const operand = (prefix: boolean, weights: string) => {
    const tokens = Array.from({ length: random() < 0.2 ? 2 : 1 }, word);
    const ops = tokens.map((w, k) =>
      `${w}:${prefix && k === tokens.length - 1 ? '*' : ''}${weights}`.replace(/:$/, ''),
    );
    return ops.length > 1 ? `(${ops.join(' & ')})` : ops[0];
  };
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const weights = pick(['', '', 'A', 'AB']);
    const length = 1 + Math.floor(random() * 3);
    const parts = Array.from({ length }, (_, k) => {
      const alternatives = Array.from({ length: random() < 0.3 ? 2 + Math.floor(random() * 2) : 1 }, () =>
        operand(k === length - 1 && random() < 0.5, weights),
      );
      return alternatives.length > 1 ? `(${alternatives.join(' | ')})` : alternatives[0];
    });
    texts.push(parts.join(' & '));
  }
  return texts;
}

describe('word-by-word normalisation of analyser texts', () => {
  it('parses the analyser shapes and refuses others', () => {
    expect(parseAnalyserText('ventil:*')).not.toBeNull();
    expect(parseAnalyserText('(kugelhahn | kugelhan:A) & (dn15 & messing:*AB)')).not.toBeNull();
    expect(parseAnalyserText("'quoted'")).toBeNull();
    expect(parseAnalyserText('a <-> b')).toBeNull();
    expect(parseAnalyserText('(a & b')).toBeNull();
    expect(parseAnalyserText('')).toBeNull();
  });

  it('gives the query Postgres makes of the whole text, for 600 texts', async () => {
    const texts = [
      ...analyserTexts(catalogueWords, 600),
      'und',
      'und & der',
      '(und | der) & ventil:*',
      'ventil & (mit | ohne)',
    ];
    const whole = (await normaliseQueryTexts(t.pool, texts, [])).queries;
    const normaliser = new WordNormaliser(async (words) => (await normaliseQueryTexts(t.pool, words, [])).queries);
    const composed = await normaliser.normalise(texts, () => Promise.reject(new Error('all texts are of the shape')));
    const mismatches = texts
      .map((text, i) => ({
        text,
        postgres: canonical(parseTsquery(whole[i])),
        composed: canonical(parseTsquery(composed[i])),
      }))
      .filter((m) => m.postgres !== m.composed);
    expect(mismatches).toEqual([]);
    expect(composed.filter((c) => !parseTsquery(c)).length).toBeGreaterThan(0); // stop-word-only texts occur
  });

  it('asks Postgres only for words it has not seen, and for texts of another shape as they are', async () => {
    const asked: string[][] = [];
    const normaliser = new WordNormaliser(async (words) => {
      asked.push(words);
      return (await normaliseQueryTexts(t.pool, words, [])).queries;
    });
    await normaliser.normalise(['ventil:* & messing', '(messing | kupfer:A)'], () => Promise.resolve([]));
    expect(asked).toEqual([['ventil', 'messing', 'kupfer']]);
    const recorder = recordStatements(t.pool);
    try {
      const again = await normaliser.normalise(['kupfer & ventil:*AB', "'x'"], async (others) => {
        expect(others).toEqual(["'x'"]);
        return ['whole'];
      });
      expect(again[1]).toBe('whole');
      expect(recorder.texts).toEqual([]);
    } finally {
      recorder.stop();
    }
    expect(asked).toHaveLength(1);
  });
});
