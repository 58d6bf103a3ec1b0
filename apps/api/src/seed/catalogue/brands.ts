/**
 * Fictitious manufacturers and brands of the generated catalogue (about 40), each with series,
 * the domains it makes products for and its article-number style. Five of them sell directly on
 * the portal (the manufacturer suppliers of the demo world).
 */
import type { Domain } from './assortment.ts';

export type PidStyle = 'dotted' | 'dash' | 'plain' | 'spaced' | 'prefixed';

export interface BrandDef {
  name: string;
  manufacturer: string;
  domains: readonly Domain[];
  series: readonly string[];
  pidStyle: PidStyle;
  /** Letters used in prefixed article and catalogue numbers. */
  code: string;
  /** Relative size of the brand's assortment. */
  weight: number;
  /** Supplier business partner when the manufacturer sells directly. */
  supplier?: string;
  country: string;
}

export const brands: readonly BrandDef[] = [
  // sanitary
  { name: 'Aquarena', manufacturer: 'Aquarena Armaturen GmbH', domains: ['sanitaer', 'kueche'], series: ['Vita', 'Linea', 'Pura', 'Tondo', 'Cubic'], pidStyle: 'dotted', code: 'AQR', weight: 3, country: 'DE' },
  { name: 'Brausewerk', manufacturer: 'Brausewerk Schwarzwald GmbH', domains: ['sanitaer'], series: ['Cascada', 'Nova', 'Aqua Select', 'Rainline'], pidStyle: 'plain', code: 'BRW', weight: 2, country: 'DE' },
  { name: 'Sanitas Porzellan', manufacturer: 'Sanitas Porzellanfabrik AG', domains: ['sanitaer'], series: ['Aurum', 'Classica', 'Ondina', 'Purista'], pidStyle: 'spaced', code: 'SAP', weight: 2, country: 'DE' },
  { name: 'Quellgrund', manufacturer: 'Quellgrund Sanitärtechnik GmbH', domains: ['sanitaer', 'installation'], series: ['Fontis', 'Rivus', 'Aquilo'], pidStyle: 'dash', code: 'QG', weight: 1.5, country: 'DE' },
  { name: 'Nordsee Keramik', manufacturer: 'Nordsee Keramik GmbH', domains: ['sanitaer'], series: ['Sylt', 'Föhr', 'Amrum', 'Helgoland'], pidStyle: 'plain', code: 'NSK', weight: 1.5, country: 'DE' },
  { name: 'Lavaro', manufacturer: 'Lavaro Design S.r.l.', domains: ['sanitaer', 'kueche'], series: ['Arco', 'Cubo', 'Onda', 'Piano'], pidStyle: 'prefixed', code: 'LAV', weight: 1.5, country: 'IT' },
  { name: 'Vitreo', manufacturer: 'Vitreo Badkultur GmbH', domains: ['sanitaer'], series: ['V1', 'V2 Comfort', 'Loop'], pidStyle: 'dotted', code: 'VIT', weight: 1, country: 'AT' },
  { name: 'Elbtal Armaturen', manufacturer: 'Elbtal Armaturenwerk GmbH', domains: ['sanitaer', 'installation'], series: ['Elbe', 'Meißen', 'Pirna'], pidStyle: 'dash', code: 'ELB', weight: 1.5, country: 'DE' },
  { name: 'Kranich Sanitär', manufacturer: 'Kranich Sanitär GmbH & Co. KG', domains: ['sanitaer'], series: ['Flight', 'Nest', 'Wing'], pidStyle: 'spaced', code: 'KRS', weight: 1, country: 'DE' },
  // heating
  { name: 'Thermoflux', manufacturer: 'Thermoflux Heiztechnik GmbH', domains: ['heizung'], series: ['Vario', 'Comfort', 'Eco Plus', 'Compact'], pidStyle: 'dash', code: 'TF', weight: 3, country: 'DE' },
  { name: 'Wärmequell', manufacturer: 'Wärmequell Systemtechnik GmbH', domains: ['heizung'], series: ['Quelle', 'Terra', 'Aero'], pidStyle: 'plain', code: 'WQ', weight: 2, country: 'DE' },
  { name: 'Calora', manufacturer: 'Calora Radiatoren GmbH', domains: ['heizung'], series: ['Plan', 'Profil', 'Bagno', 'Retro'], pidStyle: 'dotted', code: 'CAL', weight: 2.5, country: 'DE' },
  { name: 'Heizwerk Rhein', manufacturer: 'Heizwerk Rhein GmbH', domains: ['heizung'], series: ['Rheinland', 'Lorelei', 'Mosel'], pidStyle: 'spaced', code: 'HWR', weight: 1.5, country: 'DE' },
  { name: 'Radiatherm', manufacturer: 'Radiatherm Heizkörperwerk GmbH', domains: ['heizung'], series: ['Classic', 'Design', 'Hygiene'], pidStyle: 'plain', code: 'RAD', weight: 2, country: 'PL' },
  { name: 'Flammenberg', manufacturer: 'Flammenberg Kesselbau GmbH', domains: ['heizung'], series: ['Glut', 'Feuer', 'Pellet Pro'], pidStyle: 'dash', code: 'FLB', weight: 1, country: 'DE' },
  { name: 'Ecotherm Systeme', manufacturer: 'Ecotherm Systeme GmbH', domains: ['heizung', 'klima'], series: ['Eco', 'Solar', 'Hybrid'], pidStyle: 'prefixed', code: 'ECO', weight: 1.5, country: 'DE' },
  { name: 'Sonnwärme', manufacturer: 'Sonnwärme Speichertechnik GmbH', domains: ['heizung'], series: ['Sol', 'Hygienic', 'Puffer Plus'], pidStyle: 'dotted', code: 'SOW', weight: 1, country: 'AT' },
  { name: 'Regula', manufacturer: 'Regula Regeltechnik GmbH', domains: ['heizung'], series: ['Sensa', 'Klick', 'Smart'], pidStyle: 'dotted', code: 'REG', weight: 2, country: 'DE' },
  { name: 'Thermostatica', manufacturer: 'Thermostatica S.p.A.', domains: ['heizung', 'installation'], series: ['TS', 'Uno', 'Duo'], pidStyle: 'prefixed', code: 'TST', weight: 1.5, country: 'IT' },
  { name: 'Ventura Armaturen', manufacturer: 'Ventura Armaturen GmbH', domains: ['heizung', 'installation'], series: ['V-Line', 'Pro', 'Basic'], pidStyle: 'dash', code: 'VEN', weight: 2, country: 'DE' },
  { name: 'AquaTherm', manufacturer: 'AquaTherm Armaturenwerke AG', domains: ['heizung', 'installation', 'sanitaer'], series: ['AT Classic', 'AT Vario', 'AT Prime'], pidStyle: 'dotted', code: 'AT', weight: 3, supplier: '200003', country: 'DE' },
  { name: 'Hydroline', manufacturer: 'Hydroline Heiztechnik GmbH', domains: ['heizung'], series: ['Hydro', 'Aqua Plus', 'Therm'], pidStyle: 'plain', code: 'HYD', weight: 2.5, supplier: '200006', country: 'DE' },
  // installation
  { name: 'Sicura', manufacturer: 'Sicura Sicherheitstechnik GmbH', domains: ['installation'], series: ['Safe', 'Protect', 'Guard'], pidStyle: 'dash', code: 'SIC', weight: 1.5, country: 'DE' },
  { name: 'Filtronik', manufacturer: 'Filtronik Wassertechnik GmbH', domains: ['installation'], series: ['Clear', 'Pure', 'Flow'], pidStyle: 'plain', code: 'FIL', weight: 1, country: 'DE' },
  { name: 'Rohrfix', manufacturer: 'Rohrfix Befestigungstechnik GmbH', domains: ['installation'], series: ['Fix', 'Silent', 'Strong'], pidStyle: 'spaced', code: 'RFX', weight: 2, country: 'DE' },
  { name: 'Isotherm', manufacturer: 'Isotherm Dämmtechnik GmbH', domains: ['installation', 'klima'], series: ['Iso', 'Flex', 'Cool'], pidStyle: 'dash', code: 'ISO', weight: 1.5, country: 'DE' },
  // pipes and fittings
  { name: 'Rohrwerk', manufacturer: 'Rohrwerk Sauerland GmbH', domains: ['rohre', 'installation'], series: ['RW Press', 'RW Multi', 'RW Inox'], pidStyle: 'spaced', code: 'RWS', weight: 3, supplier: '200004', country: 'DE' },
  { name: 'Pressline', manufacturer: 'Pressline Systeme GmbH', domains: ['rohre'], series: ['Cu', 'Inox', 'Gas', 'Therm'], pidStyle: 'plain', code: 'PL', weight: 3, country: 'DE' },
  { name: 'Cuprotec', manufacturer: 'Cuprotec Kupferwerke GmbH', domains: ['rohre'], series: ['Sanco', 'Wicu', 'Cuprofix'], pidStyle: 'dotted', code: 'CUP', weight: 2, country: 'DE' },
  { name: 'Fittingwerk Süd', manufacturer: 'Fittingwerk Süd GmbH', domains: ['rohre'], series: ['FS', 'Temper', 'Fix'], pidStyle: 'dash', code: 'FWS', weight: 2, country: 'DE' },
  { name: 'Ahrens HT', manufacturer: 'Ahrens Kunststoffrohrsysteme GmbH', domains: ['rohre'], series: ['HT Safe', 'KG 2000', 'Silent'], pidStyle: 'plain', code: 'AHR', weight: 1.5, country: 'DE' },
  { name: 'Multiflex', manufacturer: 'Multiflex Rohrsysteme GmbH', domains: ['rohre', 'heizung'], series: ['MF', 'Floor', 'Comfort'], pidStyle: 'prefixed', code: 'MFX', weight: 2, country: 'CZ' },
  // ventilation and air conditioning
  { name: 'KlimaSüd', manufacturer: 'KlimaSüd Lüftungstechnik GmbH', domains: ['klima'], series: ['Aero', 'Vent', 'Frio'], pidStyle: 'dash', code: 'KS', weight: 2, supplier: '200005', country: 'DE' },
  { name: 'Aerovent', manufacturer: 'Aerovent Ventilatoren GmbH', domains: ['klima'], series: ['Silent', 'Eco', 'Max'], pidStyle: 'plain', code: 'AEV', weight: 1.5, country: 'DE' },
  { name: 'Frigotherm', manufacturer: 'Frigotherm Klimatechnik GmbH', domains: ['klima'], series: ['Split', 'Multi', 'Cool Pro'], pidStyle: 'prefixed', code: 'FRG', weight: 1.5, country: 'TR' },
  // tools
  { name: 'Pressmax', manufacturer: 'Pressmax Werkzeuge GmbH', domains: ['werkzeug'], series: ['PM', 'Akku', 'Mini'], pidStyle: 'plain', code: 'PMX', weight: 1.5, country: 'DE' },
  { name: 'Zangenwerk Solingen', manufacturer: 'Zangenwerk Solingen GmbH', domains: ['werkzeug'], series: ['Cobra', 'Grip', 'Classic'], pidStyle: 'spaced', code: 'ZWS', weight: 1.5, country: 'DE' },
  { name: 'Schneidwerk', manufacturer: 'Schneidwerk Rohrwerkzeuge GmbH', domains: ['werkzeug'], series: ['Cut', 'Pro', 'Mini'], pidStyle: 'dash', code: 'SW', weight: 1, country: 'DE' },
  { name: 'Messfix', manufacturer: 'Messfix Messtechnik GmbH', domains: ['werkzeug'], series: ['MF', 'Digital', 'Analog'], pidStyle: 'dotted', code: 'MSF', weight: 1, country: 'DE' },
  { name: 'Bohrmeister', manufacturer: 'Bohrmeister Werkzeugbau GmbH', domains: ['werkzeug'], series: ['Diamant', 'Power', 'Kompakt'], pidStyle: 'prefixed', code: 'BMR', weight: 1, country: 'CN' },
  // kitchen
  { name: 'Küchenwerk', manufacturer: 'Küchenwerk Ostwestfalen GmbH', domains: ['kueche'], series: ['Herford', 'Lemgo', 'Detmold'], pidStyle: 'dash', code: 'KW', weight: 2, supplier: '200008', country: 'DE' },
  { name: 'Spülenmeister', manufacturer: 'Spülenmeister GmbH', domains: ['kueche'], series: ['Granit', 'Inox', 'Flat'], pidStyle: 'plain', code: 'SPM', weight: 1, country: 'DE' },
];

/** Wholesalers of the demo world and the domains they stock. */
export const wholesalers: readonly { bp: string; domains: readonly Domain[]; pid: (n: string) => string; share: number }[] = [
  { bp: '200001', domains: ['sanitaer', 'heizung', 'installation', 'rohre', 'kueche'], pid: (n) => `NB${n}`, share: 0.6 },
  { bp: '200002', domains: ['heizung', 'installation', 'rohre', 'klima'], pid: (n) => `WK-${n.slice(0, 4)}-${n.slice(4)}`, share: 0.5 },
  { bp: '200007', domains: ['sanitaer', 'installation', 'rohre', 'kueche'], pid: (n) => `7${n}`, share: 0.45 },
  { bp: '200009', domains: ['werkzeug', 'installation', 'rohre'], pid: (n) => `WHF.${n}`, share: 0.55 },
];
