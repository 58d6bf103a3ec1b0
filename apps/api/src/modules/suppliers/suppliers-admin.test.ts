import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, supplierMessages } from '@shk/contracts';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { fileForm, insertPartner, pdfBytes, pngBytes, supplierBody } from '../../../test/support/supplier-fixtures.ts';

let t: TestApp;
const ADMIN = 'admin@example.com';
const SUPPORT = 'support@example.com';
const OPERATOR = 'betrieb@example.com';
const SELLER = 'verkauf@example.com'; // supplier 200001
const BUYER = 'einkauf@example.com';
const sql = (text: string, params?: unknown[]) => t.pool.query(text, params);

beforeAll(async () => {
  t = await startTestApp();
  await insertPartner(sql, '299100', 'Neuling Sanitär GmbH');
  await insertPartner(sql, '299101', 'Zweiter Neuling GmbH');
});
afterAll(async () => {
  await t?.close();
});

const fieldMessages = (body: any) => Object.fromEntries((body.errors ?? []).map((e: any) => [e.field, e.message]));

describe('supplier list', () => {
  it('filters by status and name, sorts by name, number or status, and pages on the server', async () => {
    const all = await t.request('GET', '/v1/Suppliers?PageSize=100', { as: SUPPORT });
    expect(all.status).toBe(200);
    const names = all.body.items.map((s: any) => s.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(all.body.totalCount).toBe(all.body.items.length);

    const inTest = await t.request('GET', '/v1/Suppliers?StatusId=3', { as: OPERATOR });
    expect(inTest.body.items.map((s: any) => s.supplierBusinessPartnerNo)).toEqual(['200008']);

    const byName = await t.request('GET', '/v1/Suppliers?Name=nordbad', { as: ADMIN });
    expect(byName.body.items.map((s: any) => s.supplierBusinessPartnerNo)).toEqual(['200001']);

    const byNumberDesc = await t.request('GET', '/v1/Suppliers?SortBy=bpNumber&SortDirection=desc&PageSize=2&Page=2', {
      as: ADMIN,
    });
    expect(byNumberDesc.body).toMatchObject({ currentPage: 2, pageSize: 2, totalCount: all.body.totalCount });
    expect(byNumberDesc.body.items.map((s: any) => s.supplierBusinessPartnerNo)).toEqual(['200007', '200006']);

    const byStatus = await t.request('GET', '/v1/Suppliers?SortBy=status&SortDirection=desc&PageSize=1', { as: ADMIN });
    expect(byStatus.body.items[0].supplierStatusId).toBe(3);
  });

  it('is refused to sellers and buyers (403) and rejects a bad filter with a 400', async () => {
    expect((await t.request('GET', '/v1/Suppliers', { as: SELLER })).status).toBe(403);
    expect((await t.request('GET', '/v1/Suppliers', { as: BUYER })).status).toBe(403);
    const bad = await t.request('GET', '/v1/Suppliers?StatusId=abc', { as: ADMIN });
    expect(bad.status).toBe(400);
  });
});

describe('add flow', () => {
  it('answers exists, not found or the master data of the candidate', async () => {
    const exists = await t.request('GET', '/v1/Suppliers/Candidates/200001', { as: ADMIN });
    expect(exists.status).toBe(409);
    expect(exists.body).toMatchObject({ title: supplierMessages.partnerExists, detail: messages.checkInput });
    const unknown = await t.request('GET', '/v1/Suppliers/Candidates/999999', { as: ADMIN });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ title: supplierMessages.partnerNotFound, detail: messages.checkInput });
    const ok = await t.request('GET', '/v1/Suppliers/Candidates/299100', { as: ADMIN });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ businessPartnerNo: '299100', name: 'Neuling Sanitär GmbH' });
    expect((await t.request('GET', '/v1/Suppliers/Candidates/299100', { as: SUPPORT })).status).toBe(403);
  });

  it('creates a NonActive supplier with the defaults, records the change and refuses a second add', async () => {
    const body = supplierBody('299100');
    const created = await t.request('POST', '/v1/Suppliers', { as: ADMIN, body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      supplierBusinessPartnerNo: '299100',
      supplierStatusId: 2,
      deliveryCost: 0,
      freeDeliveryThreshold: 0,
      hideGrossPrice: false,
      hideAdditionalInfo: false,
      inboundInterface: { communicationProtocolId: 1, dataFormats: [1] },
      outboundInterface: { communicationProtocolId: 1, dataFormats: [1], emailAddress: 'auftrag@lieferant.example' },
      logoUrl: null,
    });
    const again = await t.request('POST', '/v1/Suppliers', { as: ADMIN, body });
    expect(again.status).toBe(409);
    expect(again.body.title).toBe(supplierMessages.partnerExists);
    const unknown = await t.request('POST', '/v1/Suppliers', { as: ADMIN, body: supplierBody('999998') });
    expect(unknown.status).toBe(404);
    expect(unknown.body.title).toBe(supplierMessages.partnerNotFound);
    const changes = await t.request('GET', '/v1/Suppliers/299100/Changes', { as: SUPPORT });
    expect(changes.body.map((c: any) => c.field)).toContain('supplier');
    expect(changes.body[0].changedBy).toContain('admin@example.com');
  });
});

describe('settings validation (§5), one schema on both sides', () => {
  const put = (overrides: Record<string, unknown>) =>
    t.request('PUT', '/v1/Suppliers', {
      as: ADMIN,
      body: supplierBody('200009', { supplierStatusId: 1, ...overrides }),
    });
  const out = (o: Record<string, unknown>) => ({
    outboundInterface: { ...supplierBody('x').outboundInterface, ...o },
  });

  it.each([
    ['contact name required', { contactPersonName: '' }, 'body.contactPersonName', messages.required],
    [
      'contact e-mail single address',
      { contactPersonEmail: 'a@x.de; b@y.de' },
      'body.contactPersonEmail',
      messages.checkInput,
    ],
    [
      'customer onboarding e-mail required',
      { customerOnboardingEmail: '' },
      'body.customerOnboardingEmail',
      messages.required,
    ],
    [
      'new-customer onboarding e-mail single',
      { newCustomerOnboardingEmail: 'kein-mail' },
      'body.newCustomerOnboardingEmail',
      messages.checkInput,
    ],
    ['orders summary list', { ordersSummaryEmail: 'a@x.de;kaputt' }, 'body.ordersSummaryEmail', messages.checkInput],
    ['note required when shown', { showSupplierNote: true, supplierNote: '' }, 'body.supplierNote', messages.required],
    [
      'note at most 256',
      { showSupplierNote: true, supplierNote: 'x'.repeat(257) },
      'body.supplierNote',
      messages.maxChars(256),
    ],
    [
      'e-mail outbound needs an address',
      out({ emailAddress: null }),
      'body.outboundInterface.emailAddress',
      messages.required,
    ],
    [
      'outbound address list',
      out({ emailAddress: 'a@x.de; b@' }),
      'body.outboundInterface.emailAddress',
      messages.checkInput,
    ],
    ['FTP needs a folder', out({ communicationProtocolId: 5 }), 'body.outboundInterface.ftpFolder', messages.required],
    [
      'SFTP needs a workflow',
      { ...out({ communicationProtocolId: 2, ftpFolder: '/in' }) },
      'body.workflowId',
      messages.required,
    ],
    [
      'AS2 needs an identifier',
      out({ communicationProtocolId: 3, as2Url: 'https://as2.example' }),
      'body.outboundInterface.as2Identifier',
      messages.required,
    ],
    [
      'AS2 needs a URL',
      out({ communicationProtocolId: 3, as2Identifier: 'ID' }),
      'body.outboundInterface.as2Url',
      messages.required,
    ],
    [
      'AS2 URL must be an http(s) URL',
      out({ communicationProtocolId: 3, as2Identifier: 'ID', as2Url: 'as2.example ohne Schema' }),
      'body.outboundInterface.as2Url',
      messages.checkInput,
    ],
    [
      'AS2 URL with another scheme',
      out({ communicationProtocolId: 3, as2Identifier: 'ID', as2Url: 'ftp://as2.example' }),
      'body.outboundInterface.as2Url',
      messages.checkInput,
    ],
    [
      'FTP needs a workflow',
      out({ communicationProtocolId: 5, ftpFolder: '/in' }),
      'body.workflowId',
      messages.required,
    ],
    [
      'outbound data formats must not be empty',
      out({ dataFormats: [] }),
      'body.outboundInterface.dataFormats',
      messages.required,
    ],
    [
      'inbound data formats must not be empty',
      { inboundInterface: { communicationProtocolId: 1, dataFormats: [] } },
      'body.inboundInterface.dataFormats',
      messages.required,
    ],
    ['negative delivery cost', { deliveryCost: -1 }, 'body.deliveryCost', messages.checkInput],
  ])('%s', async (_name, overrides, field, message) => {
    const res = await put(overrides);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(fieldMessages(res.body)[field]).toBe(message);
  });

  it('accepts several semicolon-separated addresses and a complete SFTP interface', async () => {
    const res = await put({
      ordersSummaryEmail: 'a@x.de; b@y.de',
      ...out({ communicationProtocolId: 2, ftpFolder: '/auftraege', emailAddress: null }),
      workflowId: 7,
    });
    expect(res.status).toBe(200);
    expect(res.body.outboundInterface).toMatchObject({ communicationProtocolId: 2, ftpFolder: '/auftraege' });
  });

  it('a required onboarding form needs an uploaded template', async () => {
    const res = await put({ requiredOnboardingForm: true });
    expect(res.status).toBe(400);
    expect(fieldMessages(res.body)['body.requiredOnboardingForm']).toBe(supplierMessages.templateRequired);
  });

  it('is for administrators only', async () => {
    for (const as of [SUPPORT, OPERATOR, SELLER, BUYER]) {
      const res = await t.request('PUT', '/v1/Suppliers', {
        as,
        body: supplierBody('200009', { supplierStatusId: 1 }),
      });
      expect(res.status, as).toBe(403);
    }
  });
});

describe('status rules (§4)', () => {
  it('Active needs a logo, and a logo makes it possible; the active supplier keeps its logo', async () => {
    await t.request('POST', '/v1/Suppliers', { as: ADMIN, body: supplierBody('299101') });
    await sql("UPDATE suppliers SET integration_status = 1 WHERE bp_number = '299101'");
    const withoutLogo = await t.request('PUT', '/v1/Suppliers', {
      as: ADMIN,
      body: supplierBody('299101', { supplierStatusId: 1 }),
    });
    expect(withoutLogo.status).toBe(400);
    expect(withoutLogo.body.title).toBe(supplierMessages.activeNeedsLogo);
    expect(fieldMessages(withoutLogo.body)['body.supplierStatusId']).toBe(supplierMessages.activeNeedsLogo);

    const upload = await t.request('POST', '/v1/Suppliers/299101/logo', {
      as: ADMIN,
      body: fileForm(await pngBytes(), 'logo.png', 'image/png'),
    });
    expect(upload.status).toBe(200);
    const active = await t.request('PUT', '/v1/Suppliers', {
      as: ADMIN,
      body: supplierBody('299101', { supplierStatusId: 1 }),
    });
    expect(active.status).toBe(200);
    expect(active.body.supplierStatusId).toBe(1);

    const removal = await t.request('DELETE', '/v1/Suppliers/299101/logo', { as: ADMIN });
    expect(removal.status).toBe(400);
    expect(removal.body.title).toBe(supplierMessages.activeNeedsLogo);
  });

  it('the status cannot change while the product data integration is not complete', async () => {
    await sql("UPDATE suppliers SET integration_status = 2 WHERE bp_number = '200004'");
    const res = await t.request('PUT', '/v1/Suppliers', {
      as: ADMIN,
      body: supplierBody('200004', { supplierStatusId: 2 }),
    });
    expect(res.status).toBe(400);
    expect(res.body.title).toBe(supplierMessages.integrationIncomplete);
    // Other settings may still change.
    const same = await t.request('PUT', '/v1/Suppliers', {
      as: ADMIN,
      body: supplierBody('200004', { supplierStatusId: 1, deliveryCost: 3 }),
    });
    expect(same.status).toBe(200);
    const info = await t.request('POST', '/v1/Suppliers/ItekIntegrationInfo', {
      as: ADMIN,
      body: { supplierBusinessPartnerNumbers: ['200004', '200001'] },
    });
    expect(info.body.map((i: any) => [i.supplierBusinessPartnerNo, i.integrationStatus])).toEqual([
      ['200001', 1],
      ['200004', 2],
    ]);
  });

  it('delivery cost changes reach the buyer at once', async () => {
    await t.request('PUT', '/v1/Suppliers', {
      as: ADMIN,
      body: supplierBody('200003', { supplierStatusId: 1, deliveryCost: 4.5, freeDeliveryThreshold: 99 }),
    });
    const info = await t.request('GET', '/v1/Suppliers/200003/CompanyInfo', { as: BUYER });
    expect(info.body).toMatchObject({ deliveryCost: 4.5, freeDeliveryThreshold: 99 });
  });
});

describe('hide flags reach search and product pages with the next request', () => {
  it('hideGrossPrice and hideAdditionalInfo apply at once, without a restart or catalogue change', async () => {
    const bp = '200002';
    const { rows } = await sql(
      `SELECT o.product_instance_id, o.supplier_pid FROM product_offers o
        WHERE o.supplier_bp_number = $1 AND o.gross_list_price IS NOT NULL AND o.net_price IS NOT NULL
        ORDER BY o.product_instance_id LIMIT 1`,
      [bp],
    );
    expect(rows).toHaveLength(1);
    const id = encodeURIComponent(rows[0].product_instance_id);
    const read = async () => {
      const product = await t.request('GET', `/v1/Product?productInstanceId=${id}`, { as: BUYER });
      const details = await t.request('GET', `/v1/Product/Details?productInstanceId=${id}`, { as: BUYER });
      expect(product.status).toBe(200);
      const offer = details.body.offers.find((o: any) => o.productInstanceId === rows[0].product_instance_id);
      return {
        gross: product.body.pricesPackage.grossListPrice,
        hideInfo: product.body.supplier.hideAdditionalInfo,
        offerGross: offer.grossListPrice,
        offerHideInfo: offer.supplier.hideAdditionalInfo,
      };
    };
    const status = (await t.request('GET', `/v1/Suppliers/${bp}`, { as: ADMIN })).body.supplierStatusId;
    const save = (flags: { hideGrossPrice: boolean; hideAdditionalInfo: boolean }) =>
      t.request('PUT', '/v1/Suppliers', { as: ADMIN, body: supplierBody(bp, { supplierStatusId: status, ...flags }) });

    expect((await save({ hideGrossPrice: false, hideAdditionalInfo: false })).status).toBe(200);
    // Loads (and caches) the catalogue's reference data with the flags off.
    const before = await read();
    expect(before.gross).not.toBeNull();
    expect(before).toMatchObject({ hideInfo: false, offerHideInfo: false });
    expect(before.offerGross).not.toBeNull();

    expect((await save({ hideGrossPrice: true, hideAdditionalInfo: true })).status).toBe(200);
    expect(await read()).toEqual({ gross: null, hideInfo: true, offerGross: null, offerHideInfo: true });

    expect((await save({ hideGrossPrice: false, hideAdditionalInfo: false })).status).toBe(200);
    expect(await read()).toEqual(before);
  });
});

describe('files are checked by their content', () => {
  const upload = (bp: string, form: FormData, as = ADMIN) =>
    t.request('POST', `/v1/Suppliers/${bp}/logo`, { as, body: form });

  it('refuses a text file named .png, an HTML named .jpg and a GIF', async () => {
    for (const [content, name] of [
      [Buffer.from('kein Bild'), 'logo.png'],
      [Buffer.from('<html><script>alert(1)</script></html>'), 'logo.jpg'],
      [Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64'), 'logo.gif'],
    ] as const) {
      const res = await upload('200006', fileForm(content, name));
      expect(res.status, name).toBe(400);
      expect(res.body.title).toBe(supplierMessages.fileFormat);
    }
  });

  it('refuses a PNG renamed to .pdf as template and a PDF as logo', async () => {
    const asTemplate = await t.request('POST', '/v1/SupplierOnboardingFormTemplates/200006', {
      as: ADMIN,
      body: fileForm(await pngBytes(), 'formular.pdf'),
    });
    expect(asTemplate.body.title).toBe(supplierMessages.fileFormat);
    expect((await upload('200006', fileForm(pdfBytes(), 'logo.png'))).body.title).toBe(supplierMessages.fileFormat);
  });

  it('refuses SVGs with scripts, event handlers or external references, accepts a clean one', async () => {
    const svg = (inner: string, attrs = '') =>
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"${attrs}>${inner}</svg>`);
    for (const bad of [
      svg('<script>alert(1)</script>'),
      svg('<rect width="10" height="10"/>', ' onload="alert(1)"'),
      svg('<a href="javascript:alert(1)"><rect width="1" height="1"/></a>'),
      svg('<foreignObject><div/></foreignObject>'),
      svg('<image href="https://evil.example/x.png"/>'),
    ]) {
      const res = await upload('200006', fileForm(bad, 'logo.svg', 'image/svg+xml'));
      expect(res.status, bad.toString()).toBe(400);
      expect(res.body.title).toBe(supplierMessages.fileFormat);
    }
    const ok = await upload('200006', fileForm(svg('<rect width="40" height="20" fill="#05a"/>'), 'logo.svg'));
    expect(ok.status).toBe(200);
    // Served rasterised: no SVG document reaches a browser.
    const served = await fetch(`${t.baseUrl}${ok.body.logoUrl}`);
    expect(served.headers.get('content-type')).toBe('image/png');
  });

  it('refuses files over 1 MB (logo) and 25 MB (template), and a second file', async () => {
    const big = Buffer.concat([await pngBytes(), Buffer.alloc(1024 * 1024)]);
    const tooBig = await upload('200006', fileForm(big, 'logo.png'));
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.title).toBe(supplierMessages.maxFileSize(1));
    const hugePdf = Buffer.concat([pdfBytes(), Buffer.alloc(25 * 1024 * 1024)]);
    const tooBigPdf = await t.request('POST', '/v1/SupplierOnboardingFormTemplates/200006', {
      as: ADMIN,
      body: fileForm(hugePdf, 'f.pdf'),
    });
    expect(tooBigPdf.body.title).toBe(supplierMessages.maxFileSize(25));
    const two = fileForm(await pngBytes(), 'a.png');
    two.append('file', new Blob([new Uint8Array(await pngBytes())]), 'b.png');
    expect((await upload('200006', two)).body.title).toBe(supplierMessages.maxFileCount);
  });

  it("is refused with 403 and the spec's authorisation message for every role but Administrator", async () => {
    for (const as of [SUPPORT, OPERATOR, SELLER, BUYER]) {
      const logo = await upload('200006', fileForm(await pngBytes(), 'logo.png'), as);
      expect(logo.status, as).toBe(403);
      expect(logo.body.detail, as).toBe(supplierMessages.notAuthorised);
      const logoDelete = await t.request('DELETE', '/v1/Suppliers/200006/logo', { as });
      expect([logoDelete.status, logoDelete.body.detail], as).toEqual([403, supplierMessages.notAuthorised]);
      const template = await t.request('POST', '/v1/SupplierOnboardingFormTemplates/200005', {
        as,
        body: fileForm(pdfBytes(), 'Formular.pdf'),
      });
      expect([template.status, template.body.detail], as).toEqual([403, supplierMessages.notAuthorised]);
      const templateDelete = await t.request('DELETE', '/v1/SupplierOnboardingFormTemplates/200005', { as });
      expect([templateDelete.status, templateDelete.body.detail], as).toEqual([403, supplierMessages.notAuthorised]);
    }
  });

  it('template: upload, download with the original name, refuse deletion while required, delete', async () => {
    const up = await t.request('POST', '/v1/SupplierOnboardingFormTemplates/200007', {
      as: ADMIN,
      body: fileForm(pdfBytes(), 'Neukunden Formular.pdf'),
    });
    expect(up.status).toBe(200);
    expect(up.body.onboardingFormTemplateFileName).toBe('Neukunden Formular.pdf');
    const down = await t.request('GET', '/v1/SupplierOnboardingFormTemplates/200007', { as: BUYER });
    expect(down.headers.get('content-disposition')).toContain("filename*=UTF-8''Neukunden%20Formular.pdf");
    const required = await t.request('DELETE', '/v1/SupplierOnboardingFormTemplates/200005', { as: ADMIN });
    expect(required.status).toBe(400);
    expect(required.body.title).toBe(supplierMessages.templateRequired);
    expect((await t.request('DELETE', '/v1/SupplierOnboardingFormTemplates/200007', { as: ADMIN })).status).toBe(204);
    expect((await t.request('GET', '/v1/SupplierOnboardingFormTemplates/200007', { as: BUYER })).status).toBe(404);
  });
});

describe('logo delivery', () => {
  it('serves resized copies with the right type, cache headers and the original with its name', async () => {
    const photo = await sharp({ create: { width: 800, height: 400, channels: 3, background: '#c00' } })
      .jpeg()
      .toBuffer();
    const up = await t.request('POST', '/v1/Suppliers/200002/logo', { as: ADMIN, body: fileForm(photo, 'Wärme.jpeg') });
    expect(up.status).toBe(200);
    const res = await fetch(`${t.baseUrl}${up.body.logoUrl}`);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toContain('immutable');
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(160);
    const again = await fetch(`${t.baseUrl}${up.body.logoUrl}`, {
      headers: { 'if-none-match': res.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
    const original = await fetch(`${t.baseUrl}/v1/Suppliers/200002/logo?original=true`);
    expect(original.headers.get('content-disposition')).toContain("filename*=UTF-8''W%C3%A4rme.jpeg");
    expect(Buffer.from(await original.arrayBuffer()).equals(photo)).toBe(true);
    const list = await t.request('GET', '/v1/Suppliers?Name=Wärme', { as: ADMIN });
    expect(list.body.items[0].logoUrl).toBe(up.body.logoUrl);
    // The demo suppliers have logos (seed); one without answers 404.
    await sql("UPDATE suppliers SET logo = NULL WHERE bp_number = '200009'");
    expect((await fetch(`${t.baseUrl}/v1/Suppliers/200009/logo`)).status).toBe(404);
  });
});

describe('reads by role', () => {
  it('staff read any supplier; sellers and buyers are refused', async () => {
    for (const as of [ADMIN, SUPPORT, OPERATOR]) {
      const res = await t.request('GET', '/v1/Suppliers/200001', { as });
      expect(res.status, as).toBe(200);
      expect(res.body.outboundInterface.emailAddress).toBe('auftraege@nordbad.example');
    }
    expect((await t.request('GET', '/v1/Suppliers/200001', { as: SELLER })).status).toBe(403);
    expect((await t.request('GET', '/v1/Suppliers/200001', { as: BUYER })).status).toBe(403);
    expect((await t.request('GET', '/v1/Suppliers/999999', { as: ADMIN })).status).toBe(404);
  });

  it("a seller sees its own supplier's interfaces, another supplier's is a 404", async () => {
    const own = await t.request('GET', '/v1/Suppliers/200001/Interfaces', { as: SELLER });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      supplierBusinessPartnerNo: '200001',
      inboundInterface: { communicationProtocolId: 1 },
    });
    expect(own.body.outboundInterface.emailAddress).toBeUndefined();
    expect((await t.request('GET', '/v1/Suppliers/200002/Interfaces', { as: SELLER })).status).toBe(404);
    expect((await t.request('GET', '/v1/Suppliers/200001/Interfaces', { as: BUYER })).status).toBe(403);
  });

  it('lists protocols and data formats with the spec ids', async () => {
    const protocols = await t.request('GET', '/v1/Suppliers/CommunicationProtocols', { as: ADMIN });
    expect(protocols.body).toEqual([
      { id: 1, name: 'Email' },
      { id: 2, name: 'Sftp' },
      { id: 3, name: 'As2' },
      { id: 4, name: 'Http' },
      { id: 5, name: 'Ftp' },
      { id: 6, name: 'Api' },
    ]);
    const formats = await t.request('GET', '/v1/Suppliers/CommunicationDataFormats', { as: SUPPORT });
    expect(formats.body.map((f: any) => f.name)).toEqual(['Pdf', 'Edi_96A', 'Edi_97A']);
  });
});

describe('audit trail', () => {
  it('records who changed what, old → new', async () => {
    await t.request('PUT', '/v1/Suppliers', {
      as: ADMIN,
      body: supplierBody('200009', { supplierStatusId: 1, deliveryCost: 7.25, hideGrossPrice: true }),
    });
    const changes = await t.request('GET', '/v1/Suppliers/200009/Changes', { as: OPERATOR });
    expect(changes.status).toBe(200);
    const cost = changes.body.find((c: any) => c.field === 'deliveryCost');
    expect(cost).toMatchObject({ newValue: '7.25', changedBy: expect.stringContaining('admin@example.com') });
    expect(changes.body.find((c: any) => c.field === 'hideGrossPrice')).toMatchObject({
      oldValue: 'false',
      newValue: 'true',
    });
    expect(Date.parse(cost.changedAt)).toBeGreaterThan(Date.now() - 60_000);
    const logoChange = (await t.request('GET', '/v1/Suppliers/200002/Changes', { as: ADMIN })).body.find(
      (c: any) => c.field === 'logo',
    );
    expect(logoChange.newValue).toBe('Wärme.jpeg');
  });
});
