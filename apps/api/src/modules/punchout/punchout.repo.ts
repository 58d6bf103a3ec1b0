import type { Queryable } from '../../db/queryable.ts';

export interface CredentialRow {
  bp_number: string;
  user_id: string;
  oci_enabled: boolean;
  oci_username: string | null;
  oci_password_hash: string | null;
  cxml_enabled: boolean;
  cxml_domain: string | null;
  cxml_identity: string | null;
  cxml_secret_hash: string | null;
  oci_cust_fields: string[];
  oci_cust_field_values: string[];
}

/** The credentials of an OCI user name (the user must still belong to the partner). */
export async function findOciCredential(c: Queryable, username: string) {
  const { rows } = await c.query<CredentialRow>(
    `SELECT k.* FROM punchout_credentials k
       JOIN user_business_partners m ON m.user_id = k.user_id AND m.bp_number = k.bp_number
      WHERE lower(k.oci_username) = lower($1)`,
    [username],
  );
  return rows[0] ?? null;
}

/** The credentials of a cXML identity (From credential: domain + identity). */
export async function findCxmlCredential(c: Queryable, domain: string, identity: string) {
  const { rows } = await c.query<CredentialRow>(
    `SELECT k.* FROM punchout_credentials k
       JOIN user_business_partners m ON m.user_id = k.user_id AND m.bp_number = k.bp_number
      WHERE lower(k.cxml_domain) = lower($1) AND lower(k.cxml_identity) = lower($2)`,
    [domain, identity],
  );
  return rows[0] ?? null;
}

export async function credentialOf(c: Queryable, bpNumber: string, userId: string) {
  const { rows } = await c.query<CredentialRow>(
    'SELECT * FROM punchout_credentials WHERE bp_number = $1 AND user_id = $2',
    [bpNumber, userId],
  );
  return rows[0] ?? null;
}

/** Whether another buyer already uses the OCI user name or the cXML identity. */
export async function credentialTaken(
  c: Queryable,
  bpNumber: string,
  userId: string,
  v: { ociUsername: string | null; cxmlDomain: string | null; cxmlIdentity: string | null },
) {
  const { rows } = await c.query<{ oci: boolean; cxml: boolean }>(
    `SELECT bool_or(lower(oci_username) = lower($3)) AS oci,
            bool_or(lower(cxml_domain) = lower($4) AND lower(cxml_identity) = lower($5)) AS cxml
       FROM punchout_credentials WHERE NOT (bp_number = $1 AND user_id = $2)`,
    [bpNumber, userId, v.ociUsername, v.cxmlDomain, v.cxmlIdentity],
  );
  return { oci: Boolean(rows[0]?.oci), cxml: Boolean(rows[0]?.cxml) };
}

export async function saveCredential(
  c: Queryable,
  bpNumber: string,
  userId: string,
  v: {
    ociEnabled: boolean;
    ociUsername: string | null;
    ociPasswordHash: string | null;
    cxmlEnabled: boolean;
    cxmlDomain: string | null;
    cxmlIdentity: string | null;
    cxmlSecretHash: string | null;
    ociCustFields: string[] | null;
    ociCustFieldValues: string[] | null;
  },
) {
  await c.query(
    `INSERT INTO punchout_credentials (bp_number, user_id, oci_enabled, oci_username, oci_password_hash, cxml_enabled,
            cxml_domain, cxml_identity, cxml_secret_hash, oci_cust_fields, oci_cust_field_values)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,COALESCE($10::text[], '{}'),COALESCE($11::text[], '{}'))
     ON CONFLICT (bp_number, user_id) DO UPDATE SET oci_enabled = EXCLUDED.oci_enabled, oci_username = EXCLUDED.oci_username,
            oci_password_hash = COALESCE(EXCLUDED.oci_password_hash, punchout_credentials.oci_password_hash),
            cxml_enabled = EXCLUDED.cxml_enabled, cxml_domain = EXCLUDED.cxml_domain, cxml_identity = EXCLUDED.cxml_identity,
            cxml_secret_hash = COALESCE(EXCLUDED.cxml_secret_hash, punchout_credentials.cxml_secret_hash),
            oci_cust_fields = COALESCE($10::text[], punchout_credentials.oci_cust_fields),
            oci_cust_field_values = COALESCE($11::text[], punchout_credentials.oci_cust_field_values), updated_at = now()`,
    [
      bpNumber,
      userId,
      v.ociEnabled,
      v.ociUsername,
      v.ociPasswordHash,
      v.cxmlEnabled,
      v.cxmlDomain,
      v.cxmlIdentity,
      v.cxmlSecretHash,
      v.ociCustFields,
      v.ociCustFieldValues,
    ],
  );
}

export interface NewPunchoutSession {
  bpNumber: string;
  userId: string;
  protocol: 'oci' | 'cxml';
  version: string;
  hookUrl: string;
  target: string | null;
  searchTerm: string | null;
  productId: string | null;
  charset: 'UTF-8' | 'ISO-8859-1';
  ociFunction: string | null;
  okCode: string | null;
  caller: string | null;
  operation: string | null;
  buyerCookie: string | null;
  fromDomain: string | null;
  fromIdentity: string | null;
  toDomain: string | null;
  toIdentity: string | null;
}

/**
 * The session's IDS context (action = protocol: the IDS session scope applies to it) and its punchout data.
 * Call inside a transaction.
 */
export async function insertSession(c: Queryable, s: NewPunchoutSession): Promise<string> {
  const { rows } = await c.query<{ id: string }>(
    `INSERT INTO ids_contexts (bp_number, user_id, action, version, hook_url, target, search_term, gh_number)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8) RETURNING id`,
    [s.bpNumber, s.userId, s.protocol, s.version, s.hookUrl, s.target, s.searchTerm, s.productId],
  );
  const id = rows[0].id;
  await c.query(
    `INSERT INTO punchout_sessions (context_id, protocol, charset, oci_version, oci_function, ok_code, caller, operation,
            buyer_cookie, from_domain, from_identity, to_domain, to_identity)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13)`,
    [
      id,
      s.protocol,
      s.charset,
      s.protocol === 'oci' ? s.version : null,
      s.ociFunction,
      s.okCode,
      s.caller,
      s.operation,
      s.buyerCookie,
      s.fromDomain,
      s.fromIdentity,
      s.toDomain,
      s.toIdentity,
    ],
  );
  return id;
}

/** The IDS one-time code that opens the session in the SPA (exchanged by GET /v1/Ids). */
export async function insertCode(c: Queryable, codeHash: string, contextId: string, ttlSeconds: number) {
  await c.query(
    `INSERT INTO ids_codes (code_hash, context_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
    [codeHash, contextId, ttlSeconds],
  );
}

export async function setStartCode(c: Queryable, contextId: string, codeHash: string, ttlSeconds: number) {
  await c.query(
    `UPDATE punchout_sessions SET start_code_hash = $2, start_expires_at = now() + make_interval(secs => $3)
      WHERE context_id = $1`,
    [contextId, codeHash, ttlSeconds],
  );
}

/** The StartPage's session, once: the code is cleared in the same statement. */
export async function takeStartCode(c: Queryable, codeHash: string) {
  const { rows } = await c.query<{ context_id: string; operation: string | null }>(
    `UPDATE punchout_sessions SET start_code_hash = NULL
      WHERE start_code_hash = $1 AND start_expires_at > now() RETURNING context_id, operation`,
    [codeHash],
  );
  return rows[0] ?? null;
}

export interface SessionRow {
  context_id: string;
  bp_number: string;
  user_id: string;
  protocol: 'oci' | 'cxml';
  hook_url: string;
  target: string | null;
  charset: 'UTF-8' | 'ISO-8859-1';
  oci_version: string | null;
  ok_code: string | null;
  caller: string | null;
  operation: string | null;
  buyer_cookie: string | null;
  from_domain: string | null;
  from_identity: string | null;
  to_domain: string | null;
  to_identity: string | null;
  completed_at: Date | null;
  oci_cust_fields: string[] | null;
  oci_cust_field_values: string[] | null;
}

export async function findSession(c: Queryable, contextId: string, userId: string, lock = false) {
  const { rows } = await c.query<SessionRow>(
    `SELECT s.context_id::text, x.bp_number, x.user_id, s.protocol, x.hook_url, x.target, s.charset, s.oci_version, s.ok_code,
            s.caller, s.operation, s.buyer_cookie, s.from_domain, s.from_identity, s.to_domain, s.to_identity, x.completed_at,
            k.oci_cust_fields, k.oci_cust_field_values
       FROM punchout_sessions s JOIN ids_contexts x ON x.id = s.context_id
       LEFT JOIN punchout_credentials k ON k.bp_number = x.bp_number AND k.user_id = x.user_id
      WHERE s.context_id = $1::uuid AND x.user_id = $2 ${lock ? 'FOR UPDATE OF x' : ''}`,
    [contextId, userId],
  );
  return rows[0] ?? null;
}

/** The cart's lines with what OCI customer fields may carry: the line's project (else the cart's) and note. */
export async function cartLines(c: Queryable, cartId: number) {
  const { rows } = await c.query<{
    product_instance_id: string;
    quantity: string;
    project: string | null;
    comment: string | null;
  }>(
    `SELECT i.product_instance_id, i.quantity, COALESCE(ip.code, cp.code) AS project, i.comment
       FROM cart_items i JOIN carts c ON c.id = i.cart_id
       LEFT JOIN projects ip ON ip.id = i.project_id LEFT JOIN projects cp ON cp.id = c.project_id
      WHERE i.cart_id = $1 ORDER BY i.id`,
    [cartId],
  );
  return rows;
}

/** What the offer snapshot lacks for a punchout line: GTIN, ETIM class and lead time in days. */
export async function offerExtras(c: Queryable, instanceIds: string[]) {
  const { rows } = await c.query<{
    id: string;
    gtin: string | null;
    etim_class: string | null;
    lead_days: number | null;
  }>(
    `SELECT o.product_instance_id AS id, p.gtin, e.class_id AS etim_class,
            COALESCE(o.time_to_delivery_days, p.standard_delivery_period)::int AS lead_days
       FROM product_offers o JOIN products p ON p.id = o.product_no LEFT JOIN etim_classes e ON e.class_no = p.class_no
      WHERE o.product_instance_id = ANY($1)`,
    [instanceIds],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** Offer ids for an OCI PRODUCTID: our offer id, else the supplier's article number, else the GTIN. */
export async function offersForProductId(c: Queryable, productId: string, normalised: string) {
  const { rows } = await c.query<{ id: string }>(
    `SELECT product_instance_id AS id FROM product_offers WHERE product_instance_id = $1
     UNION ALL SELECT * FROM (SELECT product_instance_id FROM product_offers WHERE supplier_pid_norm = $2
                               ORDER BY supplier_bp_number LIMIT 20) a
     UNION ALL SELECT * FROM (SELECT o.product_instance_id FROM products p JOIN product_offers o ON o.product_no = p.id
                               WHERE p.gtin = $1 ORDER BY o.supplier_bp_number LIMIT 20) g`,
    [productId, normalised],
  );
  return [...new Set(rows.map((r) => r.id))];
}

/** Offers whose product name, article number or GTIN match a BACKGROUND_SEARCH string. */
export async function searchOffers(c: Queryable, term: string, normalised: string, limit: number) {
  const { rows } = await c.query<{ id: string }>(
    `SELECT o.product_instance_id AS id FROM product_offers o JOIN products p ON p.id = o.product_no
      WHERE p.product_name ILIKE '%' || $1 || '%' OR o.supplier_pid_norm = $2 OR p.manufacturer_pid_norm = $2 OR p.gtin = $1
      ORDER BY p.product_name, o.supplier_bp_number LIMIT $3`,
    [term.replace(/[\\%_]/g, (ch) => `\\${ch}`), normalised, limit],
  );
  return rows.map((r) => r.id);
}

/** cXML edit/inspect: the earlier lines go into the session's cart (their quantity wins over one already there). */
export async function putCartLines(
  c: Queryable,
  cartId: number,
  lines: { instanceId: string; supplier: string; articleNumber: string; quantity: number }[],
) {
  if (!lines.length) return;
  await c.query(
    `INSERT INTO cart_items (cart_id, product_instance_id, supplier_bp_number, article_number, quantity)
     SELECT $1, r.instance_id, r.supplier, r.article_number, sum(r.quantity)
       FROM jsonb_to_recordset($2::jsonb) AS r(instance_id text, supplier text, article_number text, quantity numeric)
      GROUP BY r.instance_id, r.supplier, r.article_number
     ON CONFLICT (cart_id, product_instance_id) DO UPDATE SET quantity = EXCLUDED.quantity, updated_at = now()`,
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
}

/**
 * The return: the session ends (its token is refused from now on, like an IDS session after complete), the form page
 * is kept under a one-time code for /ids/return/{code}, and the staff list learns how many lines went back.
 */
export async function completeSession(
  c: Queryable,
  contextId: string,
  r: { html: string; codeHash: string; ttlSeconds: number; lines: number },
) {
  await c.query(
    `UPDATE ids_contexts SET completed_at = now(), return_html = $2, return_code_hash = $3,
            return_expires_at = now() + make_interval(secs => $4) WHERE id = $1`,
    [contextId, r.html, r.codeHash, r.ttlSeconds],
  );
  await c.query('UPDATE punchout_sessions SET returned_at = now(), lines_returned = $2 WHERE context_id = $1', [
    contextId,
    r.lines,
  ]);
}

/** Staff list: the latest punchout sessions with buyer, partner and what went back. */
export async function listSessions(c: Queryable, limit: number) {
  const { rows } = await c.query<{
    context_id: string;
    protocol: 'oci' | 'cxml';
    operation: string | null;
    bp_number: string;
    partner_name: string | null;
    email: string;
    created_at: Date;
    returned_at: Date | null;
    lines_returned: number | null;
  }>(
    `SELECT s.context_id::text, s.protocol, s.operation, x.bp_number, b.name AS partner_name, u.email, s.created_at,
            s.returned_at, s.lines_returned
       FROM punchout_sessions s JOIN ids_contexts x ON x.id = s.context_id JOIN users u ON u.id = x.user_id
       LEFT JOIN business_partners b ON b.bp_number = x.bp_number
      ORDER BY s.created_at DESC LIMIT $1`,
    [limit],
  );
  return rows;
}
