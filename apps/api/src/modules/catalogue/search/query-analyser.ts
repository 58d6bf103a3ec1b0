/**
 * Turns a search term into what the search needs: exact article-number matches (GTIN,
 * manufacturer / supplier article number, catalogue number), dimension tokens matched against
 * feature values (dimensions.ts: 1/2", DN15, 15x1, Ø 20) and a tsquery in which every word must
 * match – as itself (German stem, umlauts folded, the last word also as prefix), else split into
 * letters/digits ("dn15"), else as its compound parts ("Heizkörperventil"). Typo tolerance: words
 * of ≥ 5 letters also match the catalogue words one edit away (ranked below exact matches), words
 * of 4 letters when they match nothing as typed; a word two edits away is replaced by the most
 * similar catalogue words (pg_trgm). Article numbers and words with digits are never expanded.
 *
 * tsquery text is only ever built from [a-z0-9] tokens, so user input cannot inject syntax.
 */
import type pg from 'pg';
import type { CatalogueMeta } from '../catalogue-meta.ts';
import { compoundParts } from './decompound.ts';
import { extractDimensions, type DimensionMatch } from './dimensions.ts';
import { digraphSpellings, fold, foldedTokens, normaliseCode } from './fold.ts';
import { STOP_WORDS } from './stopwords.ts';
import * as repo from './search.repo.ts';

/** The tsqueries of one match level: all words (fts), in the name (A), in name/brand/series (AB). */
export interface QueryLevel {
  /** Unweighted tsquery text for to_tsquery('german_unaccent', …); null = no full-text part. */
  fts: string | null;
  /** All words found in the name (weight A) / in name, brand or series (A or B): relevance tiers. */
  ftsA: string | null;
  ftsAB: string | null;
  /** Like ftsA, ftsAB and fts without prefix matching; null when no word was matched as a prefix. */
  ftsAExact: string | null;
  ftsABExact: string | null;
  ftsExact: string | null;
}

export interface AnalysedQuery extends QueryLevel {
  /**
   * The words as typed only (no typo alternatives), when the typo alternatives widened the query:
   * these matches rank above every typo match. null when the query has no typo alternatives or
   * some word has no exact match at all.
   */
  exact: QueryLevel | null;
  /** Dimension tokens (1/2", DN15, 15x1, Ø 20) matched against feature values; AND with the words. */
  dimensions: DimensionMatch[];
  /** Products whose article number, GTIN or catalogue number equals the term (shown first). */
  codeIds: number[];
  corrections: { from: string; to: string[] }[];
  /**
   * Display spellings of corrections that are a part of a hyphenated catalogue word ('Kombitherme' of
   * 'Brennwert-Kombitherme'): search_terms has no row of their own to take them from.
   */
  partSpellings?: Map<string, string>;
  /** Words that match nothing and have no typo alternatives (they empty the result). */
  unmatched?: string[];
}

/** Similarity (pg_trgm) a catalogue word needs to replace a word without matches (two or more edits away). */
const TYPO_SIMILARITY = 0.4;
const MAX_ALTERNATIVES = 3;
/** Catalogue words one edit away that are added to a word (the most frequent first). */
const MAX_TYPO_ALTERNATIVES = 10;
/**
 * Words of this length get their one-edit neighbours even when they match as typed ("Boden" is
 * also "Bogen"); shorter words (from 3 letters: a 4-letter word with a letter missing) only when
 * they match nothing. The pg_trgm fallback (two edits) from 4 letters.
 */
const TYPO_ALWAYS_FROM = 5;
const TYPO_MIN_LENGTH = 3;
const SIMILAR_MIN_LENGTH = 4;
/** Prefix matching on the last word only from this length on (shorter prefixes match half the catalogue). */
const MIN_PREFIX = 3;

type Alternative = { tokens: string[]; prefix: boolean }; // tokens that must all match (AND)

const emptyLevel = (): QueryLevel => ({
  fts: null,
  ftsA: null,
  ftsAB: null,
  ftsAExact: null,
  ftsABExact: null,
  ftsExact: null,
});

type AnalyseOptions = {
  numberSearch: boolean;
  /**
   * Per tsquery text: whether any product matches (null: empty after stemming). Default: EXISTS over
   * product_search; the index engine answers it from its bitmaps.
   */
  matches?: (queries: string[]) => Promise<(boolean | null)[]>;
  /**
   * The catalogue words one edit away per word (search_terms). Default: oneEditNeighbours, one statement; the index
   * engine keeps the answers per catalogue version (search_terms changes with a catalogue load or import, which raise it).
   */
  neighbours?: (words: string[]) => Promise<Map<string, string[]>>;
  /**
   * The parts of hyphenated catalogue words one edit away from a word that matches nothing, given in its spellings.
   * Default: oneEditParts, one statement; the index engine keeps the answers per catalogue version.
   */
  partNeighbours?: (spellings: string[]) => Promise<PartNeighbour[]>;
  /**
   * The catalogue's display spelling of folded words (search_terms.term; missing: no catalogue word). Default:
   * termSpellings, one statement; the index engine keeps them per catalogue version like the neighbours.
   */
  spellings?: (folded: string[]) => Promise<Map<string, string>>;
  /**
   * The products whose GTIN or article number equals each code. Default: codeMatches, one statement; the index engine
   * sends it with the dictionary lookups of the searches asked at the same time.
   */
  codes?: (codes: string[]) => Promise<Map<string, number[]>>;
};

/** A part of hyphenated catalogue words (folded) with the catalogue's spelling ('kombitherme', 'Kombitherme'). */
export interface PartNeighbour {
  folded: string;
  display: string;
}

/**
 * Analyses a term. A word that matches nothing and is corrected ('Thermostt') is replaced by its best correction and
 * the term analysed again, so a corrected query gives exactly the corrected word's results (the same hits, tiers and
 * facets as typing 'Thermostat'); correctedTerms then names the word as the user typed it and the catalogue's
 * spelling of the correction. A hyphenated word in doubt – a piece that matches nothing or was corrected, or a piece
 * of one letter – is replaced by the hyphenated catalogue word one edit away from it as a whole, when there is one
 * ('HA-Muffe' → 'HT-Muffe', 'Alo-Verbundrohr' → 'Alu-Verbundrohr', 'Tiefspülw-C' → 'Tiefspül-WC'): one edit of the
 * whole word is a nearer reading than a correction of one of its pieces ('Alo' → 'Aero'), and an edit in a short
 * piece or a moved hyphen leaves no piece to correct. Then the term is analysed again.
 */
export async function analyseQuery(
  pool: pg.Pool,
  meta: CatalogueMeta,
  term: string,
  options: AnalyseOptions,
): Promise<AnalysedQuery> {
  const analysed = await analyseCorrected(pool, meta, term, options);
  const doubtful = await hyphenatedInDoubt(pool, term, analysed, options);
  if (!doubtful.length) return analysed;
  const whole = await hyphenatedCorrections(pool, term, doubtful, options);
  if (!whole) return analysed;
  const again = await analyseCorrected(pool, meta, whole.term, options);
  if (again.unmatched?.length || !again.fts) return analysed;
  return { ...again, corrections: [...whole.corrections, ...again.corrections] };
}

/** Hyphenated words of letters only: never article numbers or sizes ('TF-22.600', 'DN-15'). */
const HYPHENATED = /^[a-z]+(-[a-z]+)+$/;

/**
 * The typed hyphenated words (folded) that may be a typo of a hyphenated catalogue word: a piece matched nothing or
 * was corrected, or a piece is a single letter and the word itself is no catalogue word ('T-Stück' is one).
 */
async function hyphenatedInDoubt(
  pool: pg.Pool,
  term: string,
  analysed: AnalysedQuery,
  options: AnalyseOptions,
): Promise<string[]> {
  const hyphenated = term
    .split(' ')
    .map((part) => fold(trimPunctuation(part)))
    .filter((w) => HYPHENATED.test(w));
  if (!hyphenated.length) return [];
  const corrected = new Set(analysed.corrections.map((c) => fold(c.from)));
  const unmatched = analysed.unmatched ?? [];
  const inDoubt = (w: string) => corrected.has(w) || foldedTokens(w).some((t) => unmatched.includes(t));
  const doubtful = hyphenated.filter(inDoubt);
  const shortPieces = hyphenated.filter((w) => !inDoubt(w) && w.split('-').some((piece) => piece.length === 1));
  if (!shortPieces.length) return doubtful;
  const known = await spellingsOf(pool, options, shortPieces);
  return [...doubtful, ...shortPieces.filter((w) => !known.has(w))];
}

/**
 * The term with each of the `wanted` hyphenated words (folded) replaced by the most frequent catalogue word one edit
 * away from the whole word (search_terms holds hyphenated words whole); null when there is none.
 */
async function hyphenatedCorrections(
  pool: pg.Pool,
  term: string,
  wanted: string[],
  options: AnalyseOptions,
): Promise<{ term: string; corrections: AnalysedQuery['corrections'] } | null> {
  const words = term.split(' ').map((part) => ({ part, folded: fold(trimPunctuation(part)) }));
  const found = await (options.neighbours ?? ((w: string[]) => oneEditNeighbours(pool, w)))(wanted);
  const replaced: { from: string; to: string }[] = [];
  const parts = words.map(({ part, folded }) => {
    const to = wanted.includes(folded) ? found.get(folded)?.[0] : undefined;
    if (!to) return part;
    replaced.push({ from: trimPunctuation(part), to });
    return to;
  });
  if (!replaced.length) return null;
  const spellings = await spellingsOf(
    pool,
    options,
    replaced.map((r) => r.to),
  );
  return {
    term: parts.join(' '),
    corrections: replaced.map((r) => ({ from: r.from, to: [likeTyped(r.from, spellings.get(r.to) ?? r.to)] })),
  };
}

/** analyseTerm, a word corrected as in analyseQuery. */
async function analyseCorrected(
  pool: pg.Pool,
  meta: CatalogueMeta,
  term: string,
  options: AnalyseOptions,
): Promise<AnalysedQuery> {
  const analysed = await analyseTerm(pool, meta, term, options);
  if (!analysed.corrections.length) return analysed;
  const corrected = correctedTerm(term, analysed.corrections);
  if (!corrected) return analysed;
  // Its words are the typed words that matched and the corrections, all catalogue words: none needs neighbours
  // (of whole words or of parts).
  const again = await analyseTerm(pool, meta, corrected.term, {
    ...options,
    neighbours: async () => new Map(),
    partNeighbours: async () => [],
  });
  if (again.corrections.length || !again.fts) return analysed;
  const spellings = await spellingsOf(
    pool,
    options,
    corrected.replaced.filter((r) => !analysed.partSpellings?.has(r.to)).map((r) => r.to),
  );
  const spelling = (folded: string) => analysed.partSpellings?.get(folded) ?? spellings.get(folded) ?? folded;
  return {
    ...again,
    corrections: corrected.words.map((w) => ({ from: w.from, to: [w.to(spelling)] })),
  };
}

/** A correction capitalised like the typed word ('Thermostt' → 'Thermostat'; the word list may hold it in lower case). */
function likeTyped(typed: string, correction: string): string {
  const first = typed.charAt(0);
  return first !== first.toLowerCase() ? correction.charAt(0).toUpperCase() + correction.slice(1) : correction;
}

/** A typed word with its corrected pieces: 'Brennwert-Kombitehrme' → 'Brennwert-Kombitherme'. */
interface CorrectedWord {
  /** The word as typed, without leading and trailing punctuation. */
  from: string;
  /** The corrected word, each corrected piece in its display spelling (capitalised like the typed piece). */
  to: (spelling: (folded: string) => string) => string;
}

/** A typed word split into runs of letters and digits (even indexes) and the separators between them (odd ones). */
const pieces = (word: string) => word.split(/([^\p{L}\d]+)/u);
const trimPunctuation = (word: string) => word.replace(/^[^\p{L}\d]+|[^\p{L}\d]+$/gu, '');

/**
 * The term with each corrected word replaced by its first correction (the most frequent catalogue word one edit away,
 * else the most similar one) – a word of its own as typed or a piece of a hyphenated word ('Stnad-WC' → 'stand-WC');
 * null when a corrected word is only part of a typed piece. `replaced` holds the folded corrections, `words` the
 * corrected words as typed and corrected.
 */
function correctedTerm(
  term: string,
  corrections: AnalysedQuery['corrections'],
): { term: string; replaced: { from: string; to: string }[]; words: CorrectedWord[] } | null {
  const replaced: { from: string; to: string }[] = [];
  const words: CorrectedWord[] = [];
  const parts = term.split(' ').map((part) => {
    const split = pieces(part);
    const fixes = new Map<number, string>();
    split.forEach((piece, k) => {
      if (k % 2) return;
      const tokens = foldedTokens(piece);
      const correction = tokens.length === 1 ? corrections.find((c) => c.from === tokens[0] && c.to.length) : undefined;
      if (!correction) return;
      fixes.set(k, correction.to[0]);
      replaced.push({ from: tokens[0], to: correction.to[0] });
    });
    if (!fixes.size) return part;
    const rebuilt = (fix: (k: number, folded: string) => string) =>
      split.map((piece, k) => (fixes.has(k) ? fix(k, fixes.get(k)!) : piece)).join('');
    words.push({
      from: trimPunctuation(part),
      to: (spelling) => trimPunctuation(rebuilt((k, folded) => likeTyped(split[k], spelling(folded)))),
    });
    return rebuilt((_, folded) => folded);
  });
  if (corrections.some((c) => !replaced.some((r) => r.from === c.from))) return null;
  return { term: parts.join(' '), replaced, words };
}

/** The catalogue's display spelling of folded words, as the options give it or else from search_terms. */
function spellingsOf(pool: pg.Pool, options: AnalyseOptions, folded: string[]): Promise<Map<string, string>> {
  return options.spellings ? options.spellings(folded) : termSpellings(pool, folded);
}

/** The catalogue's display spelling of folded words (search_terms.term: 'Thermostat' for 'thermostat'). */
export async function termSpellings(pool: pg.Pool, folded: string[]): Promise<Map<string, string>> {
  const rows = await repo.termSpellings(pool, folded);
  return new Map(rows.map((r) => [r.folded, r.term]));
}

async function analyseTerm(
  pool: pg.Pool,
  meta: CatalogueMeta,
  term: string,
  options: AnalyseOptions,
): Promise<AnalysedQuery> {
  const result: AnalysedQuery = { ...emptyLevel(), exact: null, dimensions: [], codeIds: [], corrections: [] };
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
  const matched = candidates.length
    ? await (options.codes ?? ((c: string[]) => findCodes(pool, c)))(candidates)
    : new Map<string, number[]>();
  result.codeIds = [...new Set([...matched.values()].flat())].sort((a, b) => a - b);
  // A term that is an article number is not also searched as text; matched code words are left out of it.
  if (matched.has(code)) return result;
  const { rest, dimensions } = extractDimensions(parts.filter((w) => !matched.has(normaliseCode(w))).join(' '), meta);
  result.dimensions = dimensions;

  const matches = options.matches ?? ((queries: string[]) => sqlMatches(pool, queries));
  const existing = async (queries: string[]) => (queries.length ? matches(queries) : []);
  const words = foldedTokens(rest).filter((w) => !STOP_WORDS.has(w));
  if (!words.length) return result;
  const prefixLast = words[words.length - 1].length >= MIN_PREFIX;
  const plain = words.map((w, i) => [{ tokens: [w], prefix: prefixLast && i === words.length - 1 }]);
  // The last word also as a whole word: a short word that only matches as a prefix ('ele' → Elektro…)
  // still gets its typo alternatives ('elbe').
  const lastWhole = toTsquery([{ tokens: [words[words.length - 1]], prefix: false }]);
  // Words whose ae/oe/ue folding may come from a typo are also looked up as typed (for the fallback only).
  const typed = digraphSpellings(rest);
  const lookup = words.filter(typoCandidate).flatMap((w) => (typed.has(w) ? [w, typed.get(w)!] : [w]));
  const [[...exists], neighbours] = await Promise.all([
    existing([...plain.map((alts) => toTsquery(alts)), lastWhole]),
    (options.neighbours ?? ((w: string[]) => oneEditNeighbours(pool, w)))(lookup),
  ]);
  const lastIsWholeWord = exists.pop();
  const exactPerWord: Alternative[][] = [];
  const perWord: Alternative[][] = [];
  let typoAdded = false;
  for (const [i, word] of words.entries()) {
    if (exists[i] === null) continue; // only stop words for Postgres
    const near = neighbours.get(word) ?? [];
    if (exists[i]) {
      exactPerWord.push(plain[i]);
      const onlyPrefix = i === words.length - 1 && plain[i][0].prefix && !lastIsWholeWord;
      const typos = word.length >= TYPO_ALWAYS_FROM || onlyPrefix ? near : [];
      perWord.push([...plain[i], ...typos.map((t) => ({ tokens: foldedTokens(t), prefix: false }))]);
      typoAdded ||= typos.length > 0;
      continue;
    }
    const asTyped = typed.get(word);
    const alternatives = await fallback(
      pool,
      existing,
      options.partNeighbours ?? ((spellings) => oneEditParts(pool, spellings)),
      word,
      { folded: near, asTyped: (asTyped && neighbours.get(asTyped)) || [] },
      result,
      asTyped,
    );
    exactPerWord.push(alternatives.exact);
    perWord.push([...alternatives.exact, ...alternatives.typo]);
    typoAdded ||= alternatives.typo.length > 0;
  }
  if (!perWord.length) return result;
  Object.assign(result, levelOf(perWord));
  // Exact matches rank above typo matches; without an exact match for every word there is no exact level.
  if (typoAdded && exactPerWord.every((alts) => alts.length)) result.exact = levelOf(exactPerWord);
  return result;
}

function levelOf(perWord: Alternative[][]): QueryLevel {
  const level: QueryLevel = {
    fts: perWord.map((alts) => toTsquery(alts)).join(' & '),
    ftsA: perWord.map((alts) => toTsquery(alts, 'A')).join(' & '),
    ftsAB: perWord.map((alts) => toTsquery(alts, 'AB')).join(' & '),
    ftsAExact: null,
    ftsABExact: null,
    ftsExact: null,
  };
  // 'ventil' as a whole word ranks above the prefix match 'Ventilator', 'thermostat' above the brand 'Thermostatica'.
  if (perWord.some((alts) => alts.some((a) => a.prefix))) {
    const whole = (weights: string) =>
      perWord
        .map((alts) =>
          toTsquery(
            alts.map((a) => ({ ...a, prefix: false })),
            weights,
          ),
        )
        .join(' & ');
    level.ftsAExact = whole('A');
    level.ftsABExact = whole('AB');
    level.ftsExact = whole('');
  }
  return level;
}

/** Typo alternatives only for words of letters (never article numbers, GTINs, sizes). */
const typoCandidate = (word: string) => word.length >= TYPO_MIN_LENGTH && /^[a-z]+$/.test(word);

/**
 * A word without matches: digits split off or compound parts (exact, with the catalogue words one
 * edit away as typo alternatives), else the words one edit away (of the word as folded, else as typed: 'bgoen' is
 * folded to 'bgon'), else the parts of hyphenated words one edit away, else similar catalogue words
 * (pg_trgm) – typo alternatives that replace the word (listed in correctedTerms).
 */
async function fallback(
  pool: pg.Pool,
  existing: (queries: string[]) => Promise<(boolean | null)[]>,
  partNeighbours: (spellings: string[]) => Promise<PartNeighbour[]>,
  word: string,
  near: { folded: string[]; asTyped: string[] },
  result: AnalysedQuery,
  asTyped?: string,
): Promise<{ exact: Alternative[]; typo: Alternative[] }> {
  const candidates: string[][] = [];
  const split = word.match(/[a-z]+|\d+/g) ?? [];
  if (split.length > 1) candidates.push(split);
  const parts = compoundParts(word);
  if (parts.length > 1) candidates.push(parts);
  if (candidates.length) {
    const found = await existing(candidates.map((tokens) => toTsquery([{ tokens, prefix: false }])));
    const usable = candidates.filter((_, k) => found[k]);
    // A split can exist elsewhere in the catalogue ('spul' + 'armatur' for a mistyped
    // 'Spültischarmatur'): the words one edit away are kept as typo alternatives beside it.
    if (usable.length)
      return {
        exact: usable.map((tokens) => ({ tokens, prefix: false })),
        typo: near.folded.map((t) => ({ tokens: foldedTokens(t), prefix: false })).filter((a) => a.tokens.length),
      };
  }
  let similar = near.folded.length ? near.folded : near.asTyped;
  if (!similar.length && typoCandidate(word)) {
    const parts = await partNeighbours(asTyped ? [word, asTyped] : [word]);
    similar = parts.map((p) => p.folded);
    for (const p of parts) (result.partSpellings ??= new Map()).set(p.folded, p.display);
  }
  if (!similar.length && typoCandidate(word) && word.length >= SIMILAR_MIN_LENGTH) {
    const rows = await repo.similarTerms(pool, word, TYPO_SIMILARITY, MAX_ALTERNATIVES);
    similar = rows.map((r) => r.folded);
  }
  const typo = similar.map((t) => ({ tokens: foldedTokens(t), prefix: false })).filter((a) => a.tokens.length);
  if (!typo.length) {
    (result.unmatched ??= []).push(word);
    return { exact: [{ tokens: [word], prefix: false }], typo: [] }; // no match: the search is empty
  }
  result.corrections.push({ from: word, to: similar });
  return { exact: [], typo };
}

/**
 * Catalogue words (search_terms) exactly one edit away from each word – insertion, deletion,
 * substitution or transposition of neighbours, anywhere in the word – through the deletion index
 * of migration 0110; the candidates are confirmed here (optimal string alignment distance 1).
 */
export async function oneEditNeighbours(pool: pg.Pool, words: string[]): Promise<Map<string, string[]>> {
  const unique = [...new Set(words)];
  if (!unique.length) return new Map();
  return neighboursOfCandidates(await repo.oneEditCandidates(pool, unique));
}

/**
 * The one-edit neighbours per word from the deletion index's candidates (repo.oneEditCandidates' rows, in its order):
 * the candidates confirmed one edit apart, at most MAX_TYPO_ALTERNATIVES per word.
 */
export function neighboursOfCandidates(rows: { word: string; folded: string }[]): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const r of rows) {
    if (r.folded === r.word || !oneEditApart(r.word, r.folded)) continue;
    const list = result.get(r.word) ?? [];
    if (list.length < MAX_TYPO_ALTERNATIVES) list.push(r.folded);
    result.set(r.word, list);
  }
  return result;
}

/** Hyphenated catalogue words read per typo at most (the most frequent first): enough for the few parts kept. */
const PART_CANDIDATES = 200;

/**
 * Parts of hyphenated catalogue words exactly one edit away from a word that matches nothing, in any of its
 * spellings (folded, as typed) ('kombitehrme' →
 * 'kombitherme' of 'Brennwert-Kombitherme', 'stnad' → 'stand' of 'Stand-WC'): search_terms holds those words whole,
 * so the one-edit lookup of whole words does not see their parts (migration 0530 indexes the parts' deletions). The
 * most frequent first, with the catalogue's display spelling of the part.
 */
export async function oneEditParts(pool: pg.Pool, spellings: string[]): Promise<PartNeighbour[]> {
  const found = new Map<string, { display: string; count: number }>();
  for (const row of await repo.partEditCandidates(pool, spellings, PART_CANDIDATES)) {
    const folded = row.folded.split(/[^a-z0-9]+/).filter(Boolean);
    const shown = row.term.split(/[^\p{L}\d]+/u).filter(Boolean);
    folded.forEach((part, k) => {
      if (!spellings.some((word) => oneEditApart(word, part))) return;
      const entry = found.get(part) ?? { display: shown.length === folded.length ? shown[k] : part, count: 0 };
      entry.count += row.doc_count;
      found.set(part, entry);
    });
  }
  return [...found]
    .sort(([a, x], [b, y]) => y.count - x.count || (a < b ? -1 : 1))
    .slice(0, MAX_ALTERNATIVES)
    .map(([folded, { display }]) => ({ folded, display }));
}

/** Whether a and b differ by exactly one insertion, deletion, substitution or swap of neighbours. */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // transposition
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1) === short.slice(i); // insertion / deletion
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
async function sqlMatches(pool: pg.Pool, queries: string[]): Promise<(boolean | null)[]> {
  const rows = await repo.tsqueryMatches(pool, queries);
  const byOrd = new Map(rows.map((r) => [Number(r.ord), r.empty ? null : r.found]));
  return queries.map((_, i) => byOrd.get(i + 1) ?? false);
}

const isCodeLike = (code: string) => code.length >= 4 && /\d/.test(code);

/** Exact matches of GTIN, manufacturer, supplier and catalogue article numbers, per code. */
async function findCodes(pool: pg.Pool, codes: string[]): Promise<Map<string, number[]>> {
  const rows = await repo.codeMatches(pool, codes);
  const byCode = new Map<string, number[]>();
  for (const r of rows) byCode.set(r.code, [...(byCode.get(r.code) ?? []), r.id]);
  return byCode;
}

/** Number search: exact and prefix matches of the article numbers. */
async function findByCode(pool: pg.Pool, codes: string[], prefix: boolean): Promise<number[]> {
  const code = codes[0];
  if (!code || code.length < 4) return [];
  const pattern = `${code.replace(/[%_]/g, '')}%`;
  const rows = await repo.idsByCode(pool, code, pattern, prefix);
  return rows.map((r) => r.id);
}
