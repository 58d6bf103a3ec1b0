/**
 * The role × endpoint matrix: one entry per registered /v1 route, keyed `METHOD /v1/path` exactly as
 * the route is declared (Fastify syntax, e.g. `GET /v1/MultiCarts/:id`).
 *
 * An entry maps each role that may call the route to a sample request that must answer 2xx for that
 * role's demo user. role-matrix.test.ts derives the rest from the route's `config.roles`:
 *   - no token → 401 problem (public routes: the `Anonymous` sample → 2xx),
 *   - every role the route does not allow → 403 problem,
 *   - every allowed role of a role list needs a sample here; 'authenticated' routes need at least one.
 * A route without an entry, or an entry without a route, fails the test.
 *
 * IDS column: every non-public route is also called with an IDS session's token (an IDS code exchanged for the
 * demo buyer at partner 100001). A route without `config.ids` must refuse it (403). A route open to IDS sessions
 * must answer 2xx to the `Ids` sample, else to the `Buyer` sample, sent with the IDS token (a sample may bring its
 * own `token`, e.g. a fresh session for a call that ends it). A guarded route (only the session's cart) also needs
 * an `IdsRefused` sample that the guard refuses (403).
 *
 * Adding a route: add its key below with one sample per allowed role. A sample is either a plain
 * request ({ params, query, body }) or an async function that prepares data first (ctx.sql for
 * direct SQL, ctx.request to call the API as a demo user, ctx.once to share a fixture) and
 * returns the request. Samples run in the order listed, after the 401/403 checks of the route.
 */
import fs from 'node:fs';
import path from 'node:path';
import { catalogueImportMessages, Role, type RoleName } from '@shk/contracts';
import type { TestApp } from './support/test-app.ts';
import { insertTestOffers, offers } from './support/cart-fixtures.ts';
import { fileForm, insertPartner, pdfBytes, pngBytes, supplierBody } from './support/supplier-fixtures.ts';
import { idsMatrixContext } from '../src/modules/ids/ids-matrix.fixtures.ts';
import { signReturn } from '../src/modules/configurator/signing.ts';
import { demoKitchenConfiguratorSecret } from '../src/seed/demo-world.ts';
import { addPriceList } from './support/media-fixtures.ts';
import { hashPassword } from '../src/modules/identity/password.ts';

export interface MatrixRequest {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | Array<string | number>>;
  body?: unknown;
  /** Another demo user of the same role (default: demoUsers[role]). */
  user?: string;
  /** A bearer token to send instead (IDS samples: a session of their own). */
  token?: string;
}

export interface MatrixContext {
  t: TestApp;
  /** Parameterised SQL on the test file's own database; returns the rows. */
  sql: <T = any>(text: string, params?: unknown[]) => Promise<T[]>;
  /** Runs a fixture once per test file and shares its result. */
  once: <T>(key: string, create: () => Promise<T>) => Promise<T>;
}

export type MatrixSample = MatrixRequest | ((ctx: MatrixContext) => Promise<MatrixRequest>);
export type MatrixRole = RoleName | 'Anonymous';
/** The IDS column's samples: allowed with an IDS token (default: the Buyer sample), refused by a guard. */
export type IdsColumn = 'Ids' | 'IdsRefused';
export type MatrixEntry = Partial<Record<MatrixRole | IdsColumn, MatrixSample>>;

/** The URL of a sample: the route's `:name` parameters filled from it, its query appended. */
export function matrixUrl(path: string, request: MatrixRequest): string {
  const filled = path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = request.params?.[name];
    if (value === undefined) throw new Error(`${path}: sample has no value for :${name}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {})) {
    for (const v of [value].flat()) query.append(key, String(v));
  }
  return query.size ? `${filled}?${query}` : filled;
}

/** The demo user that stands for each role (apps/api/src/seed/demo-world.ts). */
export const demoUsers: Record<RoleName, string> = {
  None: 'gast@example.com',
  Buyer: 'einkauf@example.com', // current partner 100001 (also member of 100002)
  Seller: 'verkauf@example.com', // supplier 200001
  Administrator: 'admin@example.com',
  Support: 'support@example.com',
  PlatformOperator: 'betrieb@example.com',
};

/** A connection profile for the workflow samples. */
const matrixWorkflow = (ctx: MatrixContext) =>
  ctx.once('workflow', async () => {
    const [row] = await ctx.sql<{ id: number }>(
      "INSERT INTO workflows (name, communication_protocol_id, base_url) VALUES ('Matrix', 6, 'http://127.0.0.1:9/') RETURNING id",
    );
    return row.id;
  });

const staff = ['Administrator', 'Support', 'PlatformOperator'] as const;
const signedIn = ['Buyer', 'Seller', ...staff] as const;
const allRoles = ['None', ...signedIn] as const;

/** The same sample for several roles. */
/** A request naming catalogue import `importOf(ctx)` of Nordbad (200001), the supplier whose seller is in the matrix. */
const nordbadImportSample =
  (importOf: (ctx: MatrixContext) => Promise<number>): MatrixSample =>
  async (ctx) => ({ params: { supplierBusinessPartnerNo: '200001', id: await importOf(ctx) } });

/** The same Nordbad import request for administrators and the seller. */
const nordbadImport = (importOf: (ctx: MatrixContext) => Promise<number>) =>
  same(['Administrator', 'Seller'], nordbadImportSample(importOf));

function same(roles: readonly RoleName[], sample: MatrixSample): MatrixEntry {
  return Object.fromEntries(roles.map((r) => [r, sample]));
}

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

/** Id of a demo relation (supplier ← buyer). */
async function relationId(ctx: MatrixContext, supplier: string, buyer: string): Promise<number> {
  const rows = await ctx.sql<{ id: number }>(
    'SELECT id FROM supplier_customers WHERE supplier_bp_number = $1 AND buyer_bp_number = $2',
    [supplier, buyer],
  );
  if (!rows[0]) throw new Error(`demo relation ${supplier} ← ${buyer} missing`);
  return Number(rows[0].id);
}

/** Creates (or resets) a relation in the given status and returns its id. */
async function relationInStatus(
  ctx: MatrixContext,
  supplier: string,
  buyer: string,
  status: number,
  customerNumber: string | null,
): Promise<number> {
  const rows = await ctx.sql<{ id: number }>(
    `INSERT INTO supplier_customers (supplier_bp_number, buyer_bp_number, relation_status_id, supplier_customer_number, comments)
     VALUES ($1, $2, $3, $4, 'Matrix-Test') ON CONFLICT (buyer_bp_number, supplier_bp_number)
     DO UPDATE SET relation_status_id = EXCLUDED.relation_status_id, supplier_customer_number = EXCLUDED.supplier_customer_number
     RETURNING id`,
    [supplier, buyer, status, customerNumber],
  );
  return Number(rows[0].id);
}

interface DemoOrder {
  customerOrderNumber: string;
  supplierOrderNumber: string;
  lineId: number;
  attachmentId: number;
}

/** One placed order of buyer 100001 at supplier 200001 with a line attachment, written directly. */
function demoOrder(ctx: MatrixContext): Promise<DemoOrder> {
  return ctx.once('demo-order', async () => {
    const [co] = await ctx.sql<{ id: number }>(
      `INSERT INTO customer_orders (customer_order_number, bp_number, user_id, cart_name, total_net, delivery_cost_total, dispatch_to, customer_address)
       VALUES ('KB-MATRIX-1', '100001', '00000000-0000-4000-8000-000000000001', 'Matrix', 100, 0, 'Sanitär Müller GmbH, 50667 Köln', $1) RETURNING id`,
      [
        JSON.stringify({
          name: 'Sanitär Müller GmbH',
          street: 'Lindenstraße',
          houseNumber: '12',
          postalCode: '50667',
          city: 'Köln',
          country: 'DE',
        }),
      ],
    );
    const [so] = await ctx.sql<{ id: number }>(
      `INSERT INTO supplier_orders (supplier_order_number, customer_order_id, supplier_bp_number, buyer_bp_number, supplier_customer_number, net_value, delivery_cost)
       VALUES ('LB-MATRIX-1', $1, '200001', '100001', 'K-10001', 100, 0) RETURNING id`,
      [co.id],
    );
    const [line] = await ctx.sql<{ id: number }>(
      `INSERT INTO order_lines (supplier_order_id, line_no, product_instance_id, article_number, name, quantity, unit_price, quantity_price)
       VALUES ($1, 1, '200001::MATRIX-1', 'MATRIX-1', 'Matrix-Testartikel', 2, 50, 100) RETURNING id`,
      [so.id],
    );
    const [file] = await ctx.sql<{ id: number }>(
      `INSERT INTO order_line_attachments (order_line_id, file_name, content_type, size_bytes, content)
       VALUES ($1, 'notiz.csv', 'text/csv', 4, $2) RETURNING id`,
      [line.id, Buffer.from('a;b\n')],
    );
    return {
      customerOrderNumber: 'KB-MATRIX-1',
      supplierOrderNumber: 'LB-MATRIX-1',
      lineId: Number(line.id),
      attachmentId: Number(file.id),
    };
  });
}

const address = (name: string) => ({
  companyName: name,
  contactPerson: 'Frau Test',
  streetName: 'Teststraße',
  houseNumber: '1',
  postalCode: '50667',
  city: 'Köln',
  countryCode: 'DE',
});

/** Creates a delivery address of the buyer's current partner through the API. */
async function newAddress(ctx: MatrixContext, name: string): Promise<number> {
  const res = await ctx.t.request('POST', '/v1/DeliveryAddresses', { as: demoUsers.Buyer, body: address(name) });
  if (res.status !== 201) throw new Error(`address fixture: ${res.status} ${res.text}`);
  return res.body.id;
}

/** The fixed test offers of the cart tests (test/support/cart-fixtures.ts), inserted once. */
const cartOffers = (ctx: MatrixContext) => ctx.once('cart-offers', () => insertTestOffers(ctx.t.pool));

/** A new cart of the buyer's current partner (100001); with `item`, one orderable Nordbad offer in it. */
async function newCart(ctx: MatrixContext, name: string, item = false): Promise<{ cartId: number; itemId: number }> {
  await cartOffers(ctx);
  const cart = await ctx.t.request('POST', '/v1/MultiCarts', { as: demoUsers.Buyer, body: { name } });
  if (cart.status !== 201) throw new Error(`cart fixture: ${cart.status} ${cart.text}`);
  if (!item) return { cartId: cart.body.id, itemId: 0 };
  const added = await ctx.t.request('POST', '/v1/CartItems', {
    as: demoUsers.Buyer,
    body: { cartId: cart.body.id, productInstanceId: offers.nordbad, quantity: 2 },
  });
  if (added.status !== 201) throw new Error(`cart item fixture: ${added.status} ${added.text}`);
  return { cartId: cart.body.id, itemId: added.body.cartItemId };
}

/** An order document of the demo order, stored directly (the upload itself has its own sample). */
async function matrixDocument(ctx: MatrixContext, supplierOrderNumber: string): Promise<number> {
  const [doc] = await ctx.sql<{ id: number }>(
    `INSERT INTO supplier_order_documents (supplier_order_id, file_name, content_type, size_bytes, content)
     SELECT id, 'lieferschein.pdf', 'application/pdf', 4, $2 FROM supplier_orders WHERE supplier_order_number = $1 RETURNING id`,
    [supplierOrderNumber, Buffer.from('%PDF')],
  );
  return Number(doc.id);
}

/** One cart with an item shared by the non-destructive cart samples (MaxCartCount is 10). */
const sharedCart = (ctx: MatrixContext) => ctx.once('shared-cart', () => newCart(ctx, 'Matrix Korb', true));

/** A BMEcat T_UPDATE_PRICES for an article the supplier does not have: imports, changes nothing. */
function priceUpdateUpload(): FormData {
  {
    const form = new FormData();
    const xml = `<?xml version="1.0" encoding="UTF-8"?><BMECAT version="2005"><T_UPDATE_PRICES><PRODUCT mode="update">
      <SUPPLIER_PID>MATRIX-0</SUPPLIER_PID><PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>1</PRICE_AMOUNT>
      </PRODUCT_PRICE></PRODUCT_PRICE_DETAILS></PRODUCT></T_UPDATE_PRICES></BMECAT>`;
    form.append('file', new Blob([xml], { type: 'application/xml' }), 'preise.xml');
    return form;
  }
}

async function catalogueImport(ctx: MatrixContext): Promise<number> {
  return ctx.once('catalogue-import', async () => {
    const res = await ctx.t.request('POST', '/v1/Suppliers/200001/CatalogueImports', {
      as: demoUsers.Administrator,
      body: priceUpdateUpload(),
    });
    if (res.status !== 202) throw new Error(`catalogue import fixture: ${res.status} ${res.text}`);
    return res.body.id as number;
  });
}

/** Waits until a catalogue import has ended (the matrix's imports are tiny). */
async function importEnded(ctx: MatrixContext, id: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const [row] = await ctx.sql<{ status: string }>('SELECT status FROM catalogue_imports WHERE id = $1', [id]);
    if (!['Pending', 'InProgress'].includes(row.status) && !(await supplierImportBusy(ctx, id))) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`catalogue import ${id} did not end`);
}

/**
 * Whether the supplier's import lock is still held (the consistency check after an import runs under it). Asked
 * by a decision that changes nothing on an ended import: it answers 'not waiting' once the lock is free.
 */
async function supplierImportBusy(ctx: MatrixContext, id: number): Promise<boolean> {
  const res = await ctx.t.request('POST', `/v1/Suppliers/200001/CatalogueImports/${id}/Discard`, {
    as: demoUsers.Administrator,
  });
  return res.status === 409 && res.body?.title === catalogueImportMessages.importRunning;
}

/**
 * An import waiting for approval with nothing to withdraw: a price update that changed nothing, marked waiting, so
 * that approving or discarding it as a matrix sample leaves the supplier's assortment as it is.
 */
async function waitingImport(ctx: MatrixContext): Promise<number> {
  const res = await ctx.t.request('POST', '/v1/Suppliers/200001/CatalogueImports', {
    as: demoUsers.Administrator,
    body: priceUpdateUpload(),
  });
  if (res.status !== 202) throw new Error(`waiting import fixture: ${res.status} ${res.text}`);
  await importEnded(ctx, res.body.id);
  await ctx.sql("UPDATE catalogue_imports SET status = 'AwaitingApproval' WHERE id = $1", [res.body.id]);
  return res.body.id as number;
}

/** An applied product update of one new article (undoing it withdraws just that article). */
async function undoableImport(ctx: MatrixContext, pid: string): Promise<number> {
  const form = new FormData();
  const xml = `<?xml version="1.0" encoding="UTF-8"?><BMECAT version="2005"><HEADER><CATALOG><LANGUAGE>deu</LANGUAGE>
    <CATALOG_ID>M</CATALOG_ID><CATALOG_VERSION>1</CATALOG_VERSION></CATALOG></HEADER><T_UPDATE_PRODUCTS prev_version="1">
    <PRODUCT mode="new"><SUPPLIER_PID>${pid}</SUPPLIER_PID><PRODUCT_DETAILS>
    <DESCRIPTION_SHORT lang="deu">Matrix Artikel ${pid}</DESCRIPTION_SHORT></PRODUCT_DETAILS>
    <PRODUCT_ORDER_DETAILS><ORDER_UNIT>C62</ORDER_UNIT><PRICE_QUANTITY>1</PRICE_QUANTITY></PRODUCT_ORDER_DETAILS>
    <PRODUCT_PRICE_DETAILS><PRODUCT_PRICE price_type="net_list"><PRICE_AMOUNT>9.90</PRICE_AMOUNT>
    <PRICE_CURRENCY>EUR</PRICE_CURRENCY></PRODUCT_PRICE></PRODUCT_PRICE_DETAILS></PRODUCT></T_UPDATE_PRODUCTS></BMECAT>`;
  form.append('file', new Blob([xml], { type: 'application/xml' }), 'aenderung.xml');
  const res = await ctx.t.request('POST', '/v1/Suppliers/200001/CatalogueImports', {
    as: demoUsers.Administrator,
    body: form,
  });
  if (res.status !== 202) throw new Error(`undoable import fixture: ${res.status} ${res.text}`);
  await importEnded(ctx, res.body.id);
  return res.body.id as number;
}

function csvUpload(name = 'aufmass.csv'): FormData {
  const form = new FormData();
  form.append('files', new Blob(['Pos;Menge\n1;2\n'], { type: 'text/csv' }), name);
  return form;
}

/** Uploads a file to the shared cart's item and returns ids (a maximum of 1 replaces the previous file). */
async function cartAttachment(ctx: MatrixContext): Promise<{ cartItemId: number; id: number }> {
  const { itemId } = await sharedCart(ctx);
  const res = await ctx.t.request('POST', `/v1/CartItems/${itemId}/attachments`, {
    as: demoUsers.Buyer,
    body: csvUpload(),
  });
  if (res.status !== 200) throw new Error(`attachment fixture: ${res.status} ${res.text}`);
  return { cartItemId: itemId, id: res.body[res.body.length - 1].id };
}

/** A new IDS session of the demo buyer at partner 100001: its token, context and pre-cart item. */
export async function newIdsSession(ctx: MatrixContext) {
  await cartOffers(ctx);
  const { contextId, code, itemId } = await idsMatrixContext(ctx.t);
  const res = await ctx.t.request('GET', `/v1/Ids?code=${encodeURIComponent(code)}`);
  if (res.status !== 200) throw new Error(`IDS exchange: ${res.status} ${res.text}`);
  return { token: res.body.accessToken as string, contextId, itemId };
}

/** A new OCI punchout session of the demo buyer (demo login): its token and context. */
export async function newPunchoutSession(ctx: MatrixContext): Promise<{ token: string; contextId: string }> {
  await cartOffers(ctx);
  const entry = await fetch(`${ctx.t.baseUrl}/oci`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      USERNAME: 'einkauf@example.com',
      PASSWORD: 'demo',
      HOOK_URL: 'https://sap.example/hook',
    }),
  });
  const landing = new URL(entry.headers.get('location') ?? '', ctx.t.baseUrl).searchParams;
  const code = landing.get('code');
  const res = await ctx.t.request('GET', `/v1/Ids?code=${encodeURIComponent(code ?? '')}`);
  if (res.status !== 200) throw new Error(`punchout exchange: ${entry.status} ${res.status} ${res.text}`);
  return { token: res.body.accessToken as string, contextId: landing.get('contextId')! };
}

/** The IDS session the IDS column uses unless a sample brings its own. */
export const idsSession = (ctx: MatrixContext) => ctx.once('ids-session', () => newIdsSession(ctx));

/** The IDS session's cart (partner 100001's default cart) with one item added through the session. */
const idsCart = (ctx: MatrixContext) =>
  ctx.once('ids-cart', async () => {
    const { token } = await idsSession(ctx);
    const cart = await ctx.t.request('GET', '/v1/MultiCarts/Default', { token });
    const added = await idsCartItem(ctx, token);
    return { cartId: Number(cart.body.id), itemId: added };
  });

/** Adds an item to the IDS session's cart (no cartId: the default cart) and returns its id. */
async function idsCartItem(ctx: MatrixContext, token?: string): Promise<number> {
  const bearer = token ?? (await idsSession(ctx)).token;
  const added = await ctx.t.request('POST', '/v1/CartItems', {
    token: bearer,
    body: { productInstanceId: offers.aquatherm, quantity: 10 },
  });
  if (added.status !== 201) throw new Error(`IDS cart item: ${added.status} ${added.text}`);
  return Number(added.body.cartItemId);
}

/** An attachment of an item in the IDS session's cart. */
async function idsCartAttachment(ctx: MatrixContext): Promise<{ cartItemId: number; id: number }> {
  const itemId = await idsCartItem(ctx);
  const res = await ctx.t.request('POST', `/v1/CartItems/${itemId}/attachments`, {
    token: (await idsSession(ctx)).token,
    body: csvUpload(),
  });
  if (res.status !== 200) throw new Error(`IDS attachment: ${res.status} ${res.text}`);
  return { cartItemId: itemId, id: res.body[res.body.length - 1].id };
}

// ---------------------------------------------------------------------------------------------
// The matrix
// ---------------------------------------------------------------------------------------------

/** A product instance of the test catalogue (the n-th by id). */
async function anyOffer(ctx: MatrixContext, n = 0): Promise<string> {
  const rows = await ctx.sql<{ product_instance_id: string }>(
    'SELECT product_instance_id FROM product_offers ORDER BY product_instance_id LIMIT 1 OFFSET $1',
    [n],
  );
  if (!rows[0]) throw new Error('test catalogue missing');
  return rows[0].product_instance_id;
}

/** Product number and file name of a generated product picture. */
async function anyPicture(ctx: MatrixContext): Promise<{ productNo: number; file: string }> {
  const rows = await ctx.sql<{ id: number; file: string }>(
    `SELECT id, m->>'file' AS file FROM products, jsonb_array_elements(media) m WHERE m->>'type' = 'picture' ORDER BY id LIMIT 1`,
  );
  return { productNo: rows[0].id, file: rows[0].file };
}

export const roleMatrix: Record<string, MatrixEntry> = {
  // Foundation
  'GET /v1/ClientConfig': { Anonymous: {} },
  'GET /v1/Version': same(allRoles, {}),
  'GET /v1/UserProfile': same(allRoles, {}),
  'PUT /v1/UserProfile': {
    Buyer: { body: { bpNumber: '100001' } },
    Seller: { body: { bpNumber: '200001' } },
  },
  // A user of its own (password 'demo') per role: changing a demo user's password would break the later sign-ins.
  'PUT /v1/UserProfile/Password': Object.fromEntries(
    allRoles.map((role) => [
      role,
      async (ctx: MatrixContext) => {
        const email = `matrix-passwort-${role.toLowerCase()}@example.com`;
        await ctx.sql(
          `INSERT INTO users (id, email, role, password_hash) VALUES (gen_random_uuid(), $1, $2, $3)
           ON CONFLICT (lower(email)) DO UPDATE SET password_hash = EXCLUDED.password_hash`,
          [email, Role[role], await hashPassword('demo')],
        );
        const password = 'Matrix prüft jede Route';
        return { user: email, body: { currentPassword: 'demo', newPassword: password, newPasswordRepeat: password } };
      },
    ]),
  ),
  'GET /v1/UserProfile/MailSettings': same(allRoles, {}),
  'PUT /v1/UserProfile/MailSettings': same(allRoles, {
    body: { orderPlaced: true, orderConfirmed: true, orderChanged: true, orderRejected: true },
  }),
  'GET /v1/BusinessPartners/Current': { Buyer: {}, Seller: {} },
  'GET /v1/BusinessPartners/:businessPartnerNo': {
    Buyer: { params: { businessPartnerNo: '200001' } },
    Seller: { params: { businessPartnerNo: '200001' } },
    ...same(staff, { params: { businessPartnerNo: '100003' } }),
  },
  'GET /v1/ConfigurationValues/:key': same(allRoles, { params: { key: 'MaxCartCount' } }),
  'GET /v1/KitchenConfigurator/Slide': same(allRoles, {}),
  'POST /v1/KitchenConfigurator/Return/Verify': {
    Buyer: async () => {
      const r = {
        articleNumber: 'KW-MATRIX',
        supplierId: '200008',
        partner: '100001',
        expires: String(Math.floor(Date.now() / 1000) + 600),
      };
      return { body: { ...r, signature: signReturn(demoKitchenConfiguratorSecret, r) } };
    },
  },
  'POST /v1/Feedbacks': same(signedIn, {
    body: { isPositive: true, comment: 'Gute Treffer', url: '/suche?term=Rohr' },
  }),
  'POST /v1/SupportRequests/PartnerDataChange': {
    Buyer: { body: { message: 'Neue Telefonnummer', email: 'einkauf@example.com', phoneNumber: '+49 221 1' } },
    Seller: { body: { message: 'Neue Anschrift', email: 'verkauf@example.com' } },
  },

  // Supplier-customer relations
  'GET /v1/SupplierCustomers': { Buyer: {}, Seller: {} },
  'GET /v1/SupplierCustomers/SuppliersWithoutRelation': { Buyer: {} },
  'POST /v1/SupplierCustomers': { Buyer: { body: { supplierBpNumber: '200009', supplierCustomerNumber: 'WF-1001' } } },
  'GET /v1/SupplierCustomers/:id': {
    Buyer: async (ctx) => ({ params: { id: await relationId(ctx, '200001', '100001') } }),
    Seller: async (ctx) => ({ params: { id: await relationId(ctx, '200001', '100001') } }),
    ...same(staff, async (ctx) => ({ params: { id: await relationId(ctx, '200004', '100002') } })),
  },
  'PUT /v1/SupplierCustomers/:id': {
    // buyer requests again after a rejection
    Buyer: async (ctx) => ({
      params: { id: await relationInStatus(ctx, '200006', '100001', 3, null) },
      body: { relationStatusId: 2, supplierCustomerNumber: 'HL-4711' },
    }),
    // seller edits the comment of an approved customer (same status)
    Seller: async (ctx) => ({
      params: { id: await relationId(ctx, '200001', '100003') },
      body: { relationStatusId: 1, comments: 'Stammkunde' },
    }),
    // administrator blocks a relation
    Administrator: async (ctx) => ({
      params: { id: await relationId(ctx, '200004', '100002') },
      body: { relationStatusId: 6, comments: 'Gesperrt (Test)' },
    }),
  },
  'PUT /v1/SupplierCustomers/:id/SupplierCustomerNumber/:supplierCustomerNumber': {
    Buyer: async (ctx) => ({
      params: { id: await relationInStatus(ctx, '200007', '100001', 4, null), supplierCustomerNumber: 'WS-2002' },
    }),
    Seller: async (ctx) => ({
      params: { id: await relationId(ctx, '200001', '100001'), supplierCustomerNumber: 'K-10001' },
    }),
  },
  'POST /v1/Users/Invitations': same(staff, async () => ({
    body: {
      email: `matrix-einladung-${Math.random().toString(36).slice(2)}@example.com`,
      role: 1,
      businessPartnerNumbers: ['100001'],
    },
  })),
  'GET /v1/PlatformOperator/SupplierCustomers': same(staff, { query: { RelationsStatusId: '1,2' } }),
  'GET /v1/PlatformOperator/SupplierCustomers/:id/StatusChanges': same(staff, async (ctx) => ({
    params: { id: await relationId(ctx, '200001', '100001') },
  })),

  // Supplier reads
  'GET /v1/Suppliers/:supplierBusinessPartnerNo/CompanyInfo': same(signedIn, {
    params: { supplierBusinessPartnerNo: '200001' },
  }),
  'GET /v1/Suppliers/:supplierBusinessPartnerNo/ItekIntegrationInfo': same(signedIn, {
    params: { supplierBusinessPartnerNo: '200003' },
  }),
  'POST /v1/Suppliers/ItekIntegrationInfo': same(signedIn, {
    body: { supplierBusinessPartnerNumbers: ['200001', '200002'] },
  }),
  'GET /v1/SupplierOnboardingFormTemplates/:bpNumber': same(signedIn, { params: { bpNumber: '200005' } }),
  // Supplier management: staff read, administrators write; logos public; sellers see their interfaces.
  'GET /v1/Suppliers': same(staff, { query: { Page: 1, PageSize: 10, SortBy: 'status' } }),
  'POST /v1/Suppliers': {
    Administrator: async (ctx) => {
      await insertPartner(ctx.sql, '299901');
      return { body: supplierBody('299901') };
    },
  },
  'PUT /v1/Suppliers': { Administrator: { body: supplierBody('200009', { supplierStatusId: 1, deliveryCost: 5.9 }) } },
  'GET /v1/Suppliers/CommunicationProtocols': same([...staff, 'Seller'], {}),
  'GET /v1/Suppliers/CommunicationDataFormats': same([...staff, 'Seller'], {}),
  'GET /v1/Suppliers/Candidates/:supplierBusinessPartnerNo': {
    Administrator: async (ctx) => {
      await insertPartner(ctx.sql, '299902');
      return { params: { supplierBusinessPartnerNo: '299902' } };
    },
  },
  'GET /v1/Suppliers/:supplierBusinessPartnerNo': same(staff, { params: { supplierBusinessPartnerNo: '200001' } }),
  'GET /v1/Suppliers/:supplierBusinessPartnerNo/Changes': same(staff, {
    params: { supplierBusinessPartnerNo: '200001' },
  }),
  'GET /v1/Suppliers/:supplierBusinessPartnerNo/Interfaces': same([...staff, 'Seller'], {
    params: { supplierBusinessPartnerNo: '200001' },
  }),
  'GET /v1/Suppliers/:supplierBusinessPartnerNo/logo': {
    Anonymous: async (ctx) => {
      await ctx.once('logo-200002', async () =>
        ctx.sql(
          "UPDATE suppliers SET logo = $1, logo_file_name = 'logo.png', logo_content_type = 'image/png' WHERE bp_number = '200002'",
          [await pngBytes()],
        ),
      );
      return { params: { supplierBusinessPartnerNo: '200002' }, query: { size: 96 } };
    },
  },
  'POST /v1/Suppliers/:supplierBusinessPartnerNo/logo': {
    Administrator: async () => ({
      params: { supplierBusinessPartnerNo: '200003' },
      body: fileForm(await pngBytes(), 'logo.png', 'image/png'),
    }),
  },
  'DELETE /v1/Suppliers/:supplierBusinessPartnerNo/logo': {
    Administrator: async (ctx) => {
      // 200008 is in communication test: its logo may go (an active supplier keeps its logo).
      await ctx.sql(
        "UPDATE suppliers SET logo = $1, logo_file_name = 'logo.png', logo_content_type = 'image/png' WHERE bp_number = '200008'",
        [await pngBytes()],
      );
      return { params: { supplierBusinessPartnerNo: '200008' } };
    },
  },
  'POST /v1/SupplierOnboardingFormTemplates/:bpNumber': {
    Administrator: { params: { bpNumber: '200006' }, body: fileForm(pdfBytes(), 'Formular.pdf', 'application/pdf') },
  },
  'DELETE /v1/SupplierOnboardingFormTemplates/:bpNumber': {
    Administrator: async (ctx) => {
      await ctx.sql(
        "UPDATE suppliers SET onboarding_form_template = $1, onboarding_form_template_file_name = 'f.pdf' WHERE bp_number = '200007'",
        [pdfBytes()],
      );
      return { params: { bpNumber: '200007' } };
    },
  },
  'POST /v1/Workflow': {
    Administrator: { body: { name: 'Matrix API', communicationProtocol: 6, baseUrl: 'http://127.0.0.1:9/' } },
  },
  'PUT /v1/Workflow/:id': {
    Administrator: async (ctx) => ({
      params: { id: await matrixWorkflow(ctx) },
      body: { name: 'Matrix API 2', communicationProtocol: 6, baseUrl: 'http://127.0.0.1:9/' },
    }),
  },
  'POST /v1/Workflow/:id/Test': { Administrator: async (ctx) => ({ params: { id: await matrixWorkflow(ctx) } }) },
  'PUT /v1/Workflow/:id/HostKey': {
    Administrator: async (ctx) => {
      const [row] = await ctx.sql<{ id: number }>(
        "INSERT INTO workflows (name, communication_protocol_id, host, port) VALUES ('Matrix SFTP', 2, 'sftp.example.com', 22) RETURNING id",
      );
      return { params: { id: row.id }, body: { fingerprint: `SHA256:${'A'.repeat(43)}` } };
    },
  },
  'DELETE /v1/Workflow/:id': {
    Administrator: async (ctx) => {
      const [row] = await ctx.sql<{ id: number }>(
        "INSERT INTO workflows (name, communication_protocol_id, base_url) VALUES ('Matrix weg', 6, 'http://127.0.0.1:9/') RETURNING id",
      );
      return { params: { id: row.id } };
    },
  },
  // Custom parameters: administrators only.
  'GET /v1/CustomParameter': { Administrator: {} },
  'GET /v1/CustomParameter/:customParameterKey': { Administrator: { params: { customParameterKey: 'MaxCartCount' } } },
  'GET /v1/CustomParameter/:customParameterKey/values': {
    Administrator: { params: { customParameterKey: 'MaxCartCount' } },
  },
  'POST /v1/CustomParameter/:customParameterKey/values': {
    Administrator: { params: { customParameterKey: 'NoteOfUseAllowedSuppliers' }, body: { value: '200001,200003' } },
  },
  'PUT /v1/CustomParameter/:customParameterKey/values/:id': {
    Administrator: async (ctx) => {
      const [row] = await ctx.sql<{ id: string }>("SELECT id FROM custom_parameter_values WHERE key = 'MaxCartCount'");
      return {
        params: { customParameterKey: 'MaxCartCount', id: row.id },
        body: { value: '10', validFrom: null, validTo: null },
      };
    },
  },
  'DELETE /v1/CustomParameter/:customParameterKey/values/:id': {
    Administrator: async (ctx) => {
      await ctx.sql(
        "INSERT INTO custom_parameters (key, description, type_id, max_value_count) VALUES ('MatrixParam', 'Test', 3, 5) ON CONFLICT DO NOTHING",
      );
      const [row] = await ctx.sql<{ id: string }>(
        "INSERT INTO custom_parameter_values (key, value) VALUES ('MatrixParam', 'x') RETURNING id",
      );
      return { params: { customParameterKey: 'MatrixParam', id: row.id } };
    },
  },

  // Delivery addresses and projects
  'GET /v1/DeliveryAddresses': { Buyer: {} },
  'POST /v1/DeliveryAddresses': { Buyer: { body: address('Baustelle Matrix') } },
  'PUT /v1/DeliveryAddresses/:id': {
    Buyer: async (ctx) => ({
      params: { id: await newAddress(ctx, 'Baustelle Ändern') },
      body: address('Baustelle Geändert'),
    }),
  },
  'DELETE /v1/DeliveryAddresses/:id': {
    Buyer: async (ctx) => ({ params: { id: await newAddress(ctx, 'Baustelle Löschen') } }),
  },
  'GET /v1/Projects': { Buyer: {} },
  'POST /v1/Projects': { Buyer: { body: { code: 'Matrix-Projekt', description: 'Neubau Testweg 1' } } },

  // Orders
  'GET /v1/CustomerOrders': { Buyer: { query: { Page: 1, PageSize: 10 } } },
  'GET /v1/CustomerOrders/:customerOrderNumber/Details': {
    ...same(['Buyer', ...staff], async (ctx) => ({
      params: { customerOrderNumber: (await demoOrder(ctx)).customerOrderNumber },
    })),
  },
  // The buyer's printable order: the supplier order's PDF, for buyers (their partner's orders) and staff.
  'GET /v1/CustomerOrders/:customerOrderNumber/SupplierOrders/:supplierOrderNumber/Pdf': same(
    ['Buyer', ...staff],
    async (ctx) => {
      const order = await demoOrder(ctx);
      return {
        params: { customerOrderNumber: order.customerOrderNumber, supplierOrderNumber: order.supplierOrderNumber },
      };
    },
  ),
  // 'Erneut bestellen': the demo order's article is no offer, so nothing goes into a cart (200, all lines listed).
  'POST /v1/CustomerOrders/:customerOrderNumber/Reorder': {
    Buyer: async (ctx) => ({
      params: { customerOrderNumber: (await demoOrder(ctx)).customerOrderNumber },
      body: { newCartName: 'Matrix erneut' },
    }),
  },
  'GET /v1/PlatformOperator/CustomerOrders': same(staff, {}),
  'GET /v1/PlatformOperator/CustomerOrders/:customerOrderNumber': same(staff, async (ctx) => ({
    params: { customerOrderNumber: (await demoOrder(ctx)).customerOrderNumber },
  })),
  'GET /v1/PlatformOperator/SupplierOrders': same(staff, { query: { SupplierId: '200001' } }),
  'GET /v1/PlatformOperator/SupplierOrders/:supplierOrderNumber': same(staff, async (ctx) => ({
    params: { supplierOrderNumber: (await demoOrder(ctx)).supplierOrderNumber },
  })),
  // Order transmission: resend needs a SendingFailed order, set up before each role's call.
  'POST /v1/PlatformOperator/SupplierOrders/:supplierOrderNumber/Resend': same(staff, async (ctx) => {
    const order = await demoOrder(ctx);
    await ctx.sql('UPDATE supplier_orders SET status_id = 3 WHERE supplier_order_number = $1', [
      order.supplierOrderNumber,
    ]);
    await ctx.sql(
      `INSERT INTO supplier_order_transmissions (supplier_order_id, idempotency_key, state)
       SELECT id, 'shk-' || supplier_order_number, 'failed' FROM supplier_orders WHERE supplier_order_number = $1
       ON CONFLICT (supplier_order_id) DO UPDATE SET state = 'failed'`,
      [order.supplierOrderNumber],
    );
    return { params: { supplierOrderNumber: order.supplierOrderNumber } };
  }),
  'GET /v1/PlatformOperator/SupplierOrders/:supplierOrderNumber/Transmissions': same(staff, async (ctx) => ({
    params: { supplierOrderNumber: (await demoOrder(ctx)).supplierOrderNumber },
  })),
  // Inbound ORDRSP: rejected files for staff, inbound credentials set by administrators.
  'GET /v1/PlatformOperator/InboundOrderResponses': same(staff, {}),
  'GET /v1/PlatformOperator/InboundOrderResponses/:id/Content': same(staff, async (ctx) => ({
    params: {
      id: await ctx.once('inbound-response', async () => {
        const [row] = await ctx.sql<{ id: number }>(
          `INSERT INTO inbound_order_responses (supplier_bp_number, source, file_name, content, outcome, reason)
           VALUES ('200001', 'http', 'matrix.edi', 'UNA', 'rejected', 'Matrix') RETURNING id`,
        );
        return Number(row.id);
      }),
    },
  })),
  'GET /v1/Suppliers/:supplierBusinessPartnerNo/InboundCredentials': same(staff, {
    params: { supplierBusinessPartnerNo: '200001' },
  }),
  'PUT /v1/Suppliers/:supplierBusinessPartnerNo/InboundCredentials': {
    Administrator: {
      params: { supplierBusinessPartnerNo: '200002' },
      body: { username: 'matrix-ordrsp', password: 'matrix-passwort-1' },
    },
  },
  'GET /v1/Workflow': same(staff, { query: { communicationProtocol: 2 } }),
  'GET /v1/As2/Certificate': same(staff, {}),
  'GET /v1/As2/CertificateWarnings': same(staff, {}),
  // Supplier orders of a seller: demo order LB-MATRIX-1 belongs to supplier 200001.
  'GET /v1/SupplierOrders/overview': { Seller: { query: { Page: 1 } } },
  'GET /v1/SupplierOrderStatuses': same(['Seller', 'Buyer', ...staff], {}),
  'GET /v1/SupplierOrders/:supplierOrderNumber/Details': same(['Seller', ...staff], async (ctx) => ({
    params: { supplierOrderNumber: (await demoOrder(ctx)).supplierOrderNumber },
  })),
  'POST /v1/SupplierOrders/:supplierOrderNumber/Confirmation/:statusId': {
    Seller: async (ctx) => {
      const order = await demoOrder(ctx);
      await ctx.sql('UPDATE suppliers SET in_com_protocol_id = 1 WHERE bp_number = $1', ['200001']);
      await ctx.sql('UPDATE supplier_orders SET status_id = 2 WHERE supplier_order_number = $1', [
        order.supplierOrderNumber,
      ]);
      return { params: { supplierOrderNumber: order.supplierOrderNumber, statusId: 4 } };
    },
  },
  'POST /v1/SupplierOrders/:supplierOrderNumber/Attachments': {
    Seller: async (ctx) => ({
      params: { supplierOrderNumber: (await demoOrder(ctx)).supplierOrderNumber },
      body: csvUpload('lieferschein.csv'),
    }),
  },
  'GET /v1/SupplierOrders/:supplierOrderNumber/Attachments/:id': same(['Seller', 'Buyer', ...staff], async (ctx) => {
    const order = await demoOrder(ctx);
    const id = await ctx.once('order-document', async () => matrixDocument(ctx, order.supplierOrderNumber));
    return { params: { supplierOrderNumber: order.supplierOrderNumber, id } };
  }),
  'DELETE /v1/SupplierOrders/:supplierOrderNumber/Attachments/:id': {
    Seller: async (ctx) => {
      const order = await demoOrder(ctx);
      return {
        params: {
          supplierOrderNumber: order.supplierOrderNumber,
          id: await matrixDocument(ctx, order.supplierOrderNumber),
        },
      };
    },
  },
  'GET /v1/SupplierOrders/:supplierOrderNumber/lines/:lineId/attachments/:id': same(
    ['Buyer', 'Seller', ...staff],
    async (ctx) => {
      const order = await demoOrder(ctx);
      return {
        params: { supplierOrderNumber: order.supplierOrderNumber, lineId: order.lineId, id: order.attachmentId },
      };
    },
  ),

  // Carts and cart items (buyers only)
  'GET /v1/MultiCarts': { Buyer: {} },
  'POST /v1/MultiCarts': { Buyer: { body: { name: 'Matrix Neu' } } },
  'GET /v1/MultiCarts/Default': { Buyer: {} },
  'POST /v1/MultiCarts/deliveryCost': {
    Buyer: { body: { supplierOrderValues: [{ supplierBusinessPartnerNo: '200001', orderValue: 120 }] } },
  },
  'GET /v1/MultiCarts/:id': {
    Ids: async (ctx) => ({ params: { id: (await idsCart(ctx)).cartId } }),
    IdsRefused: async (ctx) => ({ params: { id: (await sharedCart(ctx)).cartId } }),
    Buyer: async (ctx) => ({ params: { id: (await sharedCart(ctx)).cartId } }),
  },
  'PUT /v1/MultiCarts/:id': {
    Ids: async (ctx) => ({
      params: { id: (await idsCart(ctx)).cartId },
      body: { projectId: null, deliveryAddressId: null, deliveryDate: null },
    }),
    IdsRefused: async (ctx) => ({
      params: { id: (await sharedCart(ctx)).cartId },
      body: { projectId: null, deliveryAddressId: null, deliveryDate: null },
    }),
    Buyer: async (ctx) => ({
      params: { id: (await sharedCart(ctx)).cartId },
      body: { projectId: null, deliveryAddressId: null, deliveryDate: null },
    }),
  },
  'PUT /v1/MultiCarts/:id/name': {
    Buyer: async (ctx) => ({
      params: { id: (await sharedCart(ctx)).cartId },
      body: { name: 'Matrix Korb (umbenannt)' },
    }),
  },
  'PUT /v1/MultiCarts/:id/items': {
    Ids: async (ctx) => ({ params: { id: (await idsCart(ctx)).cartId }, body: { items: [] } }),
    IdsRefused: async (ctx) => ({ params: { id: (await sharedCart(ctx)).cartId }, body: { items: [] } }),
    Buyer: async (ctx) => ({ params: { id: (await newCart(ctx, 'Matrix Leeren', true)).cartId }, body: { items: [] } }),
  },
  'DELETE /v1/MultiCarts/:id': {
    Buyer: async (ctx) => ({ params: { id: (await newCart(ctx, 'Matrix Loeschen')).cartId } }),
  },
  'POST /v1/MultiCarts/:id/checkout': {
    Buyer: async (ctx) => ({ params: { id: (await newCart(ctx, 'Matrix Bestellen', true)).cartId } }),
  },
  'POST /v1/CartItems': {
    Ids: { body: { productInstanceId: offers.nordbadExpensive, quantity: 1 } },
    IdsRefused: async (ctx) => ({
      body: { cartId: (await sharedCart(ctx)).cartId, productInstanceId: offers.nordbadExpensive, quantity: 1 },
    }),
    Buyer: async (ctx) => ({
      body: {
        cartId: (await sharedCart(ctx)).cartId,
        productInstanceId: offers.nordbadExpensive,
        quantity: 1,
        comment: 'Matrix',
      },
    }),
  },
  'PUT /v1/CartItems/:id/properties': {
    Ids: async (ctx) => ({ params: { id: await idsCartItem(ctx) }, body: { quantity: 20 } }),
    IdsRefused: async (ctx) => ({ params: { id: (await sharedCart(ctx)).itemId }, body: { quantity: 3 } }),
    Buyer: async (ctx) => ({
      params: { id: (await sharedCart(ctx)).itemId },
      body: { quantity: 3, comment: 'Bitte vormittags liefern' },
    }),
  },
  'DELETE /v1/CartItems/:id': {
    Ids: async (ctx) => ({ params: { id: await idsCartItem(ctx) } }),
    IdsRefused: async (ctx) => ({ params: { id: (await sharedCart(ctx)).itemId } }),
    Buyer: async (ctx) => {
      const { cartId } = await sharedCart(ctx);
      const added = await ctx.t.request('POST', '/v1/CartItems', {
        as: demoUsers.Buyer,
        body: { cartId, productInstanceId: offers.aquatherm, quantity: 10 },
      });
      return { params: { id: added.body.cartItemId } };
    },
  },
  'DELETE /v1/CartItems': {
    Ids: async (ctx) => ({ query: { cartId: (await idsCart(ctx)).cartId, id: [await idsCartItem(ctx)] } }),
    IdsRefused: async (ctx) => {
      const { cartId, itemId } = await sharedCart(ctx);
      return { query: { cartId, id: [itemId] } };
    },
    Buyer: async (ctx) => {
      const { cartId } = await sharedCart(ctx);
      const added = await ctx.t.request('POST', '/v1/CartItems', {
        as: demoUsers.Buyer,
        body: { cartId, productInstanceId: offers.aquatherm, quantity: 10 },
      });
      return { query: { cartId, id: [added.body.cartItemId] } };
    },
  },
  'POST /v1/CartItems/:cartItemId/attachments': {
    Ids: async (ctx) => ({ params: { cartItemId: await idsCartItem(ctx) }, body: csvUpload('ids.csv') }),
    IdsRefused: async (ctx) => ({ params: { cartItemId: (await sharedCart(ctx)).itemId }, body: csvUpload() }),
    Buyer: async (ctx) => ({ params: { cartItemId: (await sharedCart(ctx)).itemId }, body: csvUpload('angebot.csv') }),
  },
  'GET /v1/CartItems/:cartItemId/attachments/:id': {
    Ids: async (ctx) => ({ params: await idsCartAttachment(ctx) }),
    IdsRefused: async (ctx) => ({ params: await cartAttachment(ctx) }),
    Buyer: async (ctx) => ({ params: await cartAttachment(ctx) }),
  },
  'DELETE /v1/CartItems/:cartItemId/attachments/:id': {
    Ids: async (ctx) => ({ params: await idsCartAttachment(ctx) }),
    IdsRefused: async (ctx) => ({ params: await cartAttachment(ctx) }),
    Buyer: async (ctx) => ({ params: await cartAttachment(ctx) }),
  },
  // Catalogue and search: tree and units for every signed-in user (home page), search and
  // products for every role but None, favourites for buyers, media public.
  'GET /v1/Units': same(allRoles, {}),
  'GET /v1/ProductTree': same(allRoles, {}),
  'POST /v1/Product/Search': same(signedIn, { body: { searchTerm: 'Thermostatventil', page: 1, pageSize: 5 } }),
  'POST /v1/Product/FilterOptions': same(signedIn, { body: { filterName: 'brandname', searchTerm: 'Rohr' } }),
  'GET /v1/Product/Suggestions': same(signedIn, { query: { term: 'Therm' } }),
  'GET /v1/Product': same(signedIn, async (ctx) => ({ query: { productInstanceId: await anyOffer(ctx) } })),
  'GET /v1/Product/Details': same(signedIn, async (ctx) => ({ query: { productInstanceId: await anyOffer(ctx) } })),
  'GET /v1/Product/ByManufacturerData': same(signedIn, async (ctx) => {
    const rows = await ctx.sql<{ manufacturer_id: string; manufacturer_pid: string }>(
      'SELECT manufacturer_id, manufacturer_pid FROM products ORDER BY id LIMIT 1',
    );
    return { query: { manufacturerId: rows[0].manufacturer_id, manufacturerPid: rows[0].manufacturer_pid } };
  }),
  'GET /v1/FavoriteProducts': { Buyer: {} },
  'POST /v1/FavoriteProducts': { Buyer: async (ctx) => ({ query: { productInstanceId: await anyOffer(ctx) } }) },
  'DELETE /v1/FavoriteProducts': {
    Buyer: async (ctx) => {
      const productInstanceId = await anyOffer(ctx, 1);
      await ctx.t.request('POST', `/v1/FavoriteProducts?productInstanceId=${encodeURIComponent(productInstanceId)}`, {
        as: demoUsers.Buyer,
      });
      return { query: { productInstanceId } };
    },
  },
  'GET /v1/Media/Products/:productNo/:file': { Anonymous: async (ctx) => ({ params: await anyPicture(ctx) }) },
  // Documents that are not public (a price list): every role with the catalogue; a seller only its own catalogue's.
  'GET /v1/Documents/Products/:productNo/:file': same(signedIn, async (ctx) => ({
    params: await ctx.once('price-list', () => addPriceList(ctx.t, '200001')),
  })),
  // Supplier catalogue imports and quick order. The import sample is a harmless price update.
  'POST /v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImports': same(['Administrator', 'Seller'], async () => ({
    params: { supplierBusinessPartnerNo: '200001' },
    body: priceUpdateUpload(),
  })),
  'GET /v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImports': same(['Administrator', 'Seller'], {
    params: { supplierBusinessPartnerNo: '200001' },
  }),
  'GET /v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImportSettings': same(['Administrator', 'Seller'], {
    params: { supplierBusinessPartnerNo: '200001' },
  }),
  'PUT /v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImportSettings': same(['Administrator'], {
    params: { supplierBusinessPartnerNo: '200009' },
    body: { maxWithdrawPercent: 25, maxRejectPercent: 5 },
  }),
  'GET /v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImports/:id/Warnings.csv': nordbadImport(catalogueImport),
  'GET /v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImports/:id/Rejections.csv': nordbadImport(catalogueImport),
  'POST /v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImports/:id/Approve': nordbadImport(waitingImport),
  'POST /v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImports/:id/Discard': nordbadImport(waitingImport),
  // Each role undoes an import of its own (an undone import cannot be undone again).
  'POST /v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImports/:id/Undo': {
    Administrator: nordbadImportSample((ctx) => undoableImport(ctx, 'MATRIX-UNDO-1')),
    Seller: nordbadImportSample((ctx) => undoableImport(ctx, 'MATRIX-UNDO-2')),
  },
  'GET /v1/Suppliers/:supplierBusinessPartnerNo/CatalogueImports/:id': nordbadImport(catalogueImport),
  'POST /v1/MultiCarts/:id/QuickOrder': {
    Ids: async (ctx) => ({
      params: { id: (await idsCart(ctx)).cartId },
      body: { text: `${offers.nordbad.split('~')[1]};2` },
    }),
    IdsRefused: async (ctx) => ({
      params: { id: (await sharedCart(ctx)).cartId },
      body: { text: `${offers.nordbad.split('~')[1]};2` },
    }),
    Buyer: async (ctx) => ({
      params: { id: (await sharedCart(ctx)).cartId },
      body: { text: `${offers.nordbad.split('~')[1]};2` },
    }),
  },
  'POST /v1/MultiCarts/:id/QuickOrder/File': {
    Ids: async (ctx) => {
      const form = new FormData();
      form.append(
        'file',
        new Blob([`Artikelnummer;Menge\n${offers.nordbad.split('~')[1]};2\n`], { type: 'text/csv' }),
        'liste.csv',
      );
      return { params: { id: (await idsCart(ctx)).cartId }, body: form };
    },
    IdsRefused: async (ctx) => {
      const form = new FormData();
      form.append(
        'file',
        new Blob([`Artikelnummer;Menge\n${offers.nordbad.split('~')[1]};2\n`], { type: 'text/csv' }),
        'liste.csv',
      );
      return { params: { id: (await sharedCart(ctx)).cartId }, body: form };
    },
    Buyer: async (ctx) => {
      const form = new FormData();
      form.append(
        'file',
        new Blob([`Artikelnummer;Menge\n${offers.nordbad.split('~')[1]};2\n`], { type: 'text/csv' }),
        'liste.csv',
      );
      return { params: { id: (await sharedCart(ctx)).cartId }, body: form };
    },
  },
  // IDS-Connect: code exchange public, everything else the buyer's own IDS context.
  'GET /v1/Ids': { Anonymous: async (ctx) => ({ query: { code: (await idsMatrixContext(ctx.t)).code } }) },
  'POST /v1/Ids/complete': {
    Ids: async (ctx) => {
      const session = await newIdsSession(ctx);
      return { token: session.token, query: { idsContextId: session.contextId, withCheckout: 'false' } };
    },
    Buyer: async (ctx) => {
      await cartOffers(ctx);
      return { query: { idsContextId: (await idsMatrixContext(ctx.t)).contextId, withCheckout: 'false' } };
    },
  },
  'POST /v1/Ids/Send': {
    Ids: async (ctx) => {
      const session = await newIdsSession(ctx);
      return {
        token: session.token,
        query: { idsContextId: session.contextId },
        body: { productInstanceId: offers.nordbad, quantity: 1 },
      };
    },
    Buyer: async (ctx) => {
      await cartOffers(ctx);
      return {
        query: { idsContextId: (await idsMatrixContext(ctx.t)).contextId },
        body: { productInstanceId: offers.nordbad, quantity: 1 },
      };
    },
  },
  'GET /v1/IdsCarts/:idsContextId': {
    Ids: async (ctx) => {
      const session = await newIdsSession(ctx);
      return { token: session.token, params: { idsContextId: session.contextId } };
    },
    Buyer: async (ctx) => ({ params: { idsContextId: (await idsMatrixContext(ctx.t)).contextId } }),
  },
  'POST /v1/IdsCarts/:idsContextId': {
    Ids: async (ctx) => {
      const session = await newIdsSession(ctx);
      return { token: session.token, params: { idsContextId: session.contextId } };
    },
    Buyer: async (ctx) => {
      await cartOffers(ctx);
      return { params: { idsContextId: (await idsMatrixContext(ctx.t)).contextId } };
    },
  },
  'DELETE /v1/IdsCarts/:idsContextId/items': {
    Ids: async (ctx) => {
      const session = await newIdsSession(ctx);
      return { token: session.token, params: { idsContextId: session.contextId } };
    },
    Buyer: async (ctx) => ({ params: { idsContextId: (await idsMatrixContext(ctx.t)).contextId } }),
  },
  'PUT /v1/IdsCartItems/:id': {
    Ids: async (ctx) => {
      const session = await newIdsSession(ctx);
      return {
        token: session.token,
        params: { id: session.itemId },
        body: { matchedProductInstanceId: offers.nordbad, matchedQuantity: 2 },
      };
    },
    Buyer: async (ctx) => {
      await cartOffers(ctx);
      return {
        params: { id: (await idsMatrixContext(ctx.t)).itemId },
        body: { matchedProductInstanceId: offers.nordbad, matchedQuantity: 2 },
      };
    },
  },
  'DELETE /v1/IdsCartItems/:id': {
    Ids: async (ctx) => {
      const session = await newIdsSession(ctx);
      return { token: session.token, params: { id: session.itemId } };
    },
    Buyer: async (ctx) => ({ params: { id: (await idsMatrixContext(ctx.t)).itemId } }),
  },
  'POST /v1/Ids/Logout': {
    Buyer: {},
    Ids: async (ctx) => ({ token: (await newIdsSession(ctx)).token }),
  },
  // Punchout (docs/punchout.md): the return needs a punchout session (an IDS session with action oci).
  'POST /v1/Punchout/return': {
    Buyer: async (ctx) => ({ query: { punchoutContextId: (await newPunchoutSession(ctx)).contextId } }),
    Ids: async (ctx) => ({ token: (await newPunchoutSession(ctx)).token }),
  },
  'GET /v1/PunchoutCredentials': { Buyer: {} },
  'PUT /v1/PunchoutCredentials': {
    Buyer: {
      user: 'einkauf2@example.com',
      body: {
        ociEnabled: true,
        ociUsername: 'becker-oci',
        ociPassword: 'demo-neu',
        cxmlEnabled: false,
        cxmlDomain: null,
        cxmlIdentity: null,
        cxmlSharedSecret: null,
      },
    },
  },
  'GET /v1/PunchoutSessions': same(staff, {}),
  'GET /v1/IdsCredentials': { Buyer: {} },
  'PUT /v1/IdsCredentials': {
    Buyer: { user: 'einkauf2@example.com', body: { loginName: 'becker-matrix', password: 'demo-neu' } },
  },
  // Dashboard and reports (staff)
  'GET /v1/Dashboard/SupplierOrdersCount': same(staff, {
    query: { StartDate: '2025-01-01', EndDate: '2025-03-31', Grouping: 'month' },
  }),
  'GET /v1/Dashboard/SupplierOrdersCountBySeller': same(staff, {
    query: { StartDate: '2025-01-01', EndDate: '2025-03-31', Grouping: 'month', SupplierBpNumber: '200001' },
  }),
  'GET /v1/Dashboard/SupplierOrdersSla': same(staff, {
    query: { StartDate: '2025-01-01', EndDate: '2025-03-31', Grouping: 'month' },
  }),
  'GET /v1/Dashboard/SupplierOrdersSlaBySeller': same(staff, {
    query: { StartDate: '2025-01-01', EndDate: '2025-03-31', Grouping: 'month', SupplierBpNumber: '200001' },
  }),
  'GET /v1/Dashboard/SupplierOrdersSumNetValue': same(staff, {
    query: { StartDate: '2025-01-01', EndDate: '2025-03-31', Grouping: 'month' },
  }),
  'GET /v1/Dashboard/SupplierOrdersSumNetValueBySeller': same(staff, {
    query: { StartDate: '2025-01-01', EndDate: '2025-03-31', Grouping: 'month', SupplierBpNumber: '200001' },
  }),
  'GET /v1/Dashboard/SupplierOrdersAvgNetValue': same(staff, {
    query: { StartDate: '2025-01-01', EndDate: '2025-03-31', Grouping: 'month' },
  }),
  'GET /v1/Dashboard/SupplierOrdersAvgNetValueBySeller': same(staff, {
    query: { StartDate: '2025-01-01', EndDate: '2025-03-31', Grouping: 'month', SupplierBpNumber: '200001' },
  }),
  'GET /v1/Dashboard/TopSuppliers': same(staff, { query: { StartDate: '2025-01-01', EndDate: '2025-03-31' } }),
  'GET /v1/Reports': same(staff, { query: { Page: 1, PageSize: 25 } }),
  'GET /v1/Reports/ReportTypes': same(staff, {}),
  'POST /v1/Reports/Generate': same(staff, {
    body: { reportType: 1, startDate: '2025-01-01', endDate: '2025-01-31', format: 'csv' },
  }),
  'GET /v1/Reports/Download/:id': Object.fromEntries(
    staff.map((role) => [
      role,
      async (ctx: MatrixContext) => ({ params: { id: await completedReportOf(ctx, demoUsers[role]) } }),
    ]),
  ),
};

/** A completed report with a file, owned by the given demo user (the download needs one of their own). */
async function completedReportOf(ctx: MatrixContext, email: string): Promise<number> {
  const [row] = await ctx.sql<{ id: number }>(
    `INSERT INTO reports (user_id, report_type_id, format, start_date, end_date, status_id, file_name, stored_as)
     SELECT id, 1, 'csv', '2025-01-01', '2025-01-31', 3, 'matrix.csv', 'matrix-' || id || '.csv' FROM users WHERE email = $1
     RETURNING id::int, stored_as`,
    [email],
  );
  const dir = path.join(ctx.t.config.dataDir, 'reports');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, (row as any).stored_as), '\ufeffA;B\r\n');
  return row.id;
}
