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
 * Adding a route: add its key below with one sample per allowed role. A sample is either a plain
 * request ({ params, query, body }) or an async function that prepares data first (ctx.sql for
 * direct SQL, ctx.request to call the API as a demo user, ctx.once to share a fixture) and
 * returns the request. Samples run in the order listed, after the 401/403 checks of the route.
 */
import type { RoleName } from '@shk/contracts';
import type { TestApp } from './support/test-app.ts';
import { insertTestOffers, offers } from './support/cart-fixtures.ts';

export interface MatrixRequest {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | Array<string | number>>;
  body?: unknown;
  /** Another demo user of the same role (default: demoUsers[role]). */
  user?: string;
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
export type MatrixEntry = Partial<Record<MatrixRole, MatrixSample>>;

/** The demo user that stands for each role (apps/api/src/seed/demo-world.ts). */
export const demoUsers: Record<RoleName, string> = {
  None: 'gast@example.com',
  Buyer: 'einkauf@example.com', // current partner 100001 (also member of 100002)
  Seller: 'verkauf@example.com', // supplier 200001
  Administrator: 'admin@example.com',
  Support: 'support@example.com',
  PlatformOperator: 'betrieb@example.com',
};

const staff = ['Administrator', 'Support', 'PlatformOperator'] as const;
const signedIn = ['Buyer', 'Seller', ...staff] as const;
const allRoles = ['None', ...signedIn] as const;

/** The same sample for several roles. */
function same(roles: readonly RoleName[], sample: MatrixSample): MatrixEntry {
  return Object.fromEntries(roles.map((r) => [r, sample]));
}

// ---------------------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------------------

/** Id of a demo relation (supplier ← buyer). */
async function relationId(ctx: MatrixContext, supplier: string, buyer: string): Promise<number> {
  const rows = await ctx.sql<{ id: number }>('SELECT id FROM supplier_customers WHERE supplier_bp_number = $1 AND buyer_bp_number = $2', [supplier, buyer]);
  if (!rows[0]) throw new Error(`demo relation ${supplier} ← ${buyer} missing`);
  return Number(rows[0].id);
}

/** Creates (or resets) a relation in the given status and returns its id. */
async function relationInStatus(ctx: MatrixContext, supplier: string, buyer: string, status: number, customerNumber: string | null): Promise<number> {
  const rows = await ctx.sql<{ id: number }>(
    `INSERT INTO supplier_customers (supplier_bp_number, buyer_bp_number, relation_status_id, supplier_customer_number, comments)
     VALUES ($1, $2, $3, $4, 'Matrix-Test') ON CONFLICT (buyer_bp_number, supplier_bp_number)
     DO UPDATE SET relation_status_id = EXCLUDED.relation_status_id, supplier_customer_number = EXCLUDED.supplier_customer_number
     RETURNING id`, [supplier, buyer, status, customerNumber]);
  return Number(rows[0].id);
}

interface DemoOrder { customerOrderNumber: string; supplierOrderNumber: string; lineId: number; attachmentId: number }

/** One placed order of buyer 100001 at supplier 200001 with a line attachment, written directly. */
function demoOrder(ctx: MatrixContext): Promise<DemoOrder> {
  return ctx.once('demo-order', async () => {
    const [co] = await ctx.sql<{ id: number }>(
      `INSERT INTO customer_orders (customer_order_number, bp_number, user_id, cart_name, total_net, delivery_cost_total, dispatch_to, customer_address)
       VALUES ('KB-MATRIX-1', '100001', '00000000-0000-4000-8000-000000000001', 'Matrix', 100, 0, 'Sanitär Müller GmbH, 50667 Köln', $1) RETURNING id`,
      [JSON.stringify({ name: 'Sanitär Müller GmbH', street: 'Lindenstraße', houseNumber: '12', postalCode: '50667', city: 'Köln', country: 'DE' })]);
    const [so] = await ctx.sql<{ id: number }>(
      `INSERT INTO supplier_orders (supplier_order_number, customer_order_id, supplier_bp_number, buyer_bp_number, supplier_customer_number, net_value, delivery_cost)
       VALUES ('LB-MATRIX-1', $1, '200001', '100001', 'K-10001', 100, 0) RETURNING id`, [co.id]);
    const [line] = await ctx.sql<{ id: number }>(
      `INSERT INTO order_lines (supplier_order_id, line_no, product_instance_id, article_number, name, quantity, unit_price, quantity_price)
       VALUES ($1, 1, '200001::MATRIX-1', 'MATRIX-1', 'Matrix-Testartikel', 2, 50, 100) RETURNING id`, [so.id]);
    const [file] = await ctx.sql<{ id: number }>(
      `INSERT INTO order_line_attachments (order_line_id, file_name, content_type, size_bytes, content)
       VALUES ($1, 'notiz.csv', 'text/csv', 4, $2) RETURNING id`, [line.id, Buffer.from('a;b\n')]);
    return { customerOrderNumber: 'KB-MATRIX-1', supplierOrderNumber: 'LB-MATRIX-1', lineId: Number(line.id), attachmentId: Number(file.id) };
  });
}

const address = (name: string) => ({
  companyName: name, contactPerson: 'Frau Test', streetName: 'Teststraße', houseNumber: '1', postalCode: '50667', city: 'Köln', countryCode: 'DE',
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
  const added = await ctx.t.request('POST', '/v1/CartItems', { as: demoUsers.Buyer, body: { cartId: cart.body.id, productInstanceId: offers.nordbad, quantity: 2 } });
  if (added.status !== 201) throw new Error(`cart item fixture: ${added.status} ${added.text}`);
  return { cartId: cart.body.id, itemId: added.body.cartItemId };
}

/** One cart with an item shared by the non-destructive cart samples (MaxCartCount is 10). */
const sharedCart = (ctx: MatrixContext) => ctx.once('shared-cart', () => newCart(ctx, 'Matrix Korb', true));

function csvUpload(name = 'aufmass.csv'): FormData {
  const form = new FormData();
  form.append('files', new Blob(['Pos;Menge\n1;2\n'], { type: 'text/csv' }), name);
  return form;
}

/** Uploads a file to the shared cart's item and returns ids (a maximum of 1 replaces the previous file). */
async function cartAttachment(ctx: MatrixContext): Promise<{ cartItemId: number; id: number }> {
  const { itemId } = await sharedCart(ctx);
  const res = await ctx.t.request('POST', `/v1/CartItems/${itemId}/attachments`, { as: demoUsers.Buyer, body: csvUpload() });
  if (res.status !== 200) throw new Error(`attachment fixture: ${res.status} ${res.text}`);
  return { cartItemId: itemId, id: res.body[res.body.length - 1].id };
}

// ---------------------------------------------------------------------------------------------
// The matrix
// ---------------------------------------------------------------------------------------------

/** A product instance of the test catalogue (the n-th by id). */
async function anyOffer(ctx: MatrixContext, n = 0): Promise<string> {
  const rows = await ctx.sql<{ product_instance_id: string }>('SELECT product_instance_id FROM product_offers ORDER BY product_instance_id LIMIT 1 OFFSET $1', [n]);
  if (!rows[0]) throw new Error('test catalogue missing');
  return rows[0].product_instance_id;
}

/** Product number and file name of a generated product picture. */
async function anyPicture(ctx: MatrixContext): Promise<{ productNo: number; file: string }> {
  const rows = await ctx.sql<{ id: number; file: string }>(
    `SELECT id, m->>'file' AS file FROM products, jsonb_array_elements(media) m WHERE m->>'type' = 'picture' ORDER BY id LIMIT 1`);
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
  'GET /v1/BusinessPartners/Current': { Buyer: {}, Seller: {} },
  'GET /v1/BusinessPartners/:businessPartnerNo': {
    Buyer: { params: { businessPartnerNo: '200001' } },
    Seller: { params: { businessPartnerNo: '200001' } },
    ...same(staff, { params: { businessPartnerNo: '100003' } }),
  },
  'GET /v1/ConfigurationValues/:key': same(allRoles, { params: { key: 'MaxCartCount' } }),
  'POST /v1/Feedbacks': same(allRoles, { body: { isPositive: true, comment: 'Gute Treffer', url: '/suche?term=Rohr' } }),
  'POST /v1/SupportRequests/PartnerDataChange': {
    Buyer: { body: { message: 'Neue Telefonnummer', email: 'einkauf@example.com', phoneNumber: '+49 221 1' } },
    Seller: { body: { message: 'Neue Anschrift', email: 'verkauf@example.com' } },
    None: { body: { message: 'Bitte Firma zuordnen', email: 'gast@example.com' } },
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
    Buyer: async (ctx) => ({ params: { id: await relationInStatus(ctx, '200006', '100001', 3, null) }, body: { relationStatusId: 2, supplierCustomerNumber: 'HL-4711' } }),
    // seller edits the comment of an approved customer (same status)
    Seller: async (ctx) => ({ params: { id: await relationId(ctx, '200001', '100003') }, body: { relationStatusId: 1, comments: 'Stammkunde' } }),
    // administrator blocks a relation
    Administrator: async (ctx) => ({ params: { id: await relationId(ctx, '200004', '100002') }, body: { relationStatusId: 6, comments: 'Gesperrt (Test)' } }),
  },
  'PUT /v1/SupplierCustomers/:id/SupplierCustomerNumber/:supplierCustomerNumber': {
    Buyer: async (ctx) => ({ params: { id: await relationInStatus(ctx, '200007', '100001', 4, null), supplierCustomerNumber: 'WS-2002' } }),
    Seller: async (ctx) => ({ params: { id: await relationId(ctx, '200001', '100001'), supplierCustomerNumber: 'K-10001' } }),
  },
  'GET /v1/PlatformOperator/SupplierCustomers': same(staff, { query: { RelationsStatusId: '1,2' } }),
  'GET /v1/PlatformOperator/SupplierCustomers/:id/StatusChanges': same(staff, async (ctx) => ({ params: { id: await relationId(ctx, '200001', '100001') } })),

  // Supplier reads
  'GET /v1/Suppliers/:supplierBusinessPartnerNo/CompanyInfo': same(signedIn, { params: { supplierBusinessPartnerNo: '200001' } }),
  'GET /v1/Suppliers/:supplierBusinessPartnerNo/ItekIntegrationInfo': same(signedIn, { params: { supplierBusinessPartnerNo: '200003' } }),
  'POST /v1/Suppliers/ItekIntegrationInfo': same(signedIn, { body: { supplierBusinessPartnerNumbers: ['200001', '200002'] } }),
  'GET /v1/SupplierOnboardingFormTemplates/:bpNumber': same(signedIn, { params: { bpNumber: '200005' } }),

  // Delivery addresses and projects
  'GET /v1/DeliveryAddresses': { Buyer: {} },
  'POST /v1/DeliveryAddresses': { Buyer: { body: address('Baustelle Matrix') } },
  'PUT /v1/DeliveryAddresses/:id': { Buyer: async (ctx) => ({ params: { id: await newAddress(ctx, 'Baustelle Ändern') }, body: address('Baustelle Geändert') }) },
  'DELETE /v1/DeliveryAddresses/:id': { Buyer: async (ctx) => ({ params: { id: await newAddress(ctx, 'Baustelle Löschen') } }) },
  'GET /v1/Projects': { Buyer: {} },
  'POST /v1/Projects': { Buyer: { body: { code: 'Matrix-Projekt', description: 'Neubau Testweg 1' } } },

  // Orders
  'GET /v1/CustomerOrders': { Buyer: { query: { Page: 1, PageSize: 10 } } },
  'GET /v1/CustomerOrders/:customerOrderNumber/Details': {
    ...same(['Buyer', ...staff], async (ctx) => ({ params: { customerOrderNumber: (await demoOrder(ctx)).customerOrderNumber } })),
  },
  'GET /v1/PlatformOperator/CustomerOrders': same(staff, {}),
  'GET /v1/PlatformOperator/CustomerOrders/:customerOrderNumber': same(staff, async (ctx) => ({ params: { customerOrderNumber: (await demoOrder(ctx)).customerOrderNumber } })),
  'GET /v1/PlatformOperator/SupplierOrders': same(staff, { query: { SupplierId: '200001' } }),
  'GET /v1/PlatformOperator/SupplierOrders/:supplierOrderNumber': same(staff, async (ctx) => ({ params: { supplierOrderNumber: (await demoOrder(ctx)).supplierOrderNumber } })),
  'GET /v1/SupplierOrders/:supplierOrderNumber/lines/:lineId/attachments/:id': same(['Buyer', 'Seller', ...staff], async (ctx) => {
    const order = await demoOrder(ctx);
    return { params: { supplierOrderNumber: order.supplierOrderNumber, lineId: order.lineId, id: order.attachmentId } };
  }),

  // Carts and cart items (buyers only)
  'GET /v1/MultiCarts': { Buyer: {} },
  'POST /v1/MultiCarts': { Buyer: { body: { name: 'Matrix Neu' } } },
  'GET /v1/MultiCarts/Default': { Buyer: {} },
  'POST /v1/MultiCarts/deliveryCost': { Buyer: { body: { supplierOrderValues: [{ supplierBusinessPartnerNo: '200001', orderValue: 120 }] } } },
  'GET /v1/MultiCarts/:id': { Buyer: async (ctx) => ({ params: { id: (await sharedCart(ctx)).cartId } }) },
  'PUT /v1/MultiCarts/:id': { Buyer: async (ctx) => ({ params: { id: (await sharedCart(ctx)).cartId }, body: { projectId: null, deliveryAddressId: null, deliveryDate: null } }) },
  'PUT /v1/MultiCarts/:id/name': { Buyer: async (ctx) => ({ params: { id: (await sharedCart(ctx)).cartId }, body: { name: 'Matrix Korb (umbenannt)' } }) },
  'PUT /v1/MultiCarts/:id/items': { Buyer: async (ctx) => ({ params: { id: (await newCart(ctx, 'Matrix Leeren', true)).cartId }, body: { items: [] } }) },
  'DELETE /v1/MultiCarts/:id': { Buyer: async (ctx) => ({ params: { id: (await newCart(ctx, 'Matrix Loeschen')).cartId } }) },
  'POST /v1/MultiCarts/:id/checkout': { Buyer: async (ctx) => ({ params: { id: (await newCart(ctx, 'Matrix Bestellen', true)).cartId } }) },
  'POST /v1/CartItems': {
    Buyer: async (ctx) => ({ body: { cartId: (await sharedCart(ctx)).cartId, productInstanceId: offers.nordbadExpensive, quantity: 1, comment: 'Matrix' } }),
  },
  'PUT /v1/CartItems/:id/properties': { Buyer: async (ctx) => ({ params: { id: (await sharedCart(ctx)).itemId }, body: { quantity: 3, comment: 'Bitte vormittags liefern' } }) },
  'DELETE /v1/CartItems/:id': {
    Buyer: async (ctx) => {
      const { cartId } = await sharedCart(ctx);
      const added = await ctx.t.request('POST', '/v1/CartItems', { as: demoUsers.Buyer, body: { cartId, productInstanceId: offers.aquatherm, quantity: 10 } });
      return { params: { id: added.body.cartItemId } };
    },
  },
  'DELETE /v1/CartItems': {
    Buyer: async (ctx) => {
      const { cartId } = await sharedCart(ctx);
      const added = await ctx.t.request('POST', '/v1/CartItems', { as: demoUsers.Buyer, body: { cartId, productInstanceId: offers.aquatherm, quantity: 10 } });
      return { query: { cartId, id: [added.body.cartItemId] } };
    },
  },
  'POST /v1/CartItems/:cartItemId/attachments': { Buyer: async (ctx) => ({ params: { cartItemId: (await sharedCart(ctx)).itemId }, body: csvUpload('angebot.csv') }) },
  'GET /v1/CartItems/:cartItemId/attachments/:id': { Buyer: async (ctx) => ({ params: await cartAttachment(ctx) }) },
  'DELETE /v1/CartItems/:cartItemId/attachments/:id': { Buyer: async (ctx) => ({ params: await cartAttachment(ctx) }) },
  // Catalogue and search (issue 3): tree and units for every signed-in user (home page), search and
  // products for every role but None, favourites for buyers, media public.
  'GET /v1/Units': same(allRoles, {}),
  'GET /v1/ProductTree': same(allRoles, {}),
  'POST /v1/Product/Search': same(signedIn, { body: { searchTerm: 'Thermostatventil', page: 1, pageSize: 5 } }),
  'POST /v1/Product/FilterOptions': same(signedIn, { body: { filterName: 'brandname', searchTerm: 'Rohr' } }),
  'GET /v1/Product/Suggestions': same(signedIn, { query: { term: 'Therm' } }),
  'GET /v1/Product': same(signedIn, async (ctx) => ({ query: { productInstanceId: await anyOffer(ctx) } })),
  'GET /v1/Product/Details': same(signedIn, async (ctx) => ({ query: { productInstanceId: await anyOffer(ctx) } })),
  'GET /v1/Product/ByManufacturerData': same(signedIn, async (ctx) => {
    const rows = await ctx.sql<{ manufacturer_id: string; manufacturer_pid: string }>('SELECT manufacturer_id, manufacturer_pid FROM products ORDER BY id LIMIT 1');
    return { query: { manufacturerId: rows[0].manufacturer_id, manufacturerPid: rows[0].manufacturer_pid } };
  }),
  'GET /v1/FavoriteProducts': { Buyer: {} },
  'POST /v1/FavoriteProducts': { Buyer: async (ctx) => ({ query: { productInstanceId: await anyOffer(ctx) } }) },
  'DELETE /v1/FavoriteProducts': {
    Buyer: async (ctx) => {
      const productInstanceId = await anyOffer(ctx, 1);
      await ctx.t.request('POST', `/v1/FavoriteProducts?productInstanceId=${encodeURIComponent(productInstanceId)}`, { as: demoUsers.Buyer });
      return { query: { productInstanceId } };
    },
  },
  'GET /v1/Media/Products/:productNo/:file': { Anonymous: async (ctx) => ({ params: await anyPicture(ctx) }) },
};
