/**
 * ETIM-like feature library of the generated catalogue. Ids look like ETIM (EF…/EV…) but are our
 * own; a class (see assortment.ts) picks 3–8 of these, optionally with its own value list.
 */
export type FeatureKind = 'N' | 'A';

export interface FeatureDef {
  id: string;
  name: string;
  kind: FeatureKind;
  /** Unit code (units table) of a numeric feature. */
  unit?: string;
  values: readonly (number | string)[];
}

const yesNo = ['ja', 'nein'];
const threads = ['3/8"', '1/2"', '3/4"', '1"', '1 1/4"', '1 1/2"', '2"'];

export const featureLibrary = {
  dn: { id: 'EF000008', name: 'Nennweite (DN)', kind: 'N', values: [10, 15, 20, 25, 32, 40, 50] },
  thread: { id: 'EF000016', name: 'Anschlussgröße', kind: 'A', values: threads },
  material: {
    id: 'EF000001',
    name: 'Werkstoff',
    kind: 'A',
    values: ['Messing', 'Rotguss', 'Edelstahl', 'Kupfer', 'Kunststoff'],
  },
  surface: {
    id: 'EF000002',
    name: 'Oberfläche',
    kind: 'A',
    values: ['verchromt', 'vernickelt', 'roh', 'weiß lackiert', 'schwarz matt', 'edelstahlfarben gebürstet'],
  },
  colour: {
    id: 'EF000003',
    name: 'Farbe',
    kind: 'A',
    values: ['weiß', 'chrom', 'schwarz', 'anthrazit', 'edelstahl', 'manhattan'],
  },
  length: {
    id: 'EF000010',
    name: 'Länge',
    kind: 'N',
    unit: 'MMT',
    values: [200, 300, 400, 500, 600, 800, 1000, 1200, 1400, 1600, 1800, 2000],
  },
  width: {
    id: 'EF000011',
    name: 'Breite',
    kind: 'N',
    unit: 'MMT',
    values: [300, 400, 450, 500, 550, 600, 700, 800, 900, 1000, 1200],
  },
  height: {
    id: 'EF000012',
    name: 'Höhe',
    kind: 'N',
    unit: 'MMT',
    values: [300, 400, 500, 600, 700, 900, 1100, 1200, 1500, 1800],
  },
  diameter: {
    id: 'EF000013',
    name: 'Außendurchmesser',
    kind: 'N',
    unit: 'MMT',
    values: [12, 15, 16, 18, 20, 22, 26, 28, 32, 35, 42, 54],
  },
  wall: { id: 'EF000014', name: 'Wandstärke', kind: 'N', unit: 'MMT', values: [0.8, 1, 1.2, 1.5, 2, 2.25, 3] },
  pressure: { id: 'EF000015', name: 'Nenndruck', kind: 'N', unit: 'BAR', values: [3, 6, 10, 16, 25, 40] },
  power: {
    id: 'EF000020',
    name: 'Leistung',
    kind: 'N',
    unit: 'WTT',
    values: [5, 8, 15, 25, 45, 60, 90, 150, 250, 400],
  },
  heatOutput: {
    id: 'EF000021',
    name: 'Nennwärmeleistung',
    kind: 'N',
    unit: 'KWT',
    values: [3.5, 5, 7, 9, 11, 14, 16, 20, 24, 30, 35],
  },
  heatOutputW: {
    id: 'EF000022',
    name: 'Wärmeleistung (75/65/20)',
    kind: 'N',
    unit: 'WTT',
    values: [250, 400, 550, 700, 900, 1100, 1400, 1800, 2200, 2800],
  },
  voltage: { id: 'EF000023', name: 'Nennspannung', kind: 'N', unit: 'VLT', values: [12, 18, 24, 230, 400] },
  flow: { id: 'EF000024', name: 'Durchfluss', kind: 'N', unit: 'L2', values: [5, 6, 7.5, 9, 12, 15, 20, 30] },
  airflow: {
    id: 'EF000025',
    name: 'Luftvolumenstrom',
    kind: 'N',
    unit: 'MQH',
    values: [60, 95, 120, 180, 250, 350, 450, 600],
  },
  noise: { id: 'EF000026', name: 'Schalldruckpegel', kind: 'N', unit: '2N', values: [22, 26, 30, 35, 40, 45, 52] },
  volume: {
    id: 'EF000027',
    name: 'Nenninhalt',
    kind: 'N',
    unit: 'LTR',
    values: [8, 12, 18, 25, 35, 50, 80, 120, 150, 200, 300, 400, 500, 800, 1000],
  },
  shape: {
    id: 'EF000028',
    name: 'Bauform',
    kind: 'A',
    values: ['Eckform', 'Durchgangsform', 'Axialform', 'Winkeleckform'],
  },
  connection: {
    id: 'EF000029',
    name: 'Anschlussart',
    kind: 'A',
    values: ['Pressanschluss', 'Innengewinde', 'Außengewinde', 'Lötanschluss', 'Klemmring', 'Steckanschluss'],
  },
  pressProfile: {
    id: 'EF000030',
    name: 'Pressprofil',
    kind: 'A',
    values: ['V-Kontur', 'M-Kontur', 'TH-Kontur', 'U-Kontur', 'SA-Kontur'],
  },
  angle: { id: 'EF000031', name: 'Winkel', kind: 'N', unit: 'DD', values: [15, 30, 45, 87, 90] },
  energyClass: {
    id: 'EF000032',
    name: 'Energieeffizienzklasse',
    kind: 'A',
    values: ['A+++', 'A++', 'A+', 'A', 'B', 'C'],
  },
  mounting: {
    id: 'EF000033',
    name: 'Montageart',
    kind: 'A',
    values: ['Wandmontage', 'Standmontage', 'Deckenmontage', 'Unterputz', 'Aufputz'],
  },
  radiatorType: {
    id: 'EF000034',
    name: 'Heizkörpertyp',
    kind: 'A',
    values: ['Typ 10', 'Typ 11', 'Typ 20', 'Typ 21', 'Typ 22', 'Typ 33'],
  },
  projection: {
    id: 'EF000035',
    name: 'Ausladung',
    kind: 'N',
    unit: 'MMT',
    values: [100, 120, 150, 170, 200, 220, 250],
  },
  spray: {
    id: 'EF000036',
    name: 'Strahlart',
    kind: 'A',
    values: ['Normalstrahl', 'Regenstrahl', 'Massagestrahl', 'Softstrahl', 'Kaskadenstrahl'],
  },
  flush: { id: 'EF000037', name: 'Spülmenge', kind: 'N', unit: 'LTR', values: [3, 4.5, 6, 9] },
  refrigerant: { id: 'EF000038', name: 'Kältemittel', kind: 'A', values: ['R32', 'R290', 'R410A', 'R454B'] },
  maxTemp: {
    id: 'EF000039',
    name: 'Max. Betriebstemperatur',
    kind: 'N',
    unit: 'CEL',
    values: [60, 70, 90, 95, 110, 120],
  },
  head: { id: 'EF000040', name: 'Förderhöhe', kind: 'N', unit: 'MTR', values: [4, 6, 7, 8, 10, 12] },
  cutRange: {
    id: 'EF000041',
    name: 'Schneidbereich bis',
    kind: 'N',
    unit: 'MMT',
    values: [22, 28, 35, 42, 54, 67, 110],
  },
  batteryVoltage: { id: 'EF000042', name: 'Akkuspannung', kind: 'N', unit: 'VLT', values: [10.8, 12, 18, 22] },
  measuringRange: { id: 'EF000043', name: 'Messbereich bis', kind: 'N', unit: 'BAR', values: [2.5, 4, 6, 10, 16, 25] },
  insulation: { id: 'EF000044', name: 'Dämmdicke', kind: 'N', unit: 'MMT', values: [6, 9, 13, 19, 20, 25, 30] },
  protection: { id: 'EF000045', name: 'Schutzart', kind: 'A', values: ['IPX4', 'IP44', 'IP54', 'IP65'] },
  presettable: { id: 'EF000046', name: 'Voreinstellbar', kind: 'A', values: yesNo },
  pipeLength: { id: 'EF000047', name: 'Lieferlänge', kind: 'N', unit: 'MTR', values: [2.5, 3, 5, 25, 50, 100, 200] },
  circuits: { id: 'EF000048', name: 'Anzahl Heizkreise', kind: 'N', values: [2, 3, 4, 5, 6, 8, 10, 12] },
  spout: { id: 'EF000049', name: 'Auslauf', kind: 'A', values: ['schwenkbar', 'herausziehbar', 'fest'] },
  temper: { id: 'EF000050', name: 'Lieferzustand', kind: 'A', values: ['hart', 'halbhart', 'weich'] },
  sensorThread: {
    id: 'EF000051',
    name: 'Ventilanschluss',
    kind: 'A',
    values: ['M30 x 1,5', 'Klemmanschluss RA', 'M28 x 1,5'],
  },
  zeroPosition: { id: 'EF000052', name: 'Nullstellung', kind: 'A', values: yesNo },
  columns: { id: 'EF000053', name: 'Säulenanzahl', kind: 'N', values: [2, 3, 4, 5, 6] },
  connectionPosition: {
    id: 'EF000054',
    name: 'Anschlussposition',
    kind: 'A',
    values: ['Seitenanschluss', 'Mittenanschluss', 'Anschluss unten'],
  },
  coolingOutput: { id: 'EF000055', name: 'Nennkühlleistung', kind: 'N', unit: 'KWT', values: [2.5, 3.5, 5, 7.1, 10] },
  drillDiameter: {
    id: 'EF000056',
    name: 'Bohrdurchmesser',
    kind: 'N',
    unit: 'MMT',
    values: [8, 12, 52, 68, 82, 107, 132, 162],
  },
  suitableFor: {
    id: 'EF000057',
    name: 'Geeignet für',
    kind: 'A',
    values: ['Kupfer', 'Edelstahl', 'Kunststoff', 'Verbundrohr', 'C-Stahl'],
  },
  spanWidth: { id: 'EF000058', name: 'Spannweite', kind: 'N', unit: 'MMT', values: [36, 42, 50, 60, 70, 80] },
  ceramic: {
    id: 'EF000059',
    name: 'Werkstoff Becken',
    kind: 'A',
    values: ['Sanitärkeramik', 'Mineralguss', 'Edelstahl', 'Granit-Verbundwerkstoff'],
  },
  inlet: { id: 'EF000060', name: 'Zulauf', kind: 'A', values: ['verdeckt', 'von oben', 'von hinten'] },
  accuracy: { id: 'EF000061', name: 'Genauigkeitsklasse', kind: 'A', values: ['1,0', '1,6', '2,5'] },
} as const satisfies Record<string, FeatureDef>;

export type FeatureKey = keyof typeof featureLibrary;
