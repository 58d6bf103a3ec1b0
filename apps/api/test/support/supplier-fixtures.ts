import sharp from 'sharp';

/** A complete, valid body of PUT/POST /v1/Suppliers (e-mail interface), with overrides per test. */
export function supplierBody(bp: string, overrides: Record<string, unknown> = {}) {
  return {
    supplierBusinessPartnerNo: bp,
    supplierStatusId: 2,
    requiredOnboardingForm: false,
    contactPersonName: 'Frau Test',
    contactPersonPhone: '+49 30 123',
    contactPersonEmail: 'kontakt@lieferant.example',
    gln: '4000000000001',
    headquarterGln: null,
    inboundInterface: { communicationProtocolId: 1, dataFormats: [1] },
    outboundInterface: {
      communicationProtocolId: 1,
      dataFormats: [1],
      emailAddress: 'auftrag@lieferant.example',
      ftpFolder: null,
      as2Identifier: null,
      as2Url: null,
    },
    workflowId: null,
    showSupplierNote: false,
    supplierNote: null,
    deliveryCost: 0,
    freeDeliveryThreshold: 0,
    ordersSummaryEmail: null,
    customerOnboardingEmail: 'kunden@lieferant.example',
    newCustomerOnboardingEmail: 'neukunden@lieferant.example',
    hideGrossPrice: false,
    hideAdditionalInfo: false,
    ...overrides,
  };
}

export const pngBytes = (width = 40, height = 20) =>
  sharp({ create: { width, height, channels: 4, background: { r: 0, g: 90, b: 160, alpha: 1 } } })
    .png()
    .toBuffer();

export const pdfBytes = () =>
  Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

/** A multipart body with one field 'file' (the spec's field name). */
export function fileForm(content: Buffer, name: string, type = 'application/octet-stream', field = 'file'): FormData {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(content)], { type }), name);
  return form;
}

/** A business partner of the master data that is not a supplier yet. */
export async function insertPartner(
  query: (sql: string, params?: unknown[]) => Promise<unknown>,
  bp: string,
  name = `Neu ${bp} GmbH`,
) {
  await query(
    `INSERT INTO business_partners (bp_number, name, official_company_name, city, country, organisation_type, is_supplier)
     VALUES ($1, $2, $2, 'Berlin', 'DE', 1, false) ON CONFLICT DO NOTHING`,
    [bp, name],
  );
}
