/** German text building blocks for descriptions, marketing texts and notes of use. */
import type { Domain } from './assortment.ts';
import type { Rng } from './random.ts';

const usage: Record<Domain, readonly string[]> = {
  sanitaer: [
    'Für den Einsatz in privaten und öffentlichen Sanitärräumen.',
    'Geeignet für Trinkwasserinstallationen nach DIN EN 806 und DIN 1988.',
    'Ideal für Neubau und Badsanierung.',
    'Mit wassersparender Technik für einen geringeren Verbrauch.',
  ],
  kueche: [
    'Für Küchen im Wohnungsbau und in gewerblichen Küchen.',
    'Passend zu Standard-Küchenunterschränken.',
    'Pflegeleichte Oberfläche für den täglichen Gebrauch.',
  ],
  heizung: [
    'Für Warmwasser-Heizungsanlagen nach DIN EN 12828.',
    'Geeignet für Neubau und Modernisierung von Heizungsanlagen.',
    'Für den Einsatz in Ein- und Mehrfamilienhäusern.',
    'Optimiert für den hydraulischen Abgleich.',
  ],
  installation: [
    'Für Trinkwasser- und Heizungsinstallationen.',
    'DVGW-geprüft für den Einsatz in der Trinkwasserinstallation.',
    'Für die fachgerechte Haustechnik-Installation.',
  ],
  rohre: [
    'Für Trinkwasser-, Heizungs- und Solarinstallationen.',
    'Systemgeprüft in Kombination mit den passenden Systemkomponenten.',
    'Für sichere und dauerhaft dichte Verbindungen.',
  ],
  klima: [
    'Für Wohngebäude und kleine Gewerbeeinheiten.',
    'Für ein gesundes Raumklima bei geringem Energieverbrauch.',
    'Geeignet für Neubau und Sanierung nach GEG.',
  ],
  werkzeug: [
    'Für den professionellen Einsatz auf der Baustelle.',
    'Robuste Ausführung für den täglichen Handwerkereinsatz.',
    'Ergonomisch gestaltet für ermüdungsfreies Arbeiten.',
  ],
};

const marketing = [
  'Qualität, die überzeugt – entwickelt und geprüft für jahrzehntelangen Einsatz.',
  'Schnelle und sichere Montage spart wertvolle Zeit auf der Baustelle.',
  'Ausgezeichnetes Design trifft auf durchdachte Technik.',
  'Nachhaltig produziert und vollständig recycelbar verpackt.',
  'Mit 5 Jahren Herstellergarantie bei Installation durch den Fachhandwerker.',
  'Das System für Profis: kompatibel, zuverlässig, sofort lieferbar.',
  'Entwickelt mit Installateuren für Installateure.',
  'Energieeffizient und wirtschaftlich im Betrieb.',
];

const notes = [
  'Einbau und Inbetriebnahme nur durch einen Fachhandwerksbetrieb.',
  'Vor der Montage die Montageanleitung beachten.',
  'Nur mit Original-Systemkomponenten verwenden.',
  'Vor Frost schützen. Nicht für den Außenbereich geeignet.',
  'Bei der Installation die anerkannten Regeln der Technik beachten.',
];

/** Two different sentences of a pool. */
function twoOf(rng: Rng, pool: readonly string[]): string {
  const first = rng.int(0, pool.length - 1);
  const second = (first + rng.int(1, pool.length - 1)) % pool.length;
  return `${pool[first]} ${pool[second]}`;
}

export function description(
  rng: Rng,
  domain: Domain,
  parts: { type: string; brand: string; series: string; features: string },
): string {
  return `${parts.type} der Serie ${parts.series} von ${parts.brand}. ${parts.features}. ${twoOf(rng, usage[domain])}`;
}

export const marketingText = (rng: Rng) => twoOf(rng, marketing);
export const noteOfUse = (rng: Rng) => rng.pick(notes);
