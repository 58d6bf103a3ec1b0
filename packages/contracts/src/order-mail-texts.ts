/**
 * German texts of the mails a buyer gets about an order (placed; confirmed, changed or rejected by a supplier).
 * Pure functions: the API fills them from the order and sends them through the mail outbox.
 */

import { formatEuro, round2 } from './money.ts';
import { formatQuantityValue } from './quantity.ts';
import { unitName } from './units.ts';

const formatMailEuro = (value: number | null) => (value == null ? 'Preis auf Anfrage' : formatEuro(value));
const formatMailQuantity = formatQuantityValue;
/** 2030-05-04 → 04.05.2030 */
const formatMailDate = (iso: string | null) => (iso ? iso.split('-').reverse().join('.') : '–');

export interface MailLine {
  lineNo: number;
  articleNumber: string;
  name: string;
  quantity: number;
  unit: string | null;
  lineTotal: number | null;
}

export interface PlacedSupplierOrder {
  supplierName: string;
  supplierOrderNumber: string;
  lines: MailLine[];
  net: number;
  deliveryCost: number;
}

const lineText = (l: MailLine) =>
  `  ${l.lineNo}. ${formatMailQuantity(l.quantity)}${l.unit ? ` ${unitName(l.unit)}` : ''} ${l.name} (Art.-Nr. ${l.articleNumber}) – ${formatMailEuro(l.lineTotal)}`;

export function orderPlacedMail(order: {
  customerOrderNumber: string;
  supplierOrders: PlacedSupplierOrder[];
  net: number;
  deliveryCost: number;
  url: string;
}) {
  const blocks = order.supplierOrders.flatMap((so) => [
    `${so.supplierName} – Lieferantenbestellung ${so.supplierOrderNumber}`,
    ...so.lines.map(lineText),
    `  Warenwert (netto): ${formatMailEuro(so.net)}`,
    `  Lieferkosten (netto): ${formatMailEuro(so.deliveryCost)}`,
    '',
  ]);
  return {
    subject: `Ihre Bestellung ${order.customerOrderNumber} ist eingegangen`,
    text: [
      'Guten Tag,',
      '',
      `vielen Dank für Ihre Bestellung ${order.customerOrderNumber}. Sie wird an die Lieferanten übermittelt; ` +
        'verbindlich wird sie mit der Auftragsbestätigung des Lieferanten.',
      '',
      ...blocks,
      `Gesamt Warenwert (netto): ${formatMailEuro(order.net)}`,
      `Gesamt Lieferkosten (netto): ${formatMailEuro(order.deliveryCost)}`,
      `Gesamtsumme (netto): ${formatMailEuro(round2(order.net + order.deliveryCost))}`,
      '',
      order.url,
      '',
      'Ihr SHK-Bestellportal',
    ].join('\n'),
  };
}

export type ConfirmationMailKind = 'confirmed' | 'changed' | 'rejected';

/** One line of a confirmation: what was ordered and what the supplier confirmed (null: not ordered / removed). */
export interface ConfirmationMailLine {
  lineNo: number;
  kind: 'confirmed' | 'changed' | 'replaced' | 'removed' | 'added';
  ordered: {
    articleNumber: string;
    name: string;
    quantity: number;
    unitPrice: number | null;
    deliveryDate: string | null;
  } | null;
  confirmed: {
    articleNumber: string;
    name: string;
    quantity: number;
    unitPrice: number | null;
    deliveryDate: string | null;
    lineTotal: number | null;
  } | null;
  unit: string | null;
}

const kindWords: Record<ConfirmationMailKind, string> = {
  confirmed: 'bestätigt',
  changed: 'mit Änderungen bestätigt',
  rejected: 'abgelehnt',
};

function confirmationLineText(l: ConfirmationMailLine): string[] {
  const unit = l.unit ? ` ${unitName(l.unit)}` : '';
  const c = l.confirmed;
  const o = l.ordered;
  if (l.kind === 'removed' || !c)
    return [
      `  ${l.lineNo}. ENTFERNT: ${o ? `${formatMailQuantity(o.quantity)}${unit} ${o.name} (Art.-Nr. ${o.articleNumber})` : ''}`,
    ];
  const head = `  ${l.lineNo}. ${formatMailQuantity(c.quantity)}${unit} ${c.name} (Art.-Nr. ${c.articleNumber}) – ${formatMailEuro(c.lineTotal)}`;
  if (l.kind === 'added') return [`${head} – vom Lieferanten hinzugefügt`];
  if (l.kind === 'confirmed' || !o) return [head];
  const changes: string[] = [];
  if (l.kind === 'replaced') changes.push(`Artikel ersetzt, bestellt: ${o.name} (Art.-Nr. ${o.articleNumber})`);
  if (o.quantity !== c.quantity)
    changes.push(`Menge bestellt ${formatMailQuantity(o.quantity)}, bestätigt ${formatMailQuantity(c.quantity)}`);
  if (o.unitPrice !== c.unitPrice)
    changes.push(`Einzelpreis bestellt ${formatMailEuro(o.unitPrice)}, bestätigt ${formatMailEuro(c.unitPrice)}`);
  if (o.deliveryDate !== c.deliveryDate)
    changes.push(`Lieferdatum bestellt ${formatMailDate(o.deliveryDate)}, bestätigt ${formatMailDate(c.deliveryDate)}`);
  return [head, ...changes.map((x) => `     ${x}`)];
}

export function supplierConfirmationMail(c: {
  kind: ConfirmationMailKind;
  supplierName: string;
  supplierOrderNumber: string;
  customerOrderNumber: string;
  lines: ConfirmationMailLine[];
  orderedTotal: number;
  confirmedTotal: number;
  url: string;
}) {
  const intro =
    c.kind === 'rejected'
      ? `${c.supplierName} hat Ihre Bestellung ${c.supplierOrderNumber} (Kundenbestellung ${c.customerOrderNumber}) abgelehnt. Es wird nichts geliefert.`
      : `${c.supplierName} hat Ihre Bestellung ${c.supplierOrderNumber} (Kundenbestellung ${c.customerOrderNumber}) ${kindWords[c.kind]}.` +
        (c.kind === 'changed' ? ' Bitte prüfen Sie die geänderten Positionen.' : '');
  return {
    subject: `Bestellung ${c.customerOrderNumber}: ${c.supplierName} hat ${c.supplierOrderNumber} ${kindWords[c.kind]}`,
    text: [
      'Guten Tag,',
      '',
      intro,
      '',
      ...c.lines.flatMap(confirmationLineText),
      '',
      `Warenwert bestellt (netto): ${formatMailEuro(c.orderedTotal)}`,
      `Warenwert bestätigt (netto): ${formatMailEuro(c.confirmedTotal)}`,
      '',
      c.url,
      '',
      'Ihr SHK-Bestellportal',
    ].join('\n'),
  };
}
