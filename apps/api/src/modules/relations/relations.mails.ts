import { relationStatusLabels, type NewCustomerPartner, type SupplierCustomerRelation } from '@shk/contracts';
import type { OutgoingMail } from '../mail/index.ts';

/**
 * Mail texts of the relation flows; addresses come from the supplier settings and the buyer partner.
 * The new-customer request quotes the contact the buyer typed in, but its Reply-To is only the requesting
 * user's profile address (validated at sign-in), so the portal cannot be used to send mail "from" anyone.
 */
export function newCustomerRequestMail(
  to: string,
  relation: SupplierCustomerRelation,
  contact: {
    name: string;
    email: string;
    phone?: string | null;
    message?: string | null;
    partner?: NewCustomerPartner | null;
  },
  profileEmail: string,
): OutgoingMail {
  return {
    to,
    replyTo: profileEmail,
    subject: `Neukundenanfrage über das SHK-Bestellportal: ${relation.buyer.name}`,
    text: [
      `Guten Tag,`,
      '',
      `${relation.buyer.name} (Geschäftspartnernummer ${relation.buyer.bpNumber}) möchte bei ${relation.supplier.name} bestellen und hat noch keine Kundennummer.`,
      'Bitte nehmen Sie Kontakt auf:',
      '',
      `Name: ${contact.name}`,
      `E-Mail: ${contact.email}`,
      `Telefon: ${contact.phone || '–'}`,
      '',
      'Nachricht:',
      contact.message || '–',
      '',
      ...(contact.partner ? partnerLines(contact.partner) : []),
      'Sie können die Anfrage im SHK-Bestellportal unter „Meine Kunden“ bearbeiten.',
    ].join('\n'),
  };
}

export function customerRequestMail(to: string, relation: SupplierCustomerRelation): OutgoingMail {
  return {
    to,
    subject: `Freischaltungsanfrage über das SHK-Bestellportal: ${relation.buyer.name}`,
    text: [
      'Guten Tag,',
      '',
      `${relation.buyer.name} (Geschäftspartnernummer ${relation.buyer.bpNumber}) bittet um Freischaltung für Bestellungen.`,
      `Angegebene Kundennummer: ${relation.supplierCustomerNumber}`,
      '',
      'Bitte bestätigen oder lehnen Sie die Anfrage im SHK-Bestellportal unter „Meine Kunden“ ab.',
    ].join('\n'),
  };
}

export function statusChangedMail(to: string, relation: SupplierCustomerRelation): OutgoingMail {
  const status = relationStatusLabels[relation.relationStatusId] ?? String(relation.relationStatusId);
  return {
    to,
    subject: `Ihre Geschäftsbeziehung mit ${relation.supplier.name}: ${status}`,
    text: [
      'Guten Tag,',
      '',
      `der Status Ihrer Geschäftsbeziehung mit ${relation.supplier.name} hat sich geändert: ${status}.`,
      relation.supplierCustomerNumber ? `Kundennummer: ${relation.supplierCustomerNumber}` : '',
      relation.relationStatusId === 3 && relation.comments ? `Begründung: ${relation.comments}` : '',
      '',
      'Details finden Sie im SHK-Bestellportal unter „Meine Lieferanten“.',
    ]
      .filter((line, i, all) => line !== '' || all[i - 1] !== '')
      .join('\n'),
  };
}

/** The company data the buyer confirmed, for setting it up as a new customer. */
function partnerLines(p: NewCustomerPartner): string[] {
  return [
    'Firmendaten für die Anlage als Neukunde (vom Käufer bestätigt):',
    `Firma: ${p.officialCompanyName}`,
    `Anschrift: ${p.street} ${p.houseNumber}, ${p.postalCode} ${p.city}`,
    `E-Mail: ${p.email}`,
    `Telefon: ${p.phoneNumber}`,
    `Fax: ${p.faxNumber || '–'}`,
    `Website: ${p.website || '–'}`,
    `USt-IdNr.: ${p.vatId || '–'}`,
    `Steuernummer: ${p.taxNumber || '–'}`,
    '',
  ];
}
