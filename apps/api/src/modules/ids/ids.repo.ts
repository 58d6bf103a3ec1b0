import type { Queryable } from '../../db/queryable.ts';

export interface IdsContextRow {
  id: string;
  bp_number: string;
  user_id: string;
  action: string;
  version: string;
  hook_url: string | null;
  target: string | null;
  search_term: string | null;
  gh_number: string | null;
  cart_header: Record<string, unknown> | null;
  moved_to_cart: boolean;
  completed_at: Date | null;
  order_number: string | null;
}

export interface IdsItemRow {
  id: number;
  position_no: number;
  article_number: string | null;
  gtin: string | null;
  manufacturer_id: string | null;
  manufacturer_pid: string | null;
  short_name: string | null;
  quantity: string | null;
  unit: string | null;
  raw_text: string;
  reference: Record<string, unknown> | null;
  candidate_instance_ids: string[];
  matched_product_instance_id: string | null;
  matched_supplier_bp_number: string | null;
  matched_article_number: string | null;
  matched_quantity: string | null;
  is_deleted: boolean;
  moved_cart_item_id: number | null;
}

export async function findCredential(c: Queryable, bpNumber: string, loginName: string) {
  const { rows } = await c.query<{ user_id: string; password_hash: string; role: number }>(
    `SELECT k.user_id, k.password_hash, u.role
       FROM ids_credentials k JOIN users u ON u.id = k.user_id
       JOIN user_business_partners m ON m.user_id = k.user_id AND m.bp_number = k.bp_number
      WHERE k.bp_number = $1 AND lower(k.login_name) = lower($2)`,
    [bpNumber, loginName],
  );
  return rows[0] ?? null;
}

export async function credentialOf(c: Queryable, bpNumber: string, userId: string) {
  const { rows } = await c.query<{ login_name: string }>(
    'SELECT login_name FROM ids_credentials WHERE bp_number = $1 AND user_id = $2',
    [bpNumber, userId],
  );
  return rows[0] ?? null;
}

export async function saveCredential(c: Queryable, bpNumber: string, userId: string, loginName: string, hash: string) {
  const { rows } = await c.query(
    `INSERT INTO ids_credentials (bp_number, user_id, login_name, password_hash) VALUES ($1,$2,$3,$4)
     ON CONFLICT (bp_number, user_id) DO UPDATE SET login_name = EXCLUDED.login_name, password_hash = EXCLUDED.password_hash, updated_at = now()
     RETURNING login_name`,
    [bpNumber, userId, loginName, hash],
  );
  return rows[0];
}

export async function loginNameTaken(c: Queryable, bpNumber: string, userId: string, loginName: string) {
  const { rows } = await c.query(
    'SELECT 1 FROM ids_credentials WHERE bp_number = $1 AND lower(login_name) = lower($2) AND user_id <> $3',
    [bpNumber, loginName, userId],
  );
  return rows.length > 0;
}

export async function insertContext(
  c: Queryable,
  ctx: {
    bpNumber: string;
    userId: string;
    action: string;
    version: string;
    hookUrl: string | null;
    target: string | null;
    searchTerm: string | null;
    ghNumber: string | null;
    cartXml: string | null;
    cartHeader: Record<string, unknown> | null;
  },
): Promise<string> {
  const { rows } = await c.query<{ id: string }>(
    `INSERT INTO ids_contexts (bp_number, user_id, action, version, hook_url, target, search_term, gh_number, cart_xml, cart_header)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) RETURNING id`,
    [
      ctx.bpNumber,
      ctx.userId,
      ctx.action,
      ctx.version,
      ctx.hookUrl,
      ctx.target,
      ctx.searchTerm,
      ctx.ghNumber,
      ctx.cartXml,
      ctx.cartHeader ? JSON.stringify(ctx.cartHeader) : null,
    ],
  );
  return rows[0].id;
}

/** A received position as it is stored. */
export type NewIdsItem = Omit<
  IdsItemRow,
  'id' | 'is_deleted' | 'moved_cart_item_id' | 'quantity' | 'matched_quantity'
> & {
  quantity: number | null;
  matched_quantity: number | null;
};

export async function insertCode(c: Queryable, codeHash: string, contextId: string, ttlSeconds: number) {
  await c.query(
    `INSERT INTO ids_codes (code_hash, context_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
    [codeHash, contextId, ttlSeconds],
  );
}

/** Marks the code used and returns its context, in one statement: a second use finds nothing. */
export async function consumeCode(c: Queryable, codeHash: string) {
  const { rows } = await c.query<{ context_id: string }>(
    `UPDATE ids_codes SET used_at = now() WHERE code_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING context_id`,
    [codeHash],
  );
  return rows[0]?.context_id ?? null;
}

export async function findContext(c: Queryable, id: string, userId: string, lock = false) {
  const { rows } = await c.query<IdsContextRow>(
    `SELECT id, bp_number, user_id, action, version, hook_url, target, search_term, gh_number, cart_header, moved_to_cart, completed_at, order_number
       FROM ids_contexts WHERE id::text = $1 AND user_id = $2 ${lock ? 'FOR UPDATE' : ''}`,
    [id, userId],
  );
  return rows[0] ?? null;
}

/** The user's latest IDS context with an unmoved pre-cart (for the /warenkorb redirect). */
export async function contextItems(c: Queryable, contextId: string) {
  const { rows } = await c.query<IdsItemRow>(
    `SELECT id, position_no, article_number, gtin, manufacturer_id, manufacturer_pid, short_name, quantity, unit, raw_text, reference,
            candidate_instance_ids, matched_product_instance_id, matched_supplier_bp_number, matched_article_number, matched_quantity,
            is_deleted, moved_cart_item_id
       FROM ids_cart_items WHERE context_id = $1 ORDER BY position_no`,
    [contextId],
  );
  return rows;
}

export async function findItemOfUser(c: Queryable, itemId: number, userId: string) {
  const { rows } = await c.query<IdsItemRow & { context_id: string }>(
    `SELECT i.*, i.context_id::text AS context_id FROM ids_cart_items i JOIN ids_contexts x ON x.id = i.context_id
      WHERE i.id = $1 AND x.user_id = $2`,
    [itemId, userId],
  );
  return rows[0] ?? null;
}

export async function updateItemMatch(
  c: Queryable,
  itemId: number,
  m: { instanceId: string; supplier: string; articleNumber: string; quantity: number },
) {
  await c.query(
    `UPDATE ids_cart_items SET matched_product_instance_id = $2, matched_supplier_bp_number = $3, matched_article_number = $4,
            matched_quantity = $5, is_deleted = false WHERE id = $1`,
    [itemId, m.instanceId, m.supplier, m.articleNumber, m.quantity],
  );
}

export async function deleteItem(c: Queryable, itemId: number) {
  await c.query('UPDATE ids_cart_items SET is_deleted = true WHERE id = $1', [itemId]);
}

export async function deleteAllItems(c: Queryable, contextId: string) {
  await c.query('UPDATE ids_cart_items SET is_deleted = true WHERE context_id = $1', [contextId]);
}

/**
 * Offers that carry a received article: the supplier article number first, then the GTIN, then
 * manufacturer (id or name) + manufacturer article number. The first step with hits wins.
 */
export async function candidateOffers(
  c: Queryable,
  p: {
    articleNorm: string | null;
    gtin: string | null;
    manufacturer: string | null;
    manufacturerPidNorm: string | null;
  },
): Promise<string[]> {
  if (p.articleNorm) {
    const { rows } = await c.query<{ id: string }>(
      'SELECT product_instance_id AS id FROM product_offers WHERE supplier_pid_norm = $1 ORDER BY supplier_bp_number',
      [p.articleNorm],
    );
    if (rows.length) return rows.map((r) => r.id);
  }
  if (p.gtin) {
    const { rows } = await c.query<{ id: string }>(
      `SELECT o.product_instance_id AS id FROM products pr JOIN product_offers o ON o.product_no = pr.id
        WHERE pr.gtin = $1 ORDER BY o.supplier_bp_number`,
      [p.gtin],
    );
    if (rows.length) return rows.map((r) => r.id);
  }
  if (p.manufacturer && p.manufacturerPidNorm) {
    const { rows } = await c.query<{ id: string }>(
      `SELECT o.product_instance_id AS id FROM products pr JOIN manufacturers m ON m.manufacturer_id = pr.manufacturer_id
         JOIN product_offers o ON o.product_no = pr.id
        WHERE pr.manufacturer_pid_norm = $2 AND (upper(m.manufacturer_id) = upper($1) OR lower(m.name) = lower($1))
        ORDER BY o.supplier_bp_number`,
      [p.manufacturer, p.manufacturerPidNorm],
    );
    if (rows.length) return rows.map((r) => r.id);
  }
  return [];
}

export async function setMoved(c: Queryable, contextId: string) {
  await c.query('UPDATE ids_contexts SET moved_to_cart = true WHERE id = $1', [contextId]);
}

export async function cartLines(c: Queryable, cartId: number) {
  const { rows } = await c.query<{ id: number; product_instance_id: string; quantity: string }>(
    'SELECT id, product_instance_id, quantity FROM cart_items WHERE cart_id = $1 ORDER BY id',
    [cartId],
  );
  return rows;
}

export async function completeContext(c: Queryable, contextId: string, orderNumber: string | null) {
  await c.query('UPDATE ids_contexts SET completed_at = now(), order_number = $2 WHERE id = $1', [
    contextId,
    orderNumber,
  ]);
}

/** The exchange of the context's code starts its session (lifetime from now; the idle clock starts too). */
export async function startSession(c: Queryable, contextId: string, lifetimeSeconds: number) {
  await c.query(
    `UPDATE ids_contexts SET session_expires_at = now() + make_interval(secs => $2), last_seen_at = now()
      WHERE id = $1 AND session_expires_at IS NULL`,
    [contextId, lifetimeSeconds],
  );
}

/** Sign-out of an IDS session: its token is refused from now on. */
export async function revokeSession(c: Queryable, contextId: string, userId: string) {
  await c.query('UPDATE ids_contexts SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL', [
    contextId,
    userId,
  ]);
}

/** GTINs of offers (the cart's offer snapshot does not carry them). */
export async function gtinsOf(c: Queryable, instanceIds: string[]): Promise<Map<string, string>> {
  const { rows } = await c.query<{ id: string; gtin: string | null }>(
    `SELECT o.product_instance_id AS id, p.gtin FROM product_offers o JOIN products p ON p.id = o.product_no
      WHERE o.product_instance_id = ANY($1)`,
    [instanceIds],
  );
  return new Map(rows.filter((r) => r.gtin).map((r) => [r.id, r.gtin!]));
}

export async function storeReturnPage(
  c: Queryable,
  contextId: string,
  html: string,
  codeHash: string,
  ttlSeconds: number,
) {
  await c.query(
    `UPDATE ids_contexts SET return_html = $2, return_code_hash = $3, return_expires_at = now() + make_interval(secs => $4)
      WHERE id = $1`,
    [contextId, html, codeHash, ttlSeconds],
  );
}

/** The stored return page, once: the code is cleared in the same statement. */
export async function takeReturnPage(c: Queryable, codeHash: string) {
  const { rows } = await c.query<{ return_html: string; hook_url: string | null }>(
    `UPDATE ids_contexts x SET return_code_hash = NULL
       FROM (SELECT id, return_html FROM ids_contexts WHERE return_code_hash = $1 AND return_expires_at > now() FOR UPDATE) old
      WHERE x.id = old.id RETURNING old.return_html, x.hook_url`,
    [codeHash],
  );
  return rows[0] ?? null;
}

/** All positions of a received cart in one statement (a cart may have hundreds). */
export async function insertItems(c: Queryable, contextId: string, items: NewIdsItem[]) {
  if (!items.length) return;
  await c.query(
    `INSERT INTO ids_cart_items (context_id, position_no, article_number, gtin, manufacturer_id, manufacturer_pid, short_name, quantity, unit,
       raw_text, reference, candidate_instance_ids, matched_product_instance_id, matched_supplier_bp_number, matched_article_number, matched_quantity)
     SELECT $1, r.position_no, r.article_number, r.gtin, r.manufacturer_id, r.manufacturer_pid, r.short_name, r.quantity, r.unit,
            r.raw_text, r.reference, ARRAY(SELECT jsonb_array_elements_text(r.candidate_instance_ids)), r.matched_product_instance_id,
            r.matched_supplier_bp_number, r.matched_article_number, r.matched_quantity
       FROM jsonb_to_recordset($2::jsonb) AS r(position_no int, article_number text, gtin text, manufacturer_id text, manufacturer_pid text,
            short_name text, quantity numeric, unit text, raw_text text, reference jsonb, candidate_instance_ids jsonb,
            matched_product_instance_id text, matched_supplier_bp_number text, matched_article_number text, matched_quantity numeric)`,
    [contextId, JSON.stringify(items)],
  );
}

export interface CandidateKey {
  articleNorm: string | null;
  gtin: string | null;
  manufacturer: string | null;
  manufacturerPidNorm: string | null;
}

/**
 * candidateOffers for many positions with three queries in all (one per matching rule); the rule
 * order per position is the same: article number, then GTIN, then manufacturer data.
 */
export async function candidateOffersMany(c: Queryable, keys: CandidateKey[]): Promise<string[][]> {
  const articles = [...new Set(keys.map((k) => k.articleNorm).filter((x): x is string => Boolean(x)))];
  const gtins = [...new Set(keys.map((k) => k.gtin).filter((x): x is string => Boolean(x)))];
  const byArticle = new Map<string, string[]>();
  const byGtin = new Map<string, string[]>();
  const push = (m: Map<string, string[]>, k: string, v: string) => m.set(k, [...(m.get(k) ?? []), v]);
  if (articles.length) {
    const { rows } = await c.query<{ k: string; id: string }>(
      `SELECT supplier_pid_norm AS k, product_instance_id AS id FROM product_offers
        WHERE supplier_pid_norm = ANY($1) ORDER BY supplier_bp_number`,
      [articles],
    );
    for (const r of rows) push(byArticle, r.k, r.id);
  }
  if (gtins.length) {
    const { rows } = await c.query<{ k: string; id: string }>(
      `SELECT pr.gtin AS k, o.product_instance_id AS id FROM products pr JOIN product_offers o ON o.product_no = pr.id
        WHERE pr.gtin = ANY($1) ORDER BY o.supplier_bp_number`,
      [gtins],
    );
    for (const r of rows) push(byGtin, r.k, r.id);
  }
  const result: string[][] = [];
  for (const k of keys) {
    const hit = (k.articleNorm && byArticle.get(k.articleNorm)) || (k.gtin && byGtin.get(k.gtin)) || null;
    // The manufacturer rule is rare (positions without article number or GTIN hits): one query each.
    result.push(
      hit ??
        (k.manufacturer && k.manufacturerPidNorm
          ? await candidateOffers(c, {
              articleNorm: null,
              gtin: null,
              manufacturer: k.manufacturer,
              manufacturerPidNorm: k.manufacturerPidNorm,
            })
          : []),
    );
  }
  return result;
}

/** Adds many lines to a cart in one statement (existing lines of the same offer grow). */
export async function addManyToCart(
  c: Queryable,
  cartId: number,
  lines: { instanceId: string; supplier: string; articleNumber: string; quantity: number }[],
): Promise<Map<string, number>> {
  if (!lines.length) return new Map();
  const { rows } = await c.query<{ id: number; product_instance_id: string }>(
    `INSERT INTO cart_items (cart_id, product_instance_id, supplier_bp_number, article_number, quantity)
     SELECT $1, r.instance_id, r.supplier, r.article_number, sum(r.quantity)
       FROM jsonb_to_recordset($2::jsonb) AS r(instance_id text, supplier text, article_number text, quantity numeric)
      GROUP BY r.instance_id, r.supplier, r.article_number
     ON CONFLICT (cart_id, product_instance_id) DO UPDATE SET quantity = cart_items.quantity + EXCLUDED.quantity, updated_at = now()
     RETURNING id, product_instance_id`,
    [
      cartId,
      JSON.stringify(
        lines.map((l) => ({
          instance_id: l.instanceId,
          supplier: l.supplier,
          article_number: l.articleNumber,
          quantity: l.quantity,
        })),
      ),
    ],
  );
  await c.query('UPDATE carts SET updated_at = now() WHERE id = $1', [cartId]);
  return new Map(rows.map((r) => [r.product_instance_id, Number(r.id)]));
}

/** Links IDS positions to the cart lines they became. */
export async function setItemsMoved(c: Queryable, links: { itemId: number; cartItemId: number }[]) {
  if (!links.length) return;
  await c.query(
    `UPDATE ids_cart_items i SET moved_cart_item_id = r.cart_item_id
       FROM jsonb_to_recordset($1::jsonb) AS r(item_id bigint, cart_item_id bigint) WHERE i.id = r.item_id`,
    [JSON.stringify(links.map((l) => ({ item_id: l.itemId, cart_item_id: l.cartItemId })))],
  );
}

/** The context's user, partner and action with the user's name and e-mail (the context exists). */
export async function findContextUser(db: Queryable, contextId: string) {
  const { rows } = await db.query<{
    user_id: string;
    bp_number: string;
    action: string;
    email: string;
    first_name: string;
    last_name: string;
  }>(
    `SELECT x.user_id, x.bp_number, x.action, u.email, u.first_name, u.last_name
       FROM ids_contexts x JOIN users u ON u.id = x.user_id WHERE x.id = $1`,
    [contextId],
  );
  return rows[0];
}
