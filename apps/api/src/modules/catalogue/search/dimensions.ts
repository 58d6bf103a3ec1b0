/**
 * Dimension tokens of SHK searches – thread sizes (1/2", 1 1/4"), nominal widths (DN15, DN 15),
 * pipe dimensions (15x1, 15 x 1,0 mm) and diameters (Ø 20, Ø20 mm) – are recognised in the search
 * term and matched against the products' ETIM feature values (the search rows' feature slots
 * f1…f8), not as loose words: "Kupferrohr 15x1" finds the copper pipes with outer diameter 15 and
 * wall 1 mm, not every product with a '15' and a '1' somewhere in its texts.
 *
 * Features are found by their description (Nennweite/DN, Außendurchmesser, Wandstärke,
 * Anschlussgröße/Gewinde), so imported ETIM catalogues are covered as well. Products of classes
 * without such a feature are matched by the dimension as a phrase in their texts ("DN 125" in the
 * name of a ventilation duct).
 */
import type { CatalogueMeta } from '../catalogue-meta.ts';

/** One recognised dimension: products must match it (AND with the words of the term). */
export interface DimensionMatch {
  /** As the user wrote it, trimmed ("DN15", "15x1"). */
  text: string;
  /** Classes that have every feature of the dimension, grouped by the slots the features sit in. */
  groups: { classes: number[]; tests: { slot: number; values: number[] }[] }[];
  /** Phrase for products of the other classes (phraseto_tsquery text), e.g. "DN 15". */
  phrase: string;
}

const num = String.raw`\d{1,4}(?:[.,]\d{1,2})?`;
const INCH = String.raw`(?:"|″|''|“|”|\s?[Zz]oll\b)`;
const PATTERNS: { kind: 'thread' | 'dn' | 'pipe' | 'diameter'; re: RegExp }[] = [
  // 1 1/4", 1/2", 2" (and Zoll); not after a letter: 'M28 x 1,5' and 'G1/2' are thread names, searched as words
  {
    kind: 'thread',
    re: new RegExp(
      String.raw`(?<![\p{L}\d/])(?:(\d)\s+)?(\d{1,2})/(\d{1,2})${INCH}|(?<![\p{L}\d/.,])(\d)${INCH}`,
      'gu',
    ),
  },
  { kind: 'dn', re: new RegExp(String.raw`\bDN\s?(\d{1,4})\b`, 'giu') },
  { kind: 'pipe', re: new RegExp(String.raw`(?<![\p{L}\d.,])(${num})\s?[x×]\s?(${num})(?:\s?mm\b)?(?![\d.,])`, 'giu') },
  { kind: 'diameter', re: new RegExp(String.raw`[Øø⌀]\s?(${num})(?:\s?mm\b)?(?![\d.,])`, 'gu') },
];

const toNumber = (s: string) => Number(s.replace(',', '.'));

/** Finds the features of the catalogue by what they describe. */
function featuresLike(meta: CatalogueMeta, pattern: RegExp, kind: 'N' | 'A') {
  return [...meta.features.values()].filter((f) => f.kind === kind && pattern.test(f.description));
}

const DN = /nennweite|\bDN\b/i;
const OUTER_DIAMETER = /durchmesser/i;
const WALL = /wandst(ä|ae|a)rke/i;
const THREAD = /anschlussgr(ö|oe|o)(ß|ss)e|gewinde/i;

/**
 * Removes the dimension tokens from the term and returns them with the feature tests they stand
 * for. Tokens the catalogue has no feature for are matched as phrases only.
 */
export function extractDimensions(term: string, meta: CatalogueMeta): { rest: string; dimensions: DimensionMatch[] } {
  const dimensions: DimensionMatch[] = [];
  let rest = term;
  for (const { kind, re } of PATTERNS) {
    rest = rest.replace(re, (match, ...g: (string | undefined)[]) => {
      let features: { featureIds: string[]; values: (number | string)[] }[];
      let phrase: string;
      if (kind === 'thread') {
        const [whole, numerator, denominator, inches] = g;
        const text = inches ? `${inches}"` : `${whole ? `${whole} ` : ''}${numerator}/${denominator}"`;
        features = [{ featureIds: featuresLike(meta, THREAD, 'A').map((f) => f.id), values: [text] }];
        phrase = text;
      } else if (kind === 'dn') {
        features = [{ featureIds: featuresLike(meta, DN, 'N').map((f) => f.id), values: [Number(g[0])] }];
        phrase = `DN ${Number(g[0])}`;
      } else if (kind === 'pipe') {
        const [d, w] = [toNumber(g[0]!), toNumber(g[1]!)];
        features = [
          { featureIds: featuresLike(meta, OUTER_DIAMETER, 'N').map((f) => f.id), values: [d] },
          { featureIds: featuresLike(meta, WALL, 'N').map((f) => f.id), values: [w] },
        ];
        phrase = `${g[0]} x ${g[1]}`;
      } else {
        features = [
          { featureIds: featuresLike(meta, OUTER_DIAMETER, 'N').map((f) => f.id), values: [toNumber(g[0]!)] },
        ];
        phrase = `${g[0]} mm`;
      }
      dimensions.push({ text: match.trim(), groups: groupsOf(meta, features), phrase });
      return ' ';
    });
  }
  return { rest: rest.replace(/\s+/g, ' ').trim(), dimensions };
}

/**
 * Per class that has one feature of every part (e.g. diameter and wall), the slots to test. An
 * alphanumeric value is compared by its value number(s) (several value ids may share a text).
 */
function groupsOf(
  meta: CatalogueMeta,
  parts: { featureIds: string[]; values: (number | string)[] }[],
): DimensionMatch['groups'] {
  const valueNos = (text: string) =>
    [...meta.values.values()].filter((v) => normaliseThread(v.description) === text).map((v) => v.no);
  const byKey = new Map<string, { classes: number[]; tests: { slot: number; values: number[] }[] }>();
  for (const classNo of meta.classes.keys()) {
    const tests: { slot: number; values: number[] }[] = [];
    for (const part of parts) {
      const feature = part.featureIds.map((id) => meta.features.get(id)!).find((f) => f.slotByClass.has(classNo));
      if (!feature) break;
      const values = part.values.flatMap((v) => (typeof v === 'string' ? valueNos(v) : [v]));
      tests.push({ slot: feature.slotByClass.get(classNo)!, values });
    }
    if (tests.length !== parts.length) continue;
    const key = JSON.stringify(tests);
    const group = byKey.get(key) ?? { classes: [], tests };
    group.classes.push(classNo);
    byKey.set(key, group);
  }
  return [...byKey.values()];
}

/** 1/2 Zoll, 1/2'' and 1/2" are the same value text. */
const normaliseThread = (text: string) =>
  text
    .replace(/\s*(''|″|“|”|[Zz]oll)$/, '"')
    .replace(/\s+/g, ' ')
    .trim();
