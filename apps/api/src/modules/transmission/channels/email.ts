import { CommunicationProtocol, formatEuro as euro, formatQuantityValue, unitName } from '@shk/contracts';
import type { MailService } from '../../mail/index.ts';
import { PermanentTransmissionError, type OrderTransmitter, type TransmissionRequest } from '../transmission.types.ts';

const germanDate = (iso: string) => iso.split('-').reverse().join('.');

/**
 * Suppliers file and answer orders by the customer's order number, so the subject and the text lead with it;
 * the portal's own supplier order number follows.
 */
export function orderMailSubject({ order }: Pick<TransmissionRequest, 'order'>): string {
  return (
    `${order.isTest ? '[TEST] ' : ''}Kundenbestellung ${order.customerOrderNumber} – Bestellung ${order.supplierOrderNumber} ` +
    `von ${order.buyer.name} (Kundennr. ${order.buyer.supplierCustomerNumber ?? '–'})`
  );
}

export function orderMailText({ order, documents, attachments }: TransmissionRequest): string {
  return [
    `${order.isTest ? 'TESTBESTELLUNG (Kommunikationstest) – bitte nicht ausliefern.\n\n' : ''}Kundenbestellung ${order.customerOrderNumber}: Bestellung ${order.supplierOrderNumber} über das SHK-Bestellportal`,
    `Kunde: ${order.buyer.name}, Geschäftspartnernummer ${order.buyer.bpNumber}, Kundennummer ${order.buyer.supplierCustomerNumber ?? '–'}`,
    '',
    ...order.lines.map(
      (l) =>
        `${l.lineNo}. ${l.articleNumber} ${l.name} – Menge ${formatQuantityValue(l.quantity)} ${unitName(l.unitCode)}` +
        `${l.quantityPrice != null ? ` = ${euro(l.quantityPrice)}` : ''}${l.deliveryDate ? `, Lieferdatum ${germanDate(l.deliveryDate)}` : ''}`,
    ),
    '',
    `Warenwert (netto): ${euro(order.netValue)}, Lieferkosten (netto): ${euro(order.deliveryCost)}`,
    '',
    `Die Bestellung liegt als ${documents.map((d) => d.fileName).join(', ')} bei.`,
    ...(attachments.length ? [`Anhänge des Bestellers: ${attachments.map((a) => a.fileName).join(', ')}`] : []),
    '',
    'Die Bestellung wird erst mit Ihrer Auftragsbestätigung verbindlich. Bitte bestätigen Sie sie im SHK-Bestellportal.',
  ].join('\n');
}

/**
 * Email (1): one mail per address of the semicolon list with the documents and the buyer's attachments, composed once
 * for all addresses (the attachments encoded once). The Message-ID is stable per order and address, so a receiver can
 * drop a redelivery after a crash.
 */
export function emailTransmitter(mail: Pick<MailService, 'deliverDirect'>): OrderTransmitter {
  return {
    protocolId: CommunicationProtocol.Email,
    async transmit(request) {
      const { order, target, documents, attachments, idempotencyKey } = request;
      if (!target.emailAddresses.length)
        throw new PermanentTransmissionError('Keine Bestell-E-Mail-Adresse des Lieferanten hinterlegt');
      const recipients = target.emailAddresses.map((to, index) => ({
        id: `${order.supplierOrderNumber}-${index + 1}`,
        to,
        messageId: `<${idempotencyKey}.${index + 1}@shk-bestellportal>`,
      }));
      await mail.deliverDirect(
        {
          subject: orderMailSubject(request),
          text: orderMailText(request),
          attachments: [
            ...documents.map((d) => ({ filename: d.fileName, content: d.content, contentType: d.mediaType })),
            ...attachments.map((a) => ({ filename: a.fileName, content: a.content, contentType: a.contentType })),
          ],
        },
        recipients,
      );
      return { remoteNames: target.emailAddresses, messageId: recipients.map((r) => r.messageId).join(' ') };
    },
  };
}
