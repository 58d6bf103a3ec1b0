/**
 * Dictionary decompounding for German product words ("Thermostatventil" → thermostat + ventil),
 * the same idea as Elasticsearch's dictionary_decompounder: the indexer adds the parts of every
 * name word to the name field, so the part word 'ventil' finds 'Thermostatventil' through the
 * full-text index instead of a slow substring scan. Words are folded (see fold.ts).
 */
export const PART_WORDS = `
abfluss abgas ablauf abschneider absperr abwasser abzweig akku antrieb anschluss armatur aufputz ausdehnung
automatik backe bad batterie becken bieger bogen bohr boden brause brenner brennwert chrom dach dammung dampf design
dichtung druck dusch eck einbau einhebel element entgrater entlufter entluftung fein fern filter fitting flach
flachen flex fluss formteil frischwasser fuhler funk fussboden gabel gefass gerat gewinde gitter glieder griff
gruppe hahn hammer hand handtuch hartlot haus hebel heiz heizkorper heizkreis heizung hocheffizienz hygiene
installation isolier isolierung kalibrier kalte kaltemittel kappe kasten kautschuk kern kessel klemm klima
kombi kompakt kondensat konsole kopf krone kuche kupfer leckage leitung loser lot luft luftung manometer
maschine mehrschicht membran messing mess meter minderer mischer montage muffe nippel ofen pellet plan platte
press prufpumpe puffer pumpe radiator raum regen regler reduzier reinigung ring rinne rohr ruckfluss ruckspul
schelle schiene schlauch schlinge schlussel schneider schrag schrauber schraub sicherheit siphon sitz sole
solar speicher spul spule spultisch stahl stange station stell stopfen stuck system tauscher teller therme
thermometer thermostat tiefspul trenner trinkwasser ubergang umwalz unterputz unterteil urinal ventil
ventilator verbund verhinderer verschraubung verteiler vorwand wand wanne warme warmwasser waschtisch wasser
wasserpumpe weichlot werkzeug wickelfalz winkel zange zirkulation
`
  .trim()
  .split(/\s+/);

const MIN_PART = 4;
const dictionary = new Set(PART_WORDS.filter((w) => w.length >= MIN_PART));
const maxPartLength = Math.max(...[...dictionary].map((w) => w.length));

/**
 * Parts of one folded word by greedy longest match from the left ("rohrventilator" → rohr +
 * ventilator, not ventil). Returns [] when the word is not a compound of at least two parts
 * (a single dictionary word is already indexed as itself).
 */
export function compoundParts(word: string): string[] {
  if (word.length < MIN_PART * 2) return [];
  let parts = cache.get(word);
  if (!parts) {
    if (cache.size > 200_000) cache.clear();
    parts = split(word);
    cache.set(word, parts);
  }
  return parts;
}

/** Product vocabularies are small and repetitive: remember each word's split. */
const cache = new Map<string, string[]>();

function split(word: string): string[] {
  const parts: string[] = [];
  let i = 0;
  while (i <= word.length - MIN_PART) {
    let match = '';
    for (let len = Math.min(maxPartLength, word.length - i); len >= MIN_PART; len--) {
      const candidate = word.slice(i, i + len);
      if (dictionary.has(candidate)) {
        match = candidate;
        break;
      }
    }
    if (match) {
      parts.push(match);
      i += match.length;
    } else i += 1;
  }
  return parts.length === 1 && parts[0] === word ? [] : parts;
}
