/**
 * The generated SHK assortment: product tree (root SHKMARKET), one ETIM-like class per leaf with
 * 3–8 features, German compound product types and name patterns. Pure data; generate.ts draws
 * products from it.
 */
import type { FeatureKey } from './features.ts';

export type Domain = 'sanitaer' | 'heizung' | 'installation' | 'rohre' | 'klima' | 'werkzeug' | 'kueche';

export interface NameContext {
  type: string;
  series: string;
  /** Feature values by key (numbers or strings). */
  v: Partial<Record<FeatureKey, number | string>>;
}

export interface LeafDef {
  kind: 'leaf';
  key: string;
  name: string;
  classId: string;
  className: string;
  domain: Domain;
  /** Relative share of the catalogue. */
  weight: number;
  types: readonly string[];
  /** Feature keys; "key:1,2,3" narrows the value list for this class. */
  features: readonly string[];
  title: (c: NameContext) => string;
  /** Net list price range in EUR per price basis. */
  price: readonly [number, number];
  unit?: string;
  priceBasis?: number;
  minOrder?: number;
  packaging?: number;
  /** Depth/length, width, height in mm and weight in kg ranges. */
  size: { a: readonly [number, number]; b: readonly [number, number]; c: readonly [number, number]; kg: readonly [number, number] };
  delivery?: readonly [number, number];
  /** Probability of "price on demand". */
  onDemand?: number;
  accessories?: readonly string[];
  spareParts?: readonly string[];
  /** Offers 3D data (document type 3C). */
  cad?: boolean;
}

export interface NodeDef { kind: 'node'; key: string; name: string; children: readonly (NodeDef | LeafDef)[] }

const n = (v: number | string | undefined) => (typeof v === 'number' ? String(v).replace('.', ',') : (v ?? ''));
const join = (...parts: (string | number | undefined | false)[]) => parts.filter((p) => p !== undefined && p !== false && p !== '').join(' ');

function leaf(def: Omit<LeafDef, 'kind'>): LeafDef { return { kind: 'leaf', ...def }; }
function node(key: string, name: string, children: (NodeDef | LeafDef)[]): NodeDef { return { kind: 'node', key, name, children }; }

const small = { a: [40, 120], b: [30, 80], c: [30, 80], kg: [0.05, 0.6] } as const;
const pipeSize = { a: [2500, 5000], b: [15, 60], c: [15, 60], kg: [0.5, 8] } as const;

export const assortment: readonly NodeDef[] = [
  node('1', 'Sanitär', [
    node('1_1', 'Armaturen', [
      leaf({ key: 'waschtischarmaturen', name: 'Waschtischarmaturen', classId: 'EC011250', className: 'Waschtischarmatur', domain: 'sanitaer', weight: 3,
        types: ['Einhebel-Waschtischmischer', 'Waschtischarmatur', 'Waschtischbatterie', 'Standventil', 'Selbstschluss-Waschtischarmatur'],
        features: ['surface:verchromt,schwarz matt,edelstahlfarben gebürstet', 'projection', 'flow:5,6,7.5', 'mounting:Standmontage,Wandmontage', 'material:Messing', 'height:150,200,250,300'],
        title: (c) => join(c.type, c.series, `Ausladung ${n(c.v.projection)} mm`, c.v.surface),
        price: [45, 420], size: { a: [150, 260], b: [50, 70], c: [150, 320], kg: [0.9, 2.5] }, cad: true, spareParts: ['handbrausen'] }),
      leaf({ key: 'kuechenarmaturen', name: 'Küchenarmaturen', classId: 'EC011251', className: 'Spültischarmatur', domain: 'kueche', weight: 2,
        types: ['Spültischarmatur', 'Einhebel-Spültischmischer', 'Küchenarmatur', 'Niederdruck-Spültischarmatur'],
        features: ['surface:verchromt,schwarz matt,edelstahlfarben gebürstet', 'spout', 'projection', 'flow:6,7.5,9,12', 'height:250,300,350,400'],
        title: (c) => join(c.type, c.series, c.v.spout, c.v.surface),
        price: [60, 520], size: { a: [200, 300], b: [50, 70], c: [250, 420], kg: [1.2, 3.2] }, cad: true }),
      leaf({ key: 'brausethermostate', name: 'Brausethermostate', classId: 'EC011252', className: 'Brausethermostat', domain: 'sanitaer', weight: 2,
        types: ['Brausethermostat', 'Aufputz-Brausethermostat', 'Thermostat-Brausebatterie', 'Unterputz-Thermostat'],
        features: ['surface:verchromt,schwarz matt,weiß lackiert', 'mounting:Aufputz,Unterputz', 'flow:12,15,20', 'maxTemp:60,70', 'thread:1/2",3/4"'],
        title: (c) => join(c.type, c.series, c.v.mounting, c.v.surface),
        price: [90, 650], size: { a: [280, 360], b: [60, 90], c: [80, 140], kg: [1.5, 3.5] }, cad: true, accessories: ['handbrausen'] }),
      leaf({ key: 'wannenarmaturen', name: 'Wannenarmaturen', classId: 'EC011253', className: 'Wannenfüll- und Brausebatterie', domain: 'sanitaer', weight: 1.5,
        types: ['Wannenbatterie', 'Wannenthermostat', 'Wannenfüllarmatur', 'Wanneneinlauf'],
        features: ['surface:verchromt,schwarz matt', 'mounting:Aufputz,Unterputz,Standmontage', 'flow:15,20,30', 'thread:1/2",3/4"'],
        title: (c) => join(c.type, c.series, c.v.mounting, c.v.surface),
        price: [80, 700], size: { a: [280, 360], b: [60, 90], c: [80, 140], kg: [1.5, 3.8] } }),
    ]),
    node('1_2', 'Sanitärkeramik', [
      leaf({ key: 'wc', name: 'WCs', classId: 'EC010481', className: 'WC-Becken', domain: 'sanitaer', weight: 2,
        types: ['Wand-Tiefspül-WC', 'Wand-WC spülrandlos', 'Stand-WC', 'Tiefspül-WC', 'Dusch-WC'],
        features: ['colour:weiß,manhattan,schwarz', 'mounting:Wandmontage,Standmontage', 'flush:3,4.5,6', 'length:490,530,560,700', 'width:350,360,370', 'ceramic:Sanitärkeramik'],
        title: (c) => join(c.type, c.series, `${n(c.v.width)} x ${n(c.v.length)} mm`, c.v.colour),
        price: [95, 1200], size: { a: [490, 700], b: [350, 370], c: [340, 420], kg: [18, 30] }, delivery: [2, 10], cad: true, accessories: ['betaetigungsplatten', 'vorwandelemente'] }),
      leaf({ key: 'waschtische', name: 'Waschtische', classId: 'EC010482', className: 'Waschtisch', domain: 'sanitaer', weight: 2,
        types: ['Waschtisch', 'Handwaschbecken', 'Doppelwaschtisch', 'Möbelwaschtisch', 'Aufsatzwaschtisch'],
        features: ['width:450,500,550,600,800,1000,1200', 'length:350,400,450,480', 'colour:weiß,manhattan,anthrazit', 'ceramic:Sanitärkeramik,Mineralguss', 'mounting:Wandmontage,Standmontage'],
        title: (c) => join(c.type, c.series, `${n(c.v.width)} x ${n(c.v.length)} mm`, c.v.colour),
        price: [60, 900], size: { a: [350, 480], b: [450, 1200], c: [150, 220], kg: [9, 35] }, delivery: [2, 10], cad: true, accessories: ['waschtischarmaturen'] }),
      leaf({ key: 'urinale', name: 'Urinale', classId: 'EC010483', className: 'Urinalbecken', domain: 'sanitaer', weight: 0.6,
        types: ['Urinal', 'Absaug-Urinal', 'Urinal spülrandlos'],
        features: ['colour:weiß', 'inlet', 'flush:0.5,1,3', 'width:300,330,360', 'ceramic:Sanitärkeramik'],
        title: (c) => join(c.type, c.series, `Zulauf ${c.v.inlet}`, c.v.colour),
        price: [120, 700], size: { a: [300, 360], b: [300, 360], c: [500, 700], kg: [10, 20] }, delivery: [3, 12] }),
    ]),
    node('1_3', 'Duschen', [
      leaf({ key: 'duschsysteme', name: 'Duschsysteme und Kopfbrausen', classId: 'EC011254', className: 'Duschsystem', domain: 'sanitaer', weight: 1.5,
        types: ['Duschsystem', 'Kopfbrause', 'Regenbrause', 'Duschpaneel', 'Thermostat-Duschsystem'],
        features: ['diameter:200,250,300,400', 'spray', 'surface:verchromt,schwarz matt,edelstahlfarben gebürstet', 'flow:9,12,15', 'material:Messing,Edelstahl,Kunststoff'],
        title: (c) => join(c.type, c.series, `${n(c.v.diameter)} mm`, c.v.spray, c.v.surface),
        price: [70, 1500], size: { a: [300, 1200], b: [200, 400], c: [100, 500], kg: [1, 8] }, cad: true, accessories: ['brausethermostate'] }),
      leaf({ key: 'handbrausen', name: 'Handbrausen und Zubehör', classId: 'EC011255', className: 'Handbrause', domain: 'sanitaer', weight: 1.5,
        types: ['Handbrause', 'Brauseschlauch', 'Brausestange', 'Handbrauseset', 'Wandanschlussbogen'],
        features: ['spray', 'surface:verchromt,schwarz matt,weiß lackiert', 'length:600,900,1250,1600,2000', 'flow:6,7.5,9,12'],
        title: (c) => join(c.type, c.series, c.type.includes('schlauch') || c.type.includes('stange') ? `${n(c.v.length)} mm` : c.v.spray, c.v.surface),
        price: [12, 160], size: small }),
      leaf({ key: 'duschrinnen', name: 'Duschrinnen und Bodenabläufe', classId: 'EC011256', className: 'Duschrinne', domain: 'sanitaer', weight: 1,
        types: ['Duschrinne', 'Bodenablauf', 'Duschrinnenabdeckung', 'Wandablauf'],
        features: ['length:300,500,700,800,900,1000,1200', 'material:Edelstahl,Kunststoff', 'flow:30,45,60', 'surface:edelstahlfarben gebürstet,schwarz matt', 'height:60,70,90,110'],
        title: (c) => join(c.type, c.series, `${n(c.v.length)} mm`, c.v.surface),
        price: [35, 480], size: { a: [300, 1200], b: [70, 120], c: [60, 110], kg: [1, 6] } }),
    ]),
    node('1_4', 'Vorwandinstallation', [
      leaf({ key: 'vorwandelemente', name: 'Vorwandelemente', classId: 'EC011257', className: 'Montageelement', domain: 'sanitaer', weight: 1.2,
        types: ['WC-Element', 'Vorwandelement', 'Montageelement', 'Waschtisch-Element', 'Urinal-Element'],
        features: ['height:820,980,1120,1200', 'width:500', 'flush:6,9', 'mounting:Unterputz'],
        title: (c) => join(c.type, c.series, `Bauhöhe ${n(c.v.height)} mm`),
        price: [90, 450], size: { a: [150, 250], b: [500, 500], c: [820, 1200], kg: [8, 20] }, delivery: [2, 8], accessories: ['betaetigungsplatten'] }),
      leaf({ key: 'betaetigungsplatten', name: 'Betätigungsplatten', classId: 'EC011258', className: 'Betätigungsplatte', domain: 'sanitaer', weight: 1,
        types: ['Betätigungsplatte', 'Drückerplatte', 'Zwei-Mengen-Betätigungsplatte', 'Urinalsteuerung'],
        features: ['colour:weiß,chrom,schwarz,edelstahl', 'material:Kunststoff,Edelstahl', 'surface:verchromt,schwarz matt,weiß lackiert', 'width:220,246,250', 'height:150,165'],
        title: (c) => join(c.type, c.series, c.v.colour),
        price: [25, 320], size: { a: [10, 20], b: [220, 250], c: [150, 170], kg: [0.3, 1] } }),
      leaf({ key: 'spuelkaesten', name: 'Spülkästen', classId: 'EC011259', className: 'Spülkasten', domain: 'sanitaer', weight: 0.8,
        types: ['Unterputz-Spülkasten', 'Aufputz-Spülkasten', 'Spülkasten', 'Tiefspülkasten'],
        features: ['flush:3,6,9', 'volume:8,9,12', 'height:400,520,800', 'mounting:Aufputz,Unterputz'],
        title: (c) => join(c.type, c.series, `${n(c.v.volume)} l`),
        price: [40, 260], size: { a: [120, 180], b: [380, 500], c: [400, 800], kg: [2, 6] } }),
    ]),
    node('1_5', 'Küchenspülen', [
      leaf({ key: 'kuechenspuelen', name: 'Küchenspülen', classId: 'EC011260', className: 'Küchenspüle', domain: 'kueche', weight: 1,
        types: ['Küchenspüle', 'Einbauspüle', 'Unterbauspüle', 'Spülbecken', 'Flächenbündige Spüle'],
        features: ['ceramic:Edelstahl,Granit-Verbundwerkstoff', 'width:450,500,600,800,1000', 'length:435,500,510', 'colour:edelstahl,schwarz,anthrazit,weiß', 'mounting:Standmontage'],
        title: (c) => join(c.type, c.series, `${n(c.v.width)} x ${n(c.v.length)} mm`, c.v.ceramic),
        price: [80, 900], size: { a: [435, 510], b: [450, 1000], c: [180, 220], kg: [6, 20] }, delivery: [3, 14], accessories: ['kuechenarmaturen'] }),
    ]),
  ]),
  node('2', 'Heizung', [
    node('2_1', 'Heizkörper', [
      leaf({ key: 'kompaktheizkoerper', name: 'Kompaktheizkörper', classId: 'EC010010', className: 'Flachheizkörper', domain: 'heizung', weight: 4,
        types: ['Kompaktheizkörper', 'Ventilheizkörper', 'Planheizkörper', 'Flachheizkörper'],
        features: ['radiatorType', 'height:300,400,500,600,900', 'length:400,600,800,1000,1200,1400,1600,1800,2000', 'heatOutputW', 'colour:weiß', 'connectionPosition'],
        title: (c) => join(c.type, c.v.radiatorType, `${n(c.v.height)} x ${n(c.v.length)} mm`, c.v.colour),
        price: [70, 900], size: { a: [61, 155], b: [400, 2000], c: [300, 900], kg: [8, 60] }, delivery: [2, 12], accessories: ['thermostatventile', 'heizkoerperverschraubungen', 'thermostatkoepfe'], spareParts: ['entlueftung'] }),
      leaf({ key: 'badheizkoerper', name: 'Badheizkörper', classId: 'EC010011', className: 'Badheizkörper', domain: 'heizung', weight: 2,
        types: ['Badheizkörper', 'Handtuchheizkörper', 'Designheizkörper', 'Elektro-Badheizkörper'],
        features: ['height:800,1200,1500,1800', 'width:450,500,600,750', 'heatOutputW', 'colour:weiß,chrom,anthrazit,schwarz', 'connectionPosition:Mittenanschluss,Anschluss unten'],
        title: (c) => join(c.type, c.series, `${n(c.v.height)} x ${n(c.v.width)} mm`, c.v.colour),
        price: [110, 1400], size: { a: [30, 120], b: [450, 750], c: [800, 1800], kg: [8, 30] }, delivery: [3, 15], accessories: ['thermostatventile', 'heizkoerperverschraubungen'] }),
      leaf({ key: 'roehrenradiatoren', name: 'Röhrenradiatoren', classId: 'EC010012', className: 'Röhrenradiator', domain: 'heizung', weight: 1,
        types: ['Röhrenradiator', 'Gliederheizkörper', 'Säulenheizkörper'],
        features: ['columns', 'height:300,500,600,900,1800', 'length:400,600,800,1000', 'heatOutputW', 'colour:weiß,anthrazit'],
        title: (c) => join(c.type, `${n(c.v.columns)}-säulig`, `${n(c.v.height)} x ${n(c.v.length)} mm`, c.v.colour),
        price: [150, 1600], size: { a: [60, 230], b: [400, 1000], c: [300, 1800], kg: [10, 70] }, delivery: [5, 20] }),
    ]),
    node('2_2', 'Heizkörperarmaturen', [
      leaf({ key: 'thermostatventile', name: 'Thermostatventile', classId: 'EC010996', className: 'Thermostatventil', domain: 'heizung', weight: 3,
        types: ['Thermostatventil', 'Thermostatventilunterteil', 'Ventilunterteil', 'Heizkörperventil', 'Ventileinsatz'],
        features: ['dn:10,15,20', 'shape', 'surface:vernickelt,verchromt,weiß lackiert', 'presettable', 'thread:3/8",1/2",3/4"', 'material:Messing,Rotguss'],
        title: (c) => join(c.type, c.v.shape, `DN ${n(c.v.dn)}`, c.v.surface),
        price: [9, 85], size: small, cad: true, accessories: ['thermostatkoepfe'], spareParts: ['heizkoerperverschraubungen'] }),
      leaf({ key: 'thermostatkoepfe', name: 'Thermostatköpfe', classId: 'EC010997', className: 'Thermostatkopf', domain: 'heizung', weight: 2,
        types: ['Thermostatkopf', 'Fühlerelement', 'Thermostatkopf mit Fernfühler', 'Smart-Thermostatkopf', 'Behördenmodell-Thermostatkopf'],
        features: ['sensorThread', 'colour:weiß,chrom,schwarz', 'zeroPosition', 'maxTemp:28,30'],
        title: (c) => join(c.type, c.series, c.v.sensorThread, c.v.colour),
        price: [8, 90], size: small, accessories: ['thermostatventile'] }),
      leaf({ key: 'heizkoerperverschraubungen', name: 'Heizkörperverschraubungen', classId: 'EC010998', className: 'Heizkörperverschraubung', domain: 'heizung', weight: 2.5,
        types: ['Heizkörperverschraubung', 'Rücklaufverschraubung', 'Hahnblock', 'Anschlussverschraubung', 'Heizkörperanschlussgarnitur'],
        features: ['dn:10,15,20', 'shape:Eckform,Durchgangsform', 'surface:vernickelt,verchromt,weiß lackiert', 'connection:Innengewinde,Außengewinde,Klemmring', 'thread:3/8",1/2",3/4"'],
        title: (c) => join(c.type, c.v.shape, `DN ${n(c.v.dn)}`, c.v.thread, c.v.surface),
        price: [7, 75], size: small, cad: true, accessories: ['klemmverschraubungen'] }),
      leaf({ key: 'entlueftung', name: 'Entlüftung', classId: 'EC010999', className: 'Entlüftungsventil', domain: 'heizung', weight: 1.2,
        types: ['Entlüftungsventil', 'Schnellentlüfter', 'Heizkörperentlüfter', 'Automatikentlüfter', 'Luftabscheider'],
        features: ['thread:3/8",1/2",3/4"', 'material:Messing', 'surface:vernickelt,roh', 'maxTemp:110,120', 'pressure:6,10'],
        title: (c) => join(c.type, c.v.thread, c.v.surface),
        price: [3, 120], size: small }),
    ]),
    node('2_3', 'Wärmeerzeuger', [
      leaf({ key: 'gasbrennwert', name: 'Gas-Brennwertgeräte', classId: 'EC012001', className: 'Gas-Brennwertkessel', domain: 'heizung', weight: 1.5,
        types: ['Gas-Brennwertkessel', 'Gas-Brennwerttherme', 'Brennwert-Kombitherme', 'Gas-Brennwertgerät'],
        features: ['heatOutput:11,14,20,24,30,35', 'energyClass:A,B', 'mounting:Wandmontage,Standmontage', 'height:700,720,850', 'width:400,440,600', 'noise:35,40,45'],
        title: (c) => join(c.type, c.series, `${n(c.v.heatOutput)} kW`),
        price: [1400, 5200], size: { a: [300, 600], b: [400, 600], c: [700, 1600], kg: [30, 120] }, delivery: [3, 15], onDemand: 0.05, accessories: ['ausdehnungsgefaesse', 'sicherheitsventile'] }),
      leaf({ key: 'waermepumpen', name: 'Wärmepumpen', classId: 'EC012002', className: 'Wärmepumpe', domain: 'heizung', weight: 1.5,
        types: ['Luft-Wasser-Wärmepumpe', 'Sole-Wasser-Wärmepumpe', 'Monoblock-Wärmepumpe', 'Warmwasser-Wärmepumpe', 'Split-Wärmepumpe'],
        features: ['heatOutput:5,7,9,11,14,16', 'energyClass:A+++,A++', 'refrigerant:R32,R290,R454B', 'noise:35,40,45,52', 'voltage:230,400', 'mounting:Standmontage,Wandmontage'],
        title: (c) => join(c.type, c.series, `${n(c.v.heatOutput)} kW`, c.v.refrigerant),
        price: [4500, 16000], size: { a: [400, 800], b: [800, 1300], c: [700, 1700], kg: [60, 200] }, delivery: [5, 25], onDemand: 0.15, accessories: ['pufferspeicher', 'umwaelzpumpen'] }),
      leaf({ key: 'festbrennstoff', name: 'Pellet- und Holzkessel', classId: 'EC012003', className: 'Festbrennstoffkessel', domain: 'heizung', weight: 0.6,
        types: ['Pelletkessel', 'Scheitholzkessel', 'Pelletofen', 'Holzvergaserkessel'],
        features: ['heatOutput:9,14,20,24,30', 'energyClass:A+,A', 'volume:50,120,200', 'height:1100,1200,1500'],
        title: (c) => join(c.type, c.series, `${n(c.v.heatOutput)} kW`),
        price: [2500, 14000], size: { a: [600, 900], b: [500, 800], c: [1100, 1500], kg: [150, 400] }, delivery: [7, 30], onDemand: 0.2 }),
    ]),
    node('2_4', 'Speicher', [
      leaf({ key: 'warmwasserspeicher', name: 'Warmwasserspeicher', classId: 'EC012010', className: 'Warmwasserspeicher', domain: 'heizung', weight: 1.2,
        types: ['Warmwasserspeicher', 'Trinkwasserspeicher', 'Solarspeicher', 'Elektro-Warmwasserspeicher', 'Speicher-Wassererwärmer'],
        features: ['volume:80,120,150,200,300,400,500', 'energyClass:A,B,C', 'height:900,1200,1500,1800', 'diameter:500,600,700', 'material:Edelstahl', 'maxTemp:95,110'],
        title: (c) => join(c.type, c.series, `${n(c.v.volume)} l`),
        price: [350, 3200], size: { a: [500, 700], b: [500, 700], c: [900, 1800], kg: [40, 180] }, delivery: [3, 15], accessories: ['sicherheitsventile', 'zirkulationspumpen'] }),
      leaf({ key: 'pufferspeicher', name: 'Pufferspeicher', classId: 'EC012011', className: 'Pufferspeicher', domain: 'heizung', weight: 0.8,
        types: ['Pufferspeicher', 'Hygienespeicher', 'Kombispeicher', 'Heizwasser-Pufferspeicher'],
        features: ['volume:200,300,500,800,1000', 'height:1200,1500,1800', 'diameter:600,700', 'insulation:80,100', 'energyClass:B,C'],
        title: (c) => join(c.type, c.series, `${n(c.v.volume)} l`),
        price: [500, 4200], size: { a: [600, 1000], b: [600, 1000], c: [1200, 2100], kg: [60, 250] }, delivery: [5, 20] }),
    ]),
    node('2_5', 'Pumpen', [
      leaf({ key: 'umwaelzpumpen', name: 'Heizungsumwälzpumpen', classId: 'EC012020', className: 'Umwälzpumpe', domain: 'heizung', weight: 1.2,
        types: ['Heizungsumwälzpumpe', 'Hocheffizienzpumpe', 'Umwälzpumpe', 'Nassläufer-Umwälzpumpe'],
        features: ['head:4,6,7,8', 'length:130,180', 'thread:1",1 1/4",1 1/2"', 'power:5,25,45,60', 'voltage:230'],
        title: (c) => join(c.type, c.series, `${n(c.v.head)} m`, `Baulänge ${n(c.v.length)} mm`),
        price: [120, 900], size: { a: [130, 180], b: [90, 120], c: [130, 160], kg: [1.5, 4] }, cad: true }),
      leaf({ key: 'zirkulationspumpen', name: 'Zirkulationspumpen', classId: 'EC012021', className: 'Zirkulationspumpe', domain: 'heizung', weight: 0.8,
        types: ['Zirkulationspumpe', 'Trinkwasser-Zirkulationspumpe', 'Brauchwasserpumpe'],
        features: ['head:1,1.5,2', 'power:5,8,15', 'thread:1/2",3/4"', 'material:Edelstahl,Rotguss,Messing'],
        title: (c) => join(c.type, c.series, c.v.material, c.v.thread),
        price: [90, 420], size: { a: [100, 150], b: [80, 110], c: [100, 140], kg: [1, 2.5] } }),
    ]),
    node('2_6', 'Flächenheizung', [
      leaf({ key: 'fbhrohre', name: 'Fußbodenheizungsrohre', classId: 'EC012030', className: 'Flächenheizungsrohr', domain: 'heizung', weight: 1,
        types: ['Fußbodenheizungsrohr', 'PE-RT-Rohr', 'PE-Xa-Rohr', 'Flächenheizungsrohr'],
        features: ['diameter:14,16,17,20', 'wall:2', 'pipeLength:200,240,500,600', 'material:Kunststoff', 'maxTemp:70,95'],
        title: (c) => join(c.type, `${n(c.v.diameter)} x ${n(c.v.wall)} mm`, `Rolle ${n(c.v.pipeLength)} m`),
        price: [0.6, 2.5], unit: 'MTR', minOrder: 200, packaging: 200, size: { a: [600, 800], b: [600, 800], c: [150, 250], kg: [0.05, 0.2] }, accessories: ['heizkreisverteiler'] }),
      leaf({ key: 'heizkreisverteiler', name: 'Heizkreisverteiler', classId: 'EC012031', className: 'Heizkreisverteiler', domain: 'heizung', weight: 0.8,
        types: ['Heizkreisverteiler', 'Fußbodenheizungsverteiler', 'Edelstahlverteiler', 'Kunststoffverteiler'],
        features: ['circuits', 'material:Edelstahl,Messing,Kunststoff', 'thread:3/4",1"', 'length:250,350,450,550,650'],
        title: (c) => join(c.type, `${n(c.v.circuits)} Heizkreise`, c.v.material),
        price: [90, 650], size: { a: [250, 650], b: [80, 110], c: [300, 400], kg: [2, 8] }, accessories: ['stellantriebe'] }),
      leaf({ key: 'stellantriebe', name: 'Stellantriebe und Raumregler', classId: 'EC012032', className: 'Stellantrieb', domain: 'heizung', weight: 1,
        types: ['Stellantrieb', 'Raumthermostat', 'Raumregler', 'Funk-Raumthermostat', 'Regelverteiler'],
        features: ['voltage:24,230', 'power:1,2,3', 'mounting:Aufputz,Unterputz', 'colour:weiß,schwarz,anthrazit'],
        title: (c) => join(c.type, c.series, `${n(c.v.voltage)} V`, c.v.colour),
        price: [15, 180], size: small }),
    ]),
  ]),
  node('3', 'Installation', [
    node('3_1', 'Absperrarmaturen', [
      leaf({ key: 'kugelhaehne', name: 'Kugelhähne', classId: 'EC011001', className: 'Kugelhahn', domain: 'installation', weight: 2.5,
        types: ['Kugelhahn', 'Kugelhahn mit Hebelgriff', 'Kugelhahn mit Flügelgriff', 'KFE-Hahn', 'Press-Kugelhahn'],
        features: ['dn:10,15,20,25,32,40,50', 'thread:1/2",3/4",1",1 1/4",1 1/2",2"', 'material:Messing,Edelstahl,Rotguss', 'pressure:16,25,40', 'connection:Innengewinde,Außengewinde,Pressanschluss'],
        title: (c) => join(c.type, `DN ${n(c.v.dn)}`, c.v.thread, c.v.connection),
        price: [6, 180], size: small, cad: true }),
      leaf({ key: 'absperrventile', name: 'Absperrventile', classId: 'EC011002', className: 'Absperrventil', domain: 'installation', weight: 1.5,
        types: ['Schrägsitzventil', 'Absperrventil', 'Freistromventil', 'Eckventil', 'Geradsitzventil'],
        features: ['dn:15,20,25,32,40,50', 'thread:1/2",3/4",1",1 1/4",1 1/2",2"', 'material:Rotguss,Messing', 'connection:Innengewinde,Pressanschluss,Lötanschluss', 'surface:roh,verchromt'],
        title: (c) => join(c.type, `DN ${n(c.v.dn)}`, c.v.connection, c.v.material),
        price: [9, 260], size: small, cad: true }),
      leaf({ key: 'rueckflussverhinderer', name: 'Rückflussverhinderer', classId: 'EC011003', className: 'Rückflussverhinderer', domain: 'installation', weight: 0.8,
        types: ['Rückflussverhinderer', 'Rückschlagventil', 'Rohrtrenner', 'Systemtrenner'],
        features: ['dn:15,20,25,32', 'thread:1/2",3/4",1",1 1/4"', 'material:Messing,Rotguss', 'pressure:10,16'],
        title: (c) => join(c.type, `DN ${n(c.v.dn)}`, c.v.thread),
        price: [8, 450], size: small }),
    ]),
    node('3_2', 'Druck und Sicherheit', [
      leaf({ key: 'druckminderer', name: 'Druckminderer und Filter', classId: 'EC011010', className: 'Druckminderer', domain: 'installation', weight: 1,
        types: ['Druckminderer', 'Rückspülfilter', 'Hauswasserstation', 'Feinfilter', 'Druckminderer-Kombination'],
        features: ['dn:15,20,25,32', 'thread:1/2",3/4",1",1 1/4"', 'pressure:16,25', 'flow:30,45,60', 'maxTemp:30,70'],
        title: (c) => join(c.type, c.series, `DN ${n(c.v.dn)}`),
        price: [45, 520], size: { a: [150, 300], b: [80, 120], c: [150, 400], kg: [1, 5] } }),
      leaf({ key: 'sicherheitsventile', name: 'Sicherheitsventile', classId: 'EC011011', className: 'Sicherheitsventil', domain: 'installation', weight: 0.8,
        types: ['Sicherheitsventil', 'Membran-Sicherheitsventil', 'Sicherheitsgruppe', 'Kesselsicherheitsgruppe'],
        features: ['thread:1/2",3/4",1"', 'pressure:3,6,10', 'material:Messing', 'maxTemp:110,120'],
        title: (c) => join(c.type, c.v.thread, `${n(c.v.pressure)} bar`),
        price: [8, 160], size: small }),
      leaf({ key: 'ausdehnungsgefaesse', name: 'Ausdehnungsgefäße', classId: 'EC011012', className: 'Ausdehnungsgefäß', domain: 'installation', weight: 0.8,
        types: ['Ausdehnungsgefäß', 'Membranausdehnungsgefäß', 'Trinkwasser-Ausdehnungsgefäß', 'Solar-Ausdehnungsgefäß'],
        features: ['volume:8,12,18,25,35,50,80', 'pressure:6,10', 'thread:3/4",1"', 'colour:weiß,schwarz', 'maxTemp:70,120'],
        title: (c) => join(c.type, c.series, `${n(c.v.volume)} l`, `${n(c.v.pressure)} bar`),
        price: [25, 420], size: { a: [200, 500], b: [200, 500], c: [250, 700], kg: [2, 15] } }),
    ]),
    node('3_3', 'Befestigung und Dämmung', [
      leaf({ key: 'rohrbefestigung', name: 'Rohrbefestigung', classId: 'EC011020', className: 'Rohrschelle', domain: 'installation', weight: 2,
        types: ['Rohrschelle', 'Gelenkrohrschelle', 'Montageschiene', 'Gewindestange', 'Schallschutz-Rohrschelle'],
        features: ['diameter:15,18,22,28,35,42,54', 'material:Stahl verzinkt,Edelstahl', 'thread:1/2",3/4"', 'surface:roh'],
        title: (c) => join(c.type, `${n(c.v.diameter)} mm`, c.v.material),
        price: [40, 220], priceBasis: 100, packaging: 50, size: small }),
      leaf({ key: 'rohrdaemmung', name: 'Rohrdämmung', classId: 'EC011021', className: 'Rohrisolierung', domain: 'installation', weight: 1.5,
        types: ['Rohrisolierung', 'Dämmschlauch', 'Isolierschlauch', 'Kautschuk-Dämmschlauch', 'PE-Dämmschlauch'],
        features: ['diameter:15,18,22,28,35,42', 'insulation:6,9,13,19,20', 'length:1000,2000', 'material:Kunststoff'],
        title: (c) => join(c.type, `${n(c.v.diameter)} x ${n(c.v.insulation)} mm`, `${n(Number(c.v.length) / 1000)} m`),
        price: [0.8, 9], unit: 'MTR', minOrder: 2, packaging: 2, size: { a: [1000, 2000], b: [30, 90], c: [30, 90], kg: [0.05, 0.4] } }),
    ]),
  ]),
  node('4', 'Rohre und Fittings', [
    node('4_1', 'Rohre', [
      leaf({ key: 'kupferrohre', name: 'Kupferrohre', classId: 'EC011100', className: 'Kupferrohr', domain: 'rohre', weight: 1.5,
        types: ['Kupferrohr', 'Installationsrohr Kupfer', 'Kupferrohr in Ringen', 'Kupferrohr ummantelt'],
        features: ['diameter:12,15,18,22,28,35,42,54', 'wall:0.8,1,1.2,1.5', 'pipeLength:5,25,50', 'temper', 'material:Kupfer'],
        title: (c) => join(c.type, `${n(c.v.diameter)} x ${n(c.v.wall)} mm`, c.v.temper, `${n(c.v.pipeLength)} m`),
        price: [4, 45], unit: 'MTR', minOrder: 5, packaging: 5, size: pipeSize, accessories: ['pressfittings', 'loetfittings'] }),
      leaf({ key: 'edelstahlrohre', name: 'Edelstahl- und C-Stahlrohre', classId: 'EC011101', className: 'Systemrohr Metall', domain: 'rohre', weight: 1,
        types: ['Edelstahlrohr', 'Systemrohr Edelstahl', 'C-Stahlrohr', 'Systemrohr C-Stahl'],
        features: ['diameter:15,18,22,28,35,42,54', 'wall:1,1.2,1.5', 'pipeLength:3,5', 'material:Edelstahl,Stahl verzinkt'],
        title: (c) => join(c.type, `${n(c.v.diameter)} x ${n(c.v.wall)} mm`, `${n(c.v.pipeLength)} m`),
        price: [5, 55], unit: 'MTR', minOrder: 6, packaging: 6, size: pipeSize, accessories: ['pressfittings'] }),
      leaf({ key: 'verbundrohre', name: 'Mehrschichtverbundrohre', classId: 'EC011102', className: 'Mehrschichtverbundrohr', domain: 'rohre', weight: 1.2,
        types: ['Mehrschichtverbundrohr', 'Verbundrohr', 'Mehrschichtverbundrohr vorgedämmt', 'Alu-Verbundrohr'],
        features: ['diameter:16,20,26,32,40', 'wall:2,2.25,3', 'pipeLength:5,50,100,200', 'insulation:6,9,13'],
        title: (c) => join(c.type, `${n(c.v.diameter)} x ${n(c.v.wall)} mm`, `${n(c.v.pipeLength)} m`),
        price: [1.5, 18], unit: 'MTR', minOrder: 5, packaging: 5, size: pipeSize, accessories: ['pressfittings'] }),
      leaf({ key: 'abwasserrohre', name: 'Abwasserrohre', classId: 'EC011103', className: 'Abwasserrohr', domain: 'rohre', weight: 1.2,
        types: ['HT-Rohr', 'KG-Rohr', 'Abflussrohr', 'Schallschutzrohr', 'HT-Rohr mit Muffe'],
        features: ['dn:32,40,50,70,100,110,125,160', 'length:150,250,500,1000,2000', 'material:Kunststoff', 'colour:weiß,schwarz,anthrazit'],
        title: (c) => join(c.type, `DN ${n(c.v.dn)}`, `${n(c.v.length)} mm`),
        price: [1.5, 45], size: { a: [150, 2000], b: [40, 160], c: [40, 160], kg: [0.1, 4] }, accessories: ['abwasserformteile'] }),
    ]),
    node('4_2', 'Fittings', [
      leaf({ key: 'pressfittings', name: 'Pressfittings', classId: 'EC011110', className: 'Pressfitting', domain: 'rohre', weight: 6,
        types: ['Pressfitting', 'Pressbogen', 'Pressmuffe', 'Press-T-Stück', 'Pressübergang', 'Pressreduzierung', 'Presswinkel'],
        features: ['diameter:12,15,16,18,20,22,26,28,32,35,42,54', 'angle:45,90', 'material:Kupfer,Edelstahl,Rotguss,Stahl verzinkt', 'pressProfile', 'connection:Pressanschluss,Innengewinde,Außengewinde'],
        title: (c) => join(c.type, /bogen|winkel/i.test(c.type) ? `${n(c.v.angle)}°` : false, `${n(c.v.diameter)} mm`, c.v.material, c.v.pressProfile),
        price: [1.2, 48], packaging: 10, size: small, cad: true, accessories: ['presswerkzeuge'] }),
      leaf({ key: 'gewindefittings', name: 'Gewindefittings', classId: 'EC011111', className: 'Gewindefitting', domain: 'rohre', weight: 2.5,
        types: ['Gewindefitting', 'Temperguss-Winkel', 'Doppelnippel', 'Muffe', 'Reduziermuffe', 'T-Stück', 'Verschlusskappe', 'Reduziernippel'],
        features: ['thread', 'material:Temperguss,Messing,Rotguss', 'surface:roh,verzinkt,schwarz', 'angle:45,90'],
        title: (c) => join(c.type, c.v.thread, c.v.material, c.v.surface),
        price: [0.6, 25], packaging: 10, size: small }),
      leaf({ key: 'loetfittings', name: 'Lötfittings', classId: 'EC011112', className: 'Lötfitting', domain: 'rohre', weight: 1.5,
        types: ['Lötfitting', 'Lötbogen', 'Lötmuffe', 'Löt-T-Stück', 'Lötübergang'],
        features: ['diameter:12,15,18,22,28,35,42,54', 'angle:45,90', 'material:Kupfer,Rotguss'],
        title: (c) => join(c.type, /bogen/i.test(c.type) ? `${n(c.v.angle)}°` : false, `${n(c.v.diameter)} mm`, c.v.material),
        price: [0.5, 30], packaging: 10, size: small }),
      leaf({ key: 'klemmverschraubungen', name: 'Klemmverschraubungen', classId: 'EC011113', className: 'Klemmverschraubung', domain: 'rohre', weight: 1.2,
        types: ['Klemmringverschraubung', 'Klemmverschraubung', 'Übergangsverschraubung', 'Klemmring-Winkelverschraubung'],
        features: ['diameter:10,12,15,18,22,28', 'thread:3/8",1/2",3/4",1"', 'material:Messing', 'surface:roh,vernickelt'],
        title: (c) => join(c.type, `${n(c.v.diameter)} mm`, c.v.thread, c.v.surface),
        price: [2, 28], packaging: 5, size: small }),
      leaf({ key: 'abwasserformteile', name: 'Abwasserformteile', classId: 'EC011114', className: 'Abwasserformstück', domain: 'rohre', weight: 1.5,
        types: ['HT-Bogen', 'HT-Abzweig', 'KG-Bogen', 'Reinigungsrohr', 'HT-Muffe', 'Übergangsrohr'],
        features: ['dn:32,40,50,70,100,110,125,160', 'angle:15,30,45,87', 'material:Kunststoff', 'colour:weiß,schwarz,anthrazit'],
        title: (c) => join(c.type, `DN ${n(c.v.dn)}`, /bogen|abzweig/i.test(c.type) ? `${n(c.v.angle)}°` : false),
        price: [0.8, 35], size: small }),
    ]),
  ]),
  node('5', 'Lüftung und Klima', [
    leaf({ key: 'wohnraumlueftung', name: 'Wohnraumlüftung', classId: 'EC012100', className: 'Lüftungsgerät', domain: 'klima', weight: 0.8,
      types: ['Wohnraumlüftungsgerät', 'Lüftungsgerät mit Wärmerückgewinnung', 'Dezentrales Lüftungsgerät', 'Zentrales Lüftungsgerät'],
      features: ['airflow:60,95,120,180,250,350,450', 'power:8,15,45,90,150', 'noise:22,26,30,35', 'energyClass:A+,A,B', 'mounting:Wandmontage,Deckenmontage,Standmontage'],
      title: (c) => join(c.type, c.series, `${n(c.v.airflow)} m³/h`),
      price: [350, 6500], size: { a: [300, 800], b: [300, 1200], c: [200, 900], kg: [5, 60] }, delivery: [3, 20], onDemand: 0.05 }),
    leaf({ key: 'ventilatoren', name: 'Ventilatoren', classId: 'EC012101', className: 'Ventilator', domain: 'klima', weight: 1,
      types: ['Badlüfter', 'Kleinraumventilator', 'Rohrventilator', 'Dachventilator', 'Unterputz-Lüfter'],
      features: ['airflow:60,95,120,180,250', 'power:5,8,15,25,45', 'noise:26,30,35,40', 'diameter:100,125,150,160', 'protection'],
      title: (c) => join(c.type, c.series, `DN ${n(c.v.diameter)}`, `${n(c.v.airflow)} m³/h`),
      price: [25, 480], size: { a: [100, 300], b: [150, 300], c: [150, 300], kg: [0.5, 6] } }),
    leaf({ key: 'luftverteilung', name: 'Luftverteilung', classId: 'EC012102', className: 'Luftleitung', domain: 'klima', weight: 1.2,
      types: ['Wickelfalzrohr', 'Luftventil', 'Flexschlauch', 'Lüftungsgitter', 'Tellerventil', 'Wickelfalzbogen'],
      features: ['diameter:80,100,125,150,160,200', 'length:500,1000,3000', 'material:Stahl verzinkt,Kunststoff,Edelstahl', 'colour:weiß,edelstahl'],
      title: (c) => join(c.type, `DN ${n(c.v.diameter)}`, /rohr|schlauch/i.test(c.type) ? `${n(c.v.length)} mm` : c.v.colour),
      price: [4, 90], size: { a: [100, 3000], b: [80, 200], c: [80, 200], kg: [0.2, 5] } }),
    leaf({ key: 'klimageraete', name: 'Klimageräte', classId: 'EC012103', className: 'Klimagerät', domain: 'klima', weight: 1,
      types: ['Split-Klimagerät', 'Multisplit-Klimagerät', 'Mobiles Klimagerät', 'Klima-Außengerät', 'Klima-Innengerät'],
      features: ['coolingOutput', 'energyClass:A+++,A++,A+', 'refrigerant:R32,R290', 'noise:22,26,30,40,52', 'voltage:230'],
      title: (c) => join(c.type, c.series, `${n(c.v.coolingOutput)} kW`, c.v.refrigerant),
      price: [450, 4800], size: { a: [200, 350], b: [700, 950], c: [280, 700], kg: [9, 55] }, delivery: [3, 15], onDemand: 0.05, accessories: ['kaeltetechnik'] }),
    leaf({ key: 'kaeltetechnik', name: 'Kältetechnik-Zubehör', classId: 'EC012104', className: 'Kältemittelleitung', domain: 'klima', weight: 0.8,
      types: ['Kältemittelleitung', 'Kondensatpumpe', 'Wandkonsole', 'Kupferrohr Kältetechnik', 'Kältemittel-Verbindungsleitung'],
      features: ['diameter:6,10,12,16', 'length:3000,5000,10000', 'insulation:9,13', 'material:Kupfer,Stahl verzinkt'],
      title: (c) => join(c.type, `${n(c.v.diameter)} mm`, `${n(Number(c.v.length) / 1000)} m`),
      price: [12, 320], size: { a: [200, 1000], b: [100, 400], c: [100, 400], kg: [0.5, 8] } }),
  ]),
  node('6', 'Werkzeug', [
    leaf({ key: 'presswerkzeuge', name: 'Presswerkzeuge', classId: 'EC013001', className: 'Presswerkzeug', domain: 'werkzeug', weight: 1,
      types: ['Akku-Pressmaschine', 'Pressmaschine', 'Pressbacke', 'Pressschlinge', 'Pressring', 'Zwischenbacke'],
      features: ['pressProfile', 'diameter:12,15,18,22,28,35,42,54', 'batteryVoltage:12,18,22', 'suitableFor'],
      title: (c) => join(c.type, c.series, /backe|schlinge|ring/i.test(c.type) ? `${c.v.pressProfile} ${n(c.v.diameter)} mm` : `${n(c.v.batteryVoltage)} V`),
      price: [90, 3200], size: { a: [100, 450], b: [80, 120], c: [150, 400], kg: [0.8, 5] }, delivery: [1, 7], accessories: ['pressfittings'] }),
    leaf({ key: 'rohrbearbeitung', name: 'Rohrbearbeitung', classId: 'EC013002', className: 'Rohrbearbeitungswerkzeug', domain: 'werkzeug', weight: 1,
      types: ['Rohrabschneider', 'Rohrschneider', 'Rohrbieger', 'Entgrater', 'Kalibrierwerkzeug', 'Rohrbiegezange'],
      features: ['cutRange', 'suitableFor', 'length:150,200,250,300,450'],
      title: (c) => join(c.type, c.series, `bis ${n(c.v.cutRange)} mm`, `für ${c.v.suitableFor}`),
      price: [9, 420], size: { a: [150, 450], b: [50, 120], c: [20, 60], kg: [0.1, 3] } }),
    leaf({ key: 'zangen', name: 'Zangen und Schlüssel', classId: 'EC013003', className: 'Zange', domain: 'werkzeug', weight: 1,
      types: ['Rohrzange', 'Wasserpumpenzange', 'Eckrohrzange', 'Siphonzange', 'Armaturenschlüssel', 'Heizkörperschlüssel'],
      features: ['length:180,250,300,350,450', 'spanWidth', 'material:Chrom-Vanadium,Stahl verzinkt', 'surface:roh,verchromt'],
      title: (c) => join(c.type, c.series, `${n(c.v.length)} mm`),
      price: [8, 120], size: { a: [180, 450], b: [50, 80], c: [15, 30], kg: [0.2, 2] } }),
    leaf({ key: 'messtechnik', name: 'Messtechnik', classId: 'EC013004', className: 'Messgerät', domain: 'werkzeug', weight: 0.8,
      types: ['Manometer', 'Thermometer', 'Abgasmessgerät', 'Druckprüfpumpe', 'Leckagesuchgerät', 'Zeigerthermometer'],
      features: ['measuringRange', 'thread:1/4",3/8",1/2"', 'diameter:50,63,80,100', 'accuracy'],
      title: (c) => join(c.type, c.series, c.type.includes('thermometer') ? `${n(c.v.diameter)} mm` : `0–${n(c.v.measuringRange)} bar`),
      price: [6, 1800], size: small }),
    leaf({ key: 'loettechnik', name: 'Löttechnik', classId: 'EC013005', className: 'Lötgerät', domain: 'werkzeug', weight: 0.6,
      types: ['Lötgerät', 'Lötbrenner', 'Weichlot', 'Flussmittel', 'Hartlot', 'Lötpaste'],
      features: ['material:Kupfer,Messing', 'volume:0.25,0.5,1', 'suitableFor:Kupfer,Edelstahl'],
      title: (c) => join(c.type, c.series, `für ${c.v.suitableFor}`),
      price: [5, 260], size: small }),
    leaf({ key: 'bohrtechnik', name: 'Bohrtechnik', classId: 'EC013006', className: 'Bohrwerkzeug', domain: 'werkzeug', weight: 0.8,
      types: ['Kernbohrgerät', 'Bohrkrone', 'Akku-Bohrschrauber', 'Bohrhammer', 'Dosensenker'],
      features: ['drillDiameter', 'batteryVoltage:12,18,22', 'power:450,800,1200', 'length:150,300,450'],
      title: (c) => join(c.type, c.series, /krone|senker/i.test(c.type) ? `${n(c.v.drillDiameter)} mm` : `${n(c.v.batteryVoltage)} V`),
      price: [15, 1900], size: { a: [150, 450], b: [80, 250], c: [80, 300], kg: [0.3, 8] } }),
  ]),
];

/** Every leaf of the tree with its path of node keys. */
export function leavesOf(nodes: readonly NodeDef[] = assortment): { leaf: LeafDef; path: string[] }[] {
  const out: { leaf: LeafDef; path: string[] }[] = [];
  const walk = (items: readonly (NodeDef | LeafDef)[], path: string[]) => {
    for (const item of items) {
      if (item.kind === 'leaf') out.push({ leaf: item, path });
      else walk(item.children, [...path, item.key]);
    }
  };
  walk(nodes, []);
  return out;
}

/** Tree element id of a node key: '2_2' → 'SHKMARKET_2_2'. */
export const elementIdOf = (key: string) => `SHKMARKET_${key}`;
