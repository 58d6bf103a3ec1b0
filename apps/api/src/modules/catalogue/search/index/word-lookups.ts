/**
 * The query analyser's lookups in Postgres gathered into one statement. An analysis asks for the normalisation of its
 * new words (to check which of its texts match) and for the one-edit neighbours of its new words at the same moment
 * (Promise.all in analyseTerm); the tiers' texts then need the neighbours' own normalisation, and an analysis starts
 * with the lookup of its article numbers. Asked one by one these were up to four round trips – each a loopback write
 * that wakes a backend. The requests made in one turn of the event loop – one search's, and those of the other
 * searches whose requests or answers arrived in the same turn – are sent as one statement (wordLookups), which also
 * normalises the neighbours' tokens and hands them to the word normaliser's dictionary before they are asked for.
 * Each answer is exactly what its statement of its own gives (word-lookups.test.ts).
 */
import type pg from 'pg';
import { neighboursOfCandidates } from '../query-analyser.ts';
import { normaliseQueryTexts, wordLookups } from './search-index.repo.ts';

interface Pending {
  normalise: Set<string>;
  neighbours: Set<string>;
  /** One entry per call of codes(): each search's codes keep their own statement's limit. */
  codeGroups: string[][];
  done: Promise<{
    queries: Map<string, string>;
    neighbours: Map<string, string[]>;
    /** The catalogue's spelling of every candidate (search_terms.term by folded). */
    spellings: Map<string, string>;
    /** Per code group: the matching products per code. */
    codes: Map<string, number[]>[];
  }>;
}

export class WordLookups {
  private pending: Pending | null = null;

  /**
   * pool: the pool to ask; tokens: receives the normalisation (to_tsquery text) of the neighbour candidates' tokens,
   * a dictionary's entries like the words' own.
   */
  constructor(
    private readonly pool: () => pg.Pool,
    private readonly tokens: (normalised: Map<string, string>) => void,
  ) {}

  /** to_tsquery('german_unaccent', word)::text of each word, in order. */
  async normalise(words: string[]): Promise<string[]> {
    const batch = this.batch();
    for (const w of words) batch.normalise.add(w);
    const { queries } = await batch.done;
    return words.map((w) => queries.get(w)!);
  }

  /**
   * The catalogue words one edit away from each word (as oneEditNeighbours), with the catalogue's spelling of each
   * of them (as termSpellings).
   */
  async neighbours(words: string[]): Promise<{ neighbours: Map<string, string[]>; spellings: Map<string, string> }> {
    const batch = this.batch();
    for (const w of words) batch.neighbours.add(w);
    const found = await batch.done;
    const neighbours = new Map(words.flatMap((w) => (found.neighbours.has(w) ? [[w, found.neighbours.get(w)!]] : [])));
    const spellings = new Map(
      [...neighbours.values()].flat().map((folded) => [folded, found.spellings.get(folded)!] as [string, string]),
    );
    return { neighbours, spellings };
  }

  /** The products whose GTIN or article number equals each code (as codeMatches: ids ascending, at most 2,000). */
  async codes(codes: string[]): Promise<Map<string, number[]>> {
    const batch = this.batch();
    const group = batch.codeGroups.push(codes) - 1;
    return (await batch.done).codes[group];
  }

  /**
   * The batch of this turn of the event loop: sent in its check phase (setImmediate), after the I/O callbacks of the
   * turn – under load several searches' lookups share the statement (measured: 0.43 → 0.27 lookup statements per
   * search with 8 clients, API and Postgres CPU per search lower, docs/performance.md).
   */
  private batch(): Pending {
    if (this.pending) return this.pending;
    const batch: Pending = {
      normalise: new Set(),
      neighbours: new Set(),
      codeGroups: [],
      done: new Promise((resolve, reject) =>
        setImmediate(() => {
          if (this.pending === batch) this.pending = null;
          this.send(batch).then(resolve, reject);
        }),
      ),
    };
    this.pending = batch;
    return batch;
  }

  private async send(batch: Pending): Promise<Awaited<Pending['done']>> {
    const words = [...batch.normalise];
    const neighbourWords = [...batch.neighbours];
    if (!words.length && !neighbourWords.length && !batch.codeGroups.length)
      return { queries: new Map(), neighbours: new Map(), spellings: new Map(), codes: [] };
    // Normalisation only (the neighbours already known): its own statement, the word lookup's without the joins.
    const rows =
      neighbourWords.length || batch.codeGroups.length
        ? await wordLookups(this.pool(), words, neighbourWords, batch.codeGroups)
        : {
            queries: (await normaliseQueryTexts(this.pool(), words, [])).queries,
            candidates: [],
            candidateTokens: [],
            codes: [],
          };
    const codes = batch.codeGroups.map(() => new Map<string, number[]>());
    for (const { group, code, id } of rows.codes) {
      const ids = codes[group].get(code);
      if (ids) ids.push(id);
      else codes[group].set(code, [id]);
    }
    if (rows.candidateTokens.length) this.tokens(new Map(rows.candidateTokens.map((t) => [t.token, t.query])));
    return {
      queries: new Map(words.map((w, k) => [w, rows.queries[k]])),
      neighbours: neighboursOfCandidates(rows.candidates),
      spellings: new Map(rows.candidates.map((c) => [c.folded, c.term])),
      codes,
    };
  }
}
