import {
  BUSINESS_TIME_ZONE,
  CommunicationDataFormat,
  cartMessages,
  formatEuro,
  formatQuantityValue,
  round2,
  unitName,
} from '@shk/contracts';
import { renderPdf, type PdfKitDocument, type RenderOptions } from '../../../lib/pdf.ts';
import { orderPdfInThread } from './pdf-thread.ts';
import type {
  OrderAddress,
  OrderLineForTransmission,
  SupplierOrderDocument,
  SupplierOrderForTransmission,
} from '../transmission.types.ts';

// Formatters built once (toLocaleString builds a new Intl formatter on every call; the same text).
const placedFormat = new Intl.DateTimeFormat('de-DE', { timeZone: BUSINESS_TIME_ZONE });
const euro = (n: number | null) => (n == null ? 'auf Anfrage' : formatEuro(n));
const qty = formatQuantityValue;
const dateDe = (iso: string) => iso.split('-').reverse().join('.');
/** Postal code and city joined by a no-break space: a line is never broken between them. */
const placeText = (a: OrderAddress) => [a.postalCode, a.city].filter(Boolean).join('\u00a0');

/** An address as its printed lines: name, contact, addition, street with house number, postal code and city, country. */
export const addressLines = (a: OrderAddress) =>
  [
    a.name,
    a.contactPerson,
    a.additionalInfo,
    [a.street, a.houseNumber].filter(Boolean).join(' '),
    placeText(a),
    a.countryCode,
  ].filter((part): part is string => !!part);

export const addressText = (a: OrderAddress) => addressLines(a).join(', ');

/**
 * Where each line goes: its own address, else the buyer's address (the same the EDIFACT NAD+DP names).
 * When all lines go to one address it is printed once above the table.
 */
function deliveryAddresses(order: SupplierOrderForTransmission) {
  const perLine = order.lines.map((l) => addressText(l.deliveryAddress ?? order.buyer.address));
  const shared = perLine.every((a) => a === perLine[0]) ? (perLine[0] ?? null) : null;
  return { shared, perLine };
}

/** Column layout of the line table (x offset and width in points, A4 with 40 pt margins). */
const columns = [
  { title: 'Pos.', x: 40, w: 28, align: 'left' },
  { title: 'Artikel', x: 70, w: 120, align: 'left' },
  { title: 'Bezeichnung / Angaben', x: 192, w: 170, align: 'left' },
  { title: 'Menge', x: 364, w: 60, align: 'right' },
  { title: 'Einzelpreis', x: 426, w: 62, align: 'right' },
  { title: 'Gesamt', x: 490, w: 65, align: 'right' },
] as const;

function tableHeader(doc: PdfKitDocument) {
  const y = doc.y;
  doc.font('bold').fontSize(8);
  for (const c of columns) doc.text(c.title, c.x, y, { width: c.w, align: c.align });
  doc
    .moveTo(40, y + 12)
    .lineTo(555, y + 12)
    .stroke();
  doc.font('regular').y = y + 16;
}

function lineCells(l: OrderLineForTransmission, deliveryAddress: string | null): string[] {
  const details = [
    l.name,
    l.deliveryDate ? `Lieferdatum: ${dateDe(l.deliveryDate)}` : null,
    l.projectCode ? `Projekt: ${l.projectCode}${l.projectDescription ? ` – ${l.projectDescription}` : ''}` : null,
    l.comment ? `Notiz: ${l.comment}` : null,
    deliveryAddress ? `Lieferadresse: ${deliveryAddress}` : null,
    ...l.attachments.map((a) => `Anhang: ${a.fileName}`),
  ].filter(Boolean);
  return [
    String(l.lineNo),
    [
      `Art.-Nr. ${l.articleNumber}`,
      l.gtin ? `GTIN ${l.gtin}` : null,
      l.manufacturerName ? `Hersteller: ${l.manufacturerName}` : null,
      l.manufacturerNumber ? `Herst.-Nr. ${l.manufacturerNumber}` : null,
    ]
      .filter(Boolean)
      .join('\n'),
    details.join('\n'),
    `${qty(l.quantity)} ${unitName(l.unitCode)}`,
    `${euro(l.unitPrice)}${l.priceBasis !== 1 ? `\nje ${qty(l.priceBasis)} ${unitName(l.unitCode)}` : ''}`,
    euro(l.quantityPrice),
  ];
}

/** The German order document (data format 1). */
export function orderPdf(order: SupplierOrderForTransmission, options: RenderOptions = {}): Buffer {
  const title = `${order.isTest ? 'TESTBESTELLUNG – ' : ''}Bestellung ${order.supplierOrderNumber}`;
  return renderPdf(
    (doc) => {
      doc.font('bold').fontSize(16).text(title);
      doc.font('regular').fontSize(9).moveDown(0.3);
      doc.text(
        `Kundenbestellung ${order.customerOrderNumber} vom ${placedFormat.format(order.placedAt)} über das SHK-Bestellportal`,
      );
      if (order.isTest) doc.text('Testbestellung im Kommunikationstest – bitte nicht ausliefern.');
      if (order.orderReference) {
        doc.moveDown(0.3).font('bold').text(`${cartMessages.orderReferenceLabel}: `, { continued: true });
        doc.font('regular').text(order.orderReference);
      }
      if (order.orderNote) {
        doc.font('bold').text(`${cartMessages.orderNoteLabel}: `, { continued: true });
        doc.font('regular').text(order.orderNote, { width: 515 });
      }
      doc.moveDown(0.6);
      const top = doc.y;
      doc.font('bold').text('Lieferant', 40, top);
      doc.font('regular').text(addressLines(order.supplier.address).join('\n'), 40, doc.y, { width: 250 });
      doc.text(`Geschäftspartnernummer: ${order.supplier.bpNumber}`, { width: 250 });
      if (order.supplier.gln) doc.text(`GLN: ${order.supplier.gln}`, { width: 250 });
      const leftBottom = doc.y;
      doc.font('bold').text('Besteller', 305, top);
      doc.font('regular').text(addressLines(order.buyer.address).join('\n'), 305, doc.y, { width: 250 });
      doc.text(`Geschäftspartnernummer: ${order.buyer.bpNumber}`, { width: 250 });
      doc.text(`Kundennummer beim Lieferanten: ${order.buyer.supplierCustomerNumber ?? '–'}`, { width: 250 });
      if (order.buyer.contactName) doc.text(`Ansprechpartner: ${order.buyer.contactName}`, { width: 250 });
      if (order.buyer.contactEmail) doc.text(`E-Mail: ${order.buyer.contactEmail}`, { width: 250 });
      doc.y = Math.max(leftBottom, doc.y) + 8;
      doc.x = 40;
      const delivery = deliveryAddresses(order);
      if (delivery.shared)
        doc.text(`Lieferadresse (für alle Positionen): ${delivery.shared}`, 40, doc.y, { width: 515 });
      doc.moveDown(0.8);
      tableHeader(doc);
      const bottom = doc.page.height - doc.page.margins.bottom;
      for (const [index, line] of order.lines.entries()) {
        const cells = lineCells(line, delivery.shared ? null : delivery.perLine[index]);
        doc.fontSize(8);
        const height = Math.max(...cells.map((text, i) => doc.heightOfString(text, { width: columns[i].w }))) + 6;
        if (doc.y + height > bottom) {
          doc.addPage();
          doc.y = doc.page.margins.top;
          tableHeader(doc);
        }
        const y = doc.y;
        cells.forEach((text, i) => doc.text(text, columns[i].x, y, { width: columns[i].w, align: columns[i].align }));
        doc.y = y + height;
      }
      if (doc.y + 60 > bottom) {
        doc.addPage();
        doc.y = doc.page.margins.top;
      }
      doc.moveTo(40, doc.y).lineTo(555, doc.y).stroke();
      doc.moveDown(0.4).fontSize(9);
      const totals: [string, string][] = [
        ['Warenwert (netto)', euro(order.netValue)],
        ['Lieferkosten (netto)', euro(order.deliveryCost)],
        ['Gesamtbetrag (netto)', euro(round2(order.netValue + order.deliveryCost))],
      ];
      for (const [label, value] of totals) {
        const y = doc.y;
        doc.font(label.startsWith('Gesamt') ? 'bold' : 'regular');
        doc.text(label, 300, y, { width: 180 });
        doc.text(value, 480, y, { width: 75, align: 'right' });
      }
      const attachments = order.lines.flatMap((l) => l.attachments.map((a) => ({ line: l.lineNo, ...a })));
      doc.font('regular').moveDown(0.8);
      doc.x = 40;
      if (attachments.length) {
        doc.font('bold').text('Anhänge des Bestellers', 40);
        doc.font('regular');
        for (const a of attachments)
          doc.text(`Pos. ${a.line}: ${a.fileName} (${Math.ceil(a.size / 1024)} KB)`, 40, doc.y, { width: 515 });
        doc.moveDown(0.5);
      }
      doc.text(
        'Die Bestellung wird erst mit Ihrer Auftragsbestätigung verbindlich. Bitte bestätigen Sie sie im SHK-Bestellportal.',
        40,
        doc.y,
        { width: 515 },
      );
    },
    { title },
    options,
  );
}

export const pdfOrderDocument: SupplierOrderDocument = {
  formatId: CommunicationDataFormat.Pdf,
  async render(order) {
    return {
      formatId: CommunicationDataFormat.Pdf,
      fileName: `Bestellung_${order.supplierOrderNumber}.pdf`,
      mediaType: 'application/pdf',
      // In the order PDF thread: pdfkit does not block the API's requests meanwhile.
      content: await orderPdfInThread(order),
    };
  },
};
