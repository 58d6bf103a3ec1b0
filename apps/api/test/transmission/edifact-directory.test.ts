import { describe, expect, it } from 'vitest';
import { ASSOCIATION_CODES, ordersMessage, textFields } from '../../src/modules/transmission/formats/edifact-orders.ts';
import type {
  OrderLineForTransmission,
  SupplierOrderForTransmission,
} from '../../src/modules/transmission/transmission.types.ts';
import {
  directoryErrors,
  parseWithPerl,
  parseWithTsEdifact,
  perlMisreads,
  perlParserUnavailable,
  segmentDifferences,
  type Segment,
} from '../support/edifact-directory.ts';

const perlSkip = perlParserUnavailable();
if (perlSkip) console.warn(`[edifact-directory] Prüfung mit Business::Edifact::Interchange übersprungen: ${perlSkip}`);

const address = {
  name: 'Sanitär Müller GmbH',
  street: 'Lindenstraße',
  houseNumber: '12',
  postalCode: '50667',
  city: 'Köln',
  countryCode: 'DE',
};

function line(lineNo: number, overrides: Partial<OrderLineForTransmission> = {}): OrderLineForTransmission {
  return {
    lineNo,
    articleNumber: `ART-${lineNo}`,
    gtin: '4000000000017',
    manufacturerName: 'Testwerk',
    manufacturerNumber: 'TM-100',
    name: `Heizkörperventil ${lineNo}`,
    quantity: 3,
    unitCode: 'C62',
    unitPrice: 39.79,
    priceBasis: 1,
    quantityPrice: 119.37,
    deliveryDate: '2026-03-10',
    projectCode: null,
    projectDescription: null,
    comment: null,
    deliveryAddress: null,
    attachments: [],
    ...overrides,
  };
}

function order(lines: OrderLineForTransmission[], overrides: Partial<SupplierOrderForTransmission> = {}) {
  return {
    id: 42,
    supplierOrderNumber: 'LB-42',
    customerOrderNumber: 'KB-2026-42',
    placedAt: new Date('2026-03-02T10:00:00Z'),
    isTest: false,
    supplier: { bpNumber: '200001', name: 'Nordbad', gln: '4012345000016', headquarterGln: null, address },
    buyer: {
      bpNumber: '100001',
      name: 'Sanitär Müller GmbH',
      supplierCustomerNumber: 'K-10001',
      address,
      contactName: null,
      contactEmail: null,
    },
    dispatchTo: null,
    netValue: 119.37,
    deliveryCost: 9.9,
    lines,
    ...overrides,
  } satisfies SupplierOrderForTransmission;
}

const LONG_NAME = 'Design-Heizkörperventil Eckform weiß'; // 36 characters: 'weiß' crossed the 35th
const LONGER_NAME =
  'Heizkörper-Thermostatventil Eckform DN 20 mit Voreinstellung, Anschluss R 1/2" x 3/4" Eurokonus, Farbe verkehrsweiß (RAL 9016)';
const NOTE_201 = `Bitte Anlieferung nur werktags zwischen 7 und 9 Uhr an Tor 3 (Zufahrt über die Hafenstraße); ${'Ansprechpartner vor Ort: Herr Weiß, Tel. 0221/123456? '.repeat(2)}Danke!`;

const ordersOf = (version: '96A' | '97A', o: SupplierOrderForTransmission) =>
  ordersMessage(o, { version, platformGln: '4399902421007', now: new Date('2026-03-02T10:00:00Z') });
const linesOf = (segments: Segment[], tag: string) => segments.filter((s) => s.name === tag);

/** Every kind of order the portal writes: long texts, service characters, per-line and shared addresses, tests. */
const samples: [string, SupplierOrderForTransmission][] = [
  ['einfache Bestellung', order([line(1)])],
  ['lange Bezeichnungen', order([line(1, { name: LONG_NAME }), line(2, { name: LONGER_NAME })])],
  [
    'lange Notizen mit Trennzeichen',
    order([line(1, { comment: NOTE_201 }), line(2, { comment: `${"Notiz: a+b:c?d'e ".repeat(40)}Ende` })]),
  ],
  [
    'Lieferadressen je Position',
    order([
      line(1, { deliveryAddress: { ...address, name: 'Baustelle Süd, Bauabschnitt II – Haus 7 bis 9' } }),
      line(2),
    ]),
  ],
  [
    'Kommission und Hinweis zur ganzen Bestellung (RFF+CR, FTX+PUR)',
    order([line(1)], { orderReference: "Kommission Müller+Söhne 'Haus 3'", orderNote: NOTE_201 }),
  ],
  [
    'Testbestellung eines Lieferanten ohne GLN',
    order([line(1, { unitCode: 'MTR', quantity: 25.5, priceBasis: 100 })], {
      isTest: true,
      supplier: { bpNumber: '200003', name: 'Aquatherm', gln: null, headquarterGln: null, address },
    }),
  ],
];

describe('EDIFACT ORDERS against the UN/EDIFACT directory (second parser: Business::Edifact::Interchange)', () => {
  const written = (['96A', '97A'] as const).flatMap((version) =>
    samples.map(([what, sample]) => ({ what: `${what}, D.${version}`, message: ordersOf(version, sample) })),
  );

  it.skipIf(perlSkip)(
    'every message written is valid against the segment tables of the directory its UNH names',
    () => {
      for (const { what, message } of written) {
        // The Perl module misreads a field ending in a released '?' (see perlMisreads); ts-edifact reads those.
        const parse = perlMisreads(message) ? parseWithTsEdifact : parseWithPerl;
        expect(directoryErrors(message, parse), what).toEqual([]);
      }
      expect(written.filter(({ message }) => !perlMisreads(message)).length).toBeGreaterThanOrEqual(8);
    },
  );

  it.skipIf(perlSkip)('Business::Edifact::Interchange and ts-edifact read every message alike', () => {
    for (const { what, message } of written) {
      const differences = segmentDifferences(parseWithPerl(message), parseWithTsEdifact(message));
      if (!perlMisreads(message)) expect(differences, what).toEqual([]);
      // The module's known misreading stays within the FTX whose text ends a field in '?' (pinned, so a fixed
      // Debian package shows up here and the ts-edifact fallback above can go).
      else expect(differences.length > 0 && differences.every((d) => d.includes('"FTX"')), what).toBe(true);
    }
  });

  it.skipIf(perlSkip)('the validator itself refuses what the directory forbids (so a pass means something)', () => {
    const valid = ordersOf('96A', samples[0][1]);
    expect(directoryErrors(valid)).toEqual([]);
    const tooLong = valid.replace("IMD+F++:::Heizkörperventil 1'", `IMD+F++:::${'x'.repeat(36)}'`);
    expect(directoryErrors(tooLong)).toEqual([`IMD[3:4] 7008: '${'x'.repeat(36)}' hat 36 Zeichen (an..35)`]);
    expect(() => parseWithTsEdifact(tooLong)).toThrow(/exceeds maximum length 35/);
    const outOfOrder = valid.replace(/(CUX\+[^']*')\n/, '').replace("UNS+S'", "UNS+S'\nCUX+2:EUR:9'");
    expect(directoryErrors(outOfOrder)).toContain('CUX: A mandatory segment UNT is missing');
    const withoutBgm = valid.replace(/BGM\+[^']*'\n/, '');
    expect(directoryErrors(withoutBgm)).toContain('DTM: A mandatory segment BGM is missing');
    const wrongUnt = valid.replace(/UNT\+\d+\+/, 'UNT+99+');
    expect(directoryErrors(wrongUnt)).toEqual([expect.stringMatching(/^UNT zählt 99 Segmente/)]);
    const wrongUnz = valid.replace(/UNZ\+1\+/, 'UNZ+2+');
    expect(directoryErrors(wrongUnz).join('\n')).toMatch(/Business::Edifact::Interchange: .*Message count error/);
  });

  it('a long product name is written whole: both 7008 fields of IMD C273, then further IMD segments', () => {
    const segments = parseWithTsEdifact(ordersOf('96A', samples[1][1]));
    const lines = segments.reduce<Segment[][]>((groups, s) => {
      if (s.name === 'LIN') groups.push([]);
      else if (s.name === 'UNS') groups.push([]);
      groups[groups.length - 1]?.push(s);
      return groups;
    }, []);
    const nameOf = (group: Segment[]) =>
      linesOf(group, 'IMD')
        .flatMap((s) => s.elements[2].slice(3, 5))
        .join(' ');
    expect(nameOf(lines[0])).toBe(LONG_NAME);
    expect(linesOf(lines[0], 'IMD')[0].elements[2].slice(3)).toEqual(['Design-Heizkörperventil Eckform', 'weiß']);
    expect(nameOf(lines[1])).toBe(LONGER_NAME);
    expect(linesOf(lines[1], 'IMD').length).toBeGreaterThan(1);
    for (const imd of linesOf(segments, 'IMD'))
      for (const field of imd.elements[2].slice(3)) expect(Array.from(field).length).toBeLessThanOrEqual(35);
  });

  it('a note is split over the five 4440 fields (an..70) of an FTX and further FTX segments, nothing lost', () => {
    expect(Array.from(NOTE_201).length).toBeGreaterThan(200);
    const segments = parseWithTsEdifact(ordersOf('97A', samples[2][1]));
    const ftx = linesOf(segments, 'FTX');
    // one FTX, its text over several 4440 fields (fields end at word boundaries)
    expect(ftx[0].elements[3].length).toBeGreaterThanOrEqual(3);
    expect(ftx[0].elements[3].length).toBeLessThanOrEqual(5);
    const textOf = (from: number, to: number) =>
      ftx
        .slice(from, to)
        .flatMap((s) => s.elements[3])
        .join(' ');
    expect(textOf(0, 1)).toBe(NOTE_201);
    // the second note (684 characters) needs more than five fields: further FTX segments
    const rest = ftx.slice(1);
    expect(rest.length).toBeGreaterThan(1);
    expect(rest[0].elements[3]).toHaveLength(5);
    expect(textOf(1, ftx.length)).toBe(`${"Notiz: a+b:c?d'e ".repeat(40)}Ende`);
    for (const s of ftx) for (const field of s.elements[3]) expect(Array.from(field).length).toBeLessThanOrEqual(70);
  });

  it('the UNH association code names EANCOM 1997 (EAN008) only on D.96A, which EANCOM 1997 is built on', () => {
    expect(ASSOCIATION_CODES).toEqual({ '96A': 'EAN008', '97A': null });
    const unh = (version: '96A' | '97A') =>
      parseWithTsEdifact(ordersOf(version, samples[0][1])).find((s) => s.name === 'UNH')!.elements[1];
    expect(unh('96A')).toEqual(['ORDERS', 'D', '96A', 'UN', 'EAN008']);
    expect(unh('97A')).toEqual(['ORDERS', 'D', '97A', 'UN']);
  });

  it('text fields count characters, not bytes or UTF-16 units, and split at word boundaries', () => {
    expect(textFields(LONG_NAME, 35)).toEqual(['Design-Heizkörperventil Eckform', 'weiß']);
    expect(textFields('ß'.repeat(40), 35)).toEqual(['ß'.repeat(35), 'ß'.repeat(5)]);
    expect(textFields('  Preis 5 €  ', 35)).toEqual(['Preis 5 EUR']);
  });

  it('QTY and PRI carry Recommendation 20 unit codes, also for units stored in their German spelling', () => {
    const segments = parseWithTsEdifact(
      ordersOf('96A', order([line(1, { unitCode: 'Stk' }), line(2, { unitCode: 'MTR' })])),
    );
    expect(linesOf(segments, 'QTY').map((s) => s.elements[0][2])).toEqual(['C62', 'MTR']);
    expect(linesOf(segments, 'PRI').map((s) => s.elements[0][5])).toEqual(['C62', 'MTR']);
  });
});
