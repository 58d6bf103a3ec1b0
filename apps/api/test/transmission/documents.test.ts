import { execFileSync } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { Reader } from 'edifact';
import { orderPdf, pdfOrderDocument } from '../../src/modules/transmission/formats/pdf-order.ts';
import { orderPdfInThread, stopOrderPdfThread } from '../../src/modules/transmission/formats/pdf-thread.ts';
import { clearPdfCaches, layoutCacheWords, renderPdf } from '../../src/lib/pdf.ts';
import { escapeEdifact, ordersMessage } from '../../src/modules/transmission/formats/edifact-orders.ts';
import type { SupplierOrderForTransmission } from '../../src/modules/transmission/transmission.types.ts';

const address = {
  name: 'Sanitär Müller GmbH',
  street: 'Lindenstraße',
  houseNumber: '12',
  postalCode: '50667',
  city: 'Köln',
  countryCode: 'DE',
};

function order(lines: number): SupplierOrderForTransmission {
  return {
    id: 42,
    supplierOrderNumber: 'LB-42',
    customerOrderNumber: 'KB-2026-42',
    placedAt: new Date('2026-03-02T10:00:00Z'),
    isTest: false,
    supplier: { bpNumber: '200001', name: 'Nordbad', gln: null, headquarterGln: '4012345000016', address },
    buyer: {
      bpNumber: '100001',
      name: 'Sanitär Müller GmbH',
      supplierCustomerNumber: 'K-10001',
      address,
      contactName: 'Jörg Weiß',
      contactEmail: 'einkauf@example.com',
    },
    dispatchTo: 'Sanitär Müller GmbH, 50667 Köln',
    netValue: 1234.5,
    deliveryCost: 9.9,
    lines: Array.from({ length: lines }, (_, i) => ({
      lineNo: i + 1,
      articleNumber: `ART-${i + 1}`,
      gtin: '4000000000017',
      manufacturerName: 'Testwerk',
      manufacturerNumber: 'TM-100',
      name: `Heizkörperventil Größe ${i + 1} – Maß 15 mm`,
      quantity: 2,
      unitCode: 'C62',
      unitPrice: 12.5,
      priceBasis: 1,
      quantityPrice: 25,
      deliveryDate: '2026-03-10',
      projectCode: 'P-7',
      projectDescription: 'Neubau Süd',
      comment: i === 0 ? 'Anlieferung Tor 3' : null,
      deliveryAddress: i === 1 ? { ...address, name: 'Baustelle Süd' } : null,
      attachments: [],
    })),
  };
}

/** Plain text of a PDF (no-break spaces as spaces), lines as pdftotext reads them. */
const pdfText = (bytes: Buffer) =>
  execFileSync('pdftotext', ['-', '-'], { input: bytes }).toString().replaceAll('\u00a0', ' ');

function pdfPages(bytes: Buffer): string[] {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: bytes })
    .toString()
    .split('\f')
    .filter((p) => p.trim());
}

describe('order PDF', () => {
  it('renders German text with umlauts, ß and €; a long order breaks across pages with the table header on each', () => {
    const pages = pdfPages(orderPdf(order(60)));
    expect(pages.length).toBeGreaterThan(2);
    for (const page of pages.slice(0, -1)) expect(page).toMatch(/Pos\.\s+Artikel\s+Bezeichnung/);
    const text = pages.join('\n');
    expect(text).toContain('Heizkörperventil Größe 60');
    expect(text).toContain('Lieferadresse: Baustelle Süd');
    expect(text).toContain('Ansprechpartner: Jörg Weiß');
    expect(text).toMatch(/1\.234,50\s€/);
    expect(text).toContain('Projekt: P-7 – Neubau Süd');
    expect(text).toContain('Lieferdatum: 10.03.2026');
    // German number and date formats (Intl formatters kept per process)
    expect(text).toContain('Kundenbestellung KB-2026-42 vom 2.3.2026');
    expect(text).toMatch(/2 Stk\s+12,50\s€\s+25,00\s€/);
  });

  it('prints units by their German names from the shared Recommendation 20 table, never as codes', () => {
    const o = order(3);
    o.lines[0] = { ...o.lines[0], unitCode: 'MTR', quantity: 25 };
    o.lines[1] = { ...o.lines[1], unitCode: 'KGM', priceBasis: 100 };
    o.lines[2] = { ...o.lines[2], unitCode: null };
    const text = pdfText(orderPdf(o));
    expect(text).toMatch(/25 m\s+12,50\s€/);
    expect(text).toMatch(/2 kg\s+12,50\s€/);
    expect(text).toContain('je 100 kg');
    expect(text).toMatch(/2 Stk\s+12,50\s€/);
    expect(text).not.toMatch(/\b(C62|MTR|KGM)\b/);
  });

  it('the delivery address of an order without line addresses is the buyer address with its street (as the EDIFACT NAD+DP)', () => {
    const o = order(2);
    o.lines = o.lines.map((l) => ({ ...l, deliveryAddress: null }));
    const text = pdfText(orderPdf(o));
    expect(text).toContain('Lieferadresse (für alle Positionen): Sanitär Müller GmbH, Lindenstraße 12, 50667 Köln');
    // a cart-level address (the same on every line) is printed once, with its street
    const site = { ...address, name: 'Baustelle Nord', street: 'Am Hafen', houseNumber: '3' };
    o.lines = o.lines.map((l) => ({ ...l, deliveryAddress: site }));
    const once = pdfText(orderPdf(o));
    expect(once).toContain('Lieferadresse (für alle Positionen): Baustelle Nord, Am Hafen 3, 50667 Köln');
    expect(once).not.toContain('Lieferadresse: ');
  });

  it("keeps the supplier's postal code and city on one line whatever the length of name and street", () => {
    const streets = ['Industriestraße', 'Gewerbegebiet Am Güterbahnhof', 'Hauptstraße', 'Carl-Friedrich-Gauß-Straße'];
    const names = [
      'Nordbad Sanitärgroßhandel GmbH & Co. KG',
      'Aquatherm Haustechnik Vertriebsgesellschaft mbH',
      'Nordbad',
    ];
    for (const name of names)
      for (const street of streets)
        for (const houseNumber of ['1', '117a', '12-14']) {
          const o = order(1);
          o.supplier = {
            ...o.supplier,
            address: { name, street, houseNumber, postalCode: '60528', city: 'Frankfurt am Main', countryCode: 'DE' },
          };
          const lines = pdfText(orderPdf(o)).split('\n');
          const line = lines.find((l) => l.includes('60528'));
          expect(line, `${name} / ${street} ${houseNumber}`).toMatch(/60528\sFrankfurt/);
        }
  });

  it('opens no font its text does not use (pdfkit parsed Helvetica for every document)', () => {
    let opened: string[] = [];
    renderPdf((doc) => {
      opened = Object.keys((doc as unknown as { _fontFamilies: Record<string, unknown> })._fontFamilies);
      doc.text('Bestellung');
    });
    expect(opened).not.toContain('Helvetica');
    expect(opened).toContain('regular');
  });

  it('documents rendered one after another (fonts parsed once per process) each carry their own complete text', () => {
    const first = order(2);
    const second = { ...order(3), supplierOrderNumber: 'LB-43' };
    second.lines[2] = { ...second.lines[2], name: 'Überwurfmutter ½" ÄÖÜß' };
    const firstPdf = orderPdf(first);
    const secondPdf = orderPdf(second);
    const again = orderPdf(first);
    expect(pdfPages(again).join('\n')).toBe(pdfPages(firstPdf).join('\n'));
    const text = pdfPages(secondPdf).join('\n');
    expect(text).toContain('Überwurfmutter ½" ÄÖÜß');
    expect(text).toContain('LB-43');
    expect(pdfPages(firstPdf).join('\n')).not.toContain('Überwurfmutter');
    // each document embeds its own font subset: the bytes of the first one do not depend on the second
    expect(again.length).toBe(firstPdf.length);
  });
});

describe('order PDF: fonts and word layouts kept per process', () => {
  type Fontkit = { layout: (...args: unknown[]) => unknown };
  const fontkitOf = (doc: unknown, name: string) =>
    (doc as { _fontFamilies: Record<string, { font: Fontkit }> })._fontFamilies[name].font;

  it('a document rendered first or after other orders is byte for byte the one pdfkit renders alone', () => {
    // pdfkit stamps the creation date (and the file ID derived from it) into every file
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T08:00:00Z'));
    try {
      const mine = { ...order(3), supplierOrderNumber: 'LB-77' };
      clearPdfCaches();
      const first = orderPdf(mine);
      const other = { ...order(5), supplierOrderNumber: 'LB-99', customerOrderNumber: 'KB-FREMD-1' };
      other.buyer = { ...other.buyer, contactName: 'Zoë Ångström', contactEmail: 'fremd@example.org' };
      other.lines = other.lines.map((l) => ({
        ...l,
        name: `Spülkasten Ωmega ${l.lineNo}`,
        comment: 'Vertraulich: Tor 9',
      }));
      orderPdf(other);
      const after = orderPdf(mine);
      const plain = orderPdf(mine, { reuse: false });
      expect(first.equals(plain)).toBe(true);
      expect(after.equals(plain)).toBe(true);
      const text = pdfPages(after).join('\n');
      expect(text).toContain('LB-77');
      for (const foreign of ['LB-99', 'KB-FREMD-1', 'Zoë', 'Ångström', 'Spülkasten', 'Ωmega', 'Vertraulich', 'fremd@'])
        expect(text).not.toContain(foreign);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the words of an order are shaped by fontkit once per process, not once per document', () => {
    let fonts: Fontkit[] = [];
    renderPdf((doc) => {
      fonts = [fontkitOf(doc, 'regular'), fontkitOf(doc, 'bold')];
    });
    const first = orderPdf(order(2));
    let shaped = 0;
    const originals = fonts.map((font) => font.layout);
    fonts.forEach((font, i) => {
      font.layout = (...args) => {
        shaped++;
        return originals[i].apply(font, args);
      };
    });
    let again: Buffer;
    try {
      again = orderPdf(order(2));
    } finally {
      fonts.forEach((font, i) => (font.layout = originals[i]));
    }
    expect(shaped).toBe(0);
    expect(pdfPages(again).join('\n')).toBe(pdfPages(first).join('\n'));
  });

  it('keeps a bounded number of word layouts (order numbers and names vary without end)', () => {
    clearPdfCaches();
    const words = Array.from({ length: layoutCacheWords + 200 }, (_, i) => `W${i}`);
    const pdf = renderPdf((doc) => doc.fontSize(4).text(words.join(' ')));
    let shaped = 0;
    renderPdf((doc) => {
      const font = fontkitOf(doc, 'regular');
      const layout = font.layout;
      font.layout = (...args) => {
        shaped++;
        return layout.apply(font, args);
      };
      try {
        doc.text('W0 W1 W2');
      } finally {
        font.layout = layout;
      }
    });
    // the oldest words were dropped (shaped again), the text itself is complete
    expect(shaped).toBeGreaterThan(0);
    expect(pdfPages(pdf).join(' ')).toContain(`W${layoutCacheWords + 199}`);
  });
});

describe('order PDF: rendered in the order PDF thread', () => {
  /** The file without its creation time and the file ID pdfkit derives from it (all that differs between renderings). */
  const withoutDate = (pdf: Buffer) =>
    pdf
      .toString('latin1')
      .replace(/\(D:\d+Z\)/g, '')
      .replace(/\/ID \[<[0-9a-f]+> <[0-9a-f]+>\]/, '');

  it('the document the transmission sends is the one orderPdf renders in the process, byte for byte', async () => {
    try {
      const o = order(40);
      const inProcess = orderPdf(o);
      const sent = (await pdfOrderDocument.render(o, { platformGln: '4000000000000' })).content as Buffer;
      expect(withoutDate(sent)).toBe(withoutDate(inProcess));
      expect(pdfText(sent)).toBe(pdfText(inProcess));
      // Several at once (the five supplier orders of a checkout): each gets its own document.
      const orders = [1, 2, 3, 4, 5].map((n) => ({ ...order(n * 3), supplierOrderNumber: `LB-${n}` }));
      const documents = await Promise.all(orders.map((x) => orderPdfInThread(x)));
      documents.forEach((pdf, i) => {
        expect(withoutDate(pdf)).toBe(withoutDate(orderPdf(orders[i])));
        expect(pdfText(pdf)).toContain(`Bestellung LB-${i + 1}`);
      });
    } finally {
      await stopOrderPdfThread();
    }
  });

  it('a thread that was ended is started again for the next document', async () => {
    const first = await orderPdfInThread(order(1));
    await stopOrderPdfThread();
    const second = await orderPdfInThread(order(1));
    await stopOrderPdfThread();
    expect(withoutDate(second)).toBe(withoutDate(first));
  });
});

describe('EDIFACT ORDERS', () => {
  it('escapes service characters with the release character and keeps UNOC (Latin-1)', () => {
    expect(escapeEdifact("a+b:c'd?e")).toBe("a?+b?:c?'d??e");
    expect(escapeEdifact('Preis 5 € – netto')).toBe('Preis 5 EUR - netto');
    expect(escapeEdifact('Größe Ø 漢')).toBe('Größe Ø  ');
  });

  it('takes the headquarter GLN when the supplier has no own GLN; per-line delivery addresses as NAD+DP; counts', () => {
    const message = ordersMessage(order(3), { version: '97A', platformGln: '4399902421007' });
    const segments = new Reader({ autoDetectEncoding: true }).parse(message);
    expect(segments[0].elements[2]).toEqual(['4012345000016', '14']);
    // the header NAD+DP (the buyer, for lines without an address of their own) and line 2's own
    const dp = segments.filter((s) => s.name === 'NAD' && s.elements[0][0] === 'DP');
    expect(dp.map((s) => s.elements[3][0])).toEqual(['Sanitär Müller GmbH', 'Baustelle Süd']);
    expect(segments.filter((s) => s.name === 'LIN')).toHaveLength(3);
    const unt = segments.find((s) => s.name === 'UNT')!;
    const count = segments.filter((s) => !['UNB', 'UNZ'].includes(s.name)).length;
    expect(Number(unt.elements[0][0])).toBe(count);
    expect(segments.find((s) => s.name === 'MOA' && s.elements[0][0] === '86')!.elements[0][1]).toBe('1244.40');
  });
});
