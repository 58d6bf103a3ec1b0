/**
 * Postgres' normalisation of the query analyser's tsquery texts (`to_tsquery('german_unaccent', text)`), composed in
 * process from the normalisation of each word.
 *
 * to_tsquery normalises every operand on its own (the text parser and the configuration's dictionaries see one
 * operand at a time), gives each lexeme of an operand the operand's prefix and weight flags, and finally drops the
 * operands that became empty (stop words): `a & stop` is `a`, `a | stop` is `a`, `!stop` is nothing, a query of stop
 * words only is empty. The analyser writes its operands as folded words (`[a-z0-9]+`, optionally `:*` and weights),
 * so one Postgres answer per word (`to_tsquery('german_unaccent', word)::text`, kept like a dictionary: a pure
 * function of the word under the fixed text search configuration) composes every text the analyser writes. The
 * composed text is not the same string as Postgres' output (parentheses, order of equal lexemes) but the same
 * query: the same lexemes with the same flags under the same operators, so it matches the same products.
 *
 * A text in any other shape (it does not occur today) is normalised by Postgres as a whole.
 */
import { parseTsquery, type TsNode } from './tsquery.ts';
import { LRUCache } from '../lru.ts';

/** The analyser's query before normalisation: bare words with flags, &, |, ! and parentheses. */
type RawNode =
  | { op: 'word'; word: string; prefix: boolean; weights: string }
  | { op: 'and' | 'or'; left: RawNode; right: RawNode }
  | { op: 'not'; arg: RawNode };

const WORD = /^[a-z0-9]+/;
const FLAGS = /^:(\*?)([ABCD]*)(\*?)/;

/** Parses an analyser text; null when it is not of the analyser's shape (then Postgres normalises it whole). */
export function parseAnalyserText(text: string): RawNode | null {
  let i = 0;
  const skip = () => {
    while (text[i] === ' ') i++;
  };
  const primary = (): RawNode | null => {
    skip();
    if (text[i] === '!') {
      i++;
      const arg = primary();
      return arg && { op: 'not', arg };
    }
    if (text[i] === '(') {
      i++;
      const node = or();
      skip();
      if (!node || text[i] !== ')') return null;
      i++;
      return node;
    }
    const word = WORD.exec(text.slice(i))?.[0];
    if (!word) return null;
    i += word.length;
    let prefix = false;
    let weights = '';
    const flags = FLAGS.exec(text.slice(i));
    if (flags && flags[0].length > 1) {
      prefix = Boolean(flags[1] || flags[3]);
      weights = flags[2];
      i += flags[0].length;
    }
    return { op: 'word', word, prefix, weights };
  };
  const binary = (op: 'and' | 'or', sign: string, operand: () => RawNode | null) => (): RawNode | null => {
    let node = operand();
    for (;;) {
      if (!node) return null;
      skip();
      if (text[i] !== sign) return node;
      i++;
      const right = operand();
      if (!right) return null;
      node = { op, left: node, right };
    }
  };
  const and = binary('and', '&', primary);
  const or = binary('or', '|', and);
  const node = or();
  skip();
  return node && i === text.length ? node : null;
}

/** The words of an analyser query. */
export function wordsOf(node: RawNode): string[] {
  if (node.op === 'word') return [node.word];
  if (node.op === 'not') return wordsOf(node.arg);
  return [...wordsOf(node.left), ...wordsOf(node.right)];
}

/**
 * The normalised query of an analyser query, given each word's normalisation (to_tsquery of the word alone, as
 * parsed; null for a stop word): the word's lexemes with the operand's flags, empty operands dropped as Postgres does.
 */
export function composeNormalised(node: RawNode, wordQuery: (word: string) => TsNode | null): TsNode | null {
  switch (node.op) {
    case 'word': {
      const normalised = wordQuery(node.word);
      return normalised && withFlags(normalised, node.prefix, node.weights);
    }
    case 'not': {
      const arg = composeNormalised(node.arg, wordQuery);
      return arg && { op: 'not', arg };
    }
    default: {
      const left = composeNormalised(node.left, wordQuery);
      const right = composeNormalised(node.right, wordQuery);
      if (!left || !right) return left ?? right;
      return { op: node.op, left, right };
    }
  }
}

/** Every lexeme of an operand's normalisation carries the operand's prefix and weight flags (as in to_tsquery). */
function withFlags(node: TsNode, prefix: boolean, weights: string): TsNode {
  switch (node.op) {
    case 'lexeme':
      return { ...node, prefix, weights };
    case 'not':
      return { op: 'not', arg: withFlags(node.arg, prefix, weights) };
    default:
      return {
        op: node.op,
        left: withFlags(node.left, prefix, weights),
        right: withFlags(node.right, prefix, weights),
      };
  }
}

/** A query's text in tsquery syntax (parsed back by parseTsquery; phrase distances are not kept). */
export function tsqueryText(node: TsNode | null): string {
  if (!node) return '';
  switch (node.op) {
    case 'lexeme': {
      const flags = `${node.prefix ? '*' : ''}${node.weights}`;
      return `'${node.lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'${flags ? `:${flags}` : ''}`;
    }
    case 'not':
      return `!${tsqueryText(node.arg)}`;
    case 'and':
      return `( ${tsqueryText(node.left)} & ${tsqueryText(node.right)} )`;
    case 'or':
      return `( ${tsqueryText(node.left)} | ${tsqueryText(node.right)} )`;
    case 'phrase':
      return `( ${tsqueryText(node.left)} <-> ${tsqueryText(node.right)} )`;
  }
}

/**
 * Normalises analyser texts with one Postgres answer per word: words seen before from memory, the others in one
 * round trip (`normaliseWords`), concurrent requests for the same word sharing it.
 */
export class WordNormaliser {
  private readonly words = new LRUCache<string, Promise<TsNode | null>>({ max: 200_000 });

  constructor(private readonly normaliseWords: (words: string[]) => Promise<string[]>) {}

  /** Starts fetching the normalisation of words not seen yet (the typo neighbours, while the analyser works on). */
  prefetch(words: string[]): void {
    this.fetch(words).catch(() => {});
  }

  /**
   * Keeps words' normalisations Postgres gave with another answer (to_tsquery of the word alone, as normaliseWords
   * gives it): the words are not asked for again. Words already kept or being fetched are left as they are.
   */
  remember(normalised: Map<string, string>): void {
    for (const [word, text] of normalised) {
      if (!this.words.has(word)) this.words.set(word, Promise.resolve(parseTsquery(text)));
    }
  }

  /** The normalised text of each analyser text; texts of another shape come from `whole` (Postgres, as they are). */
  async normalise(texts: string[], whole: (texts: string[]) => Promise<string[]>): Promise<string[]> {
    const parsed = texts.map(parseAnalyserText);
    const others = texts.filter((_, i) => !parsed[i]);
    const [wholeTexts, known] = await Promise.all([
      others.length ? whole(others) : Promise.resolve([]),
      this.fetch(parsed.flatMap((p) => (p ? wordsOf(p) : []))),
    ]);
    let other = 0;
    return parsed.map((p) =>
      p ? tsqueryText(composeNormalised(p, (w) => known.get(w) ?? null)) : wholeTexts[other++],
    );
  }

  /** Each word's normalisation (parsed; null for a stop word). */
  private async fetch(words: string[]): Promise<Map<string, TsNode | null>> {
    const unique = [...new Set(words)];
    const pending = new Map<string, Promise<TsNode | null>>();
    const missing = unique.filter((w) => {
      const kept = this.words.get(w);
      if (kept) pending.set(w, kept);
      return !kept;
    });
    if (missing.length) {
      const fetched = this.normaliseWords(missing);
      for (const [k, w] of missing.entries()) {
        const entry = fetched.then((texts) => parseTsquery(texts[k]));
        this.words.set(w, entry);
        pending.set(w, entry);
        // A failed read is not kept: the next search asks again.
        entry.catch(() => {
          if (this.words.get(w) === entry) this.words.delete(w);
        });
      }
    }
    const entries = [...pending];
    const nodes = await Promise.all(entries.map(([, entry]) => entry));
    return new Map(entries.map(([w], k) => [w, nodes[k]]));
  }
}
