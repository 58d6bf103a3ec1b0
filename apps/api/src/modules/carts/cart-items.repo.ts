import type { Queryable } from '../../db/queryable.ts';

export interface NewCartItem {
  productInstanceId: string;
  supplierBpNumber: string;
  articleNumber: string;
  quantity: number;
  comment: string | null;
}

/** Item changes; an undefined field is left as it is, null clears it. */
export interface CartItemChanges {
  quantity: number;
  projectId?: number | null;
  deliveryDate?: string | null;
  deliveryAddressId?: number | null;
  comment?: string | null;
}

export interface AttachmentFile {
  name: string;
  contentType: string;
  size: number;
  storageKey: string;
}

/**
 * Locks the cart (a checkout of it waits, and waits for it) and reads its line of the offer, if any: one round trip
 * instead of two.
 */
export async function lockCartAndItemOfOffer(c: Queryable, cartId: number, productInstanceId: string) {
  const { rows } = await c.query<{ id: number | null; quantity: number | null }>(
    `SELECT i.id, i.quantity FROM carts c
       LEFT JOIN cart_items i ON i.cart_id = c.id AND i.product_instance_id = $2
      WHERE c.id = $1 FOR UPDATE OF c`,
    [cartId, productInstanceId],
  );
  return rows[0]?.id != null ? { id: Number(rows[0].id), quantity: Number(rows[0].quantity) } : null;
}

/** A new quantity; a given comment replaces the old one. */
export async function setItemQuantity(c: Queryable, itemId: number, quantity: number, comment: string | null) {
  await c.query(
    'UPDATE cart_items SET quantity = $2, comment = COALESCE($3, comment), updated_at = now() WHERE id = $1',
    [itemId, quantity, comment],
  );
}

export async function insertItem(c: Queryable, cartId: number, item: NewCartItem): Promise<number> {
  // The line and the cart's updated_at in one statement.
  const { rows } = await c.query<{ id: number }>(
    `WITH touched AS (UPDATE carts SET updated_at = now() WHERE id = $1)
     INSERT INTO cart_items (cart_id, product_instance_id, supplier_bp_number, article_number, quantity, comment)
     VALUES ($1,$2,$3,$4,$5,$6) RETURNING id`,
    [cartId, item.productInstanceId, item.supplierBpNumber, item.articleNumber, item.quantity, item.comment],
  );
  return Number(rows[0].id);
}

export async function updateItem(c: Queryable, itemId: number, changes: CartItemChanges) {
  await c.query(
    `UPDATE cart_items SET quantity = $2,
            project_id = CASE WHEN $3::boolean THEN $4 ELSE project_id END,
            delivery_date = CASE WHEN $5::boolean THEN $6::date ELSE delivery_date END,
            delivery_address_id = CASE WHEN $7::boolean THEN $8 ELSE delivery_address_id END,
            comment = CASE WHEN $9::boolean THEN $10 ELSE comment END,
            updated_at = now()
      WHERE id = $1`,
    [
      itemId,
      changes.quantity,
      changes.projectId !== undefined,
      changes.projectId ?? null,
      changes.deliveryDate !== undefined,
      changes.deliveryDate ?? null,
      changes.deliveryAddressId !== undefined,
      changes.deliveryAddressId ?? null,
      changes.comment !== undefined,
      changes.comment ?? null,
    ],
  );
}

export async function deleteItems(c: Queryable, cartId: number, itemIds: number[]) {
  await c.query('DELETE FROM cart_items WHERE cart_id = $1 AND id = ANY($2)', [cartId, itemIds]);
}

export async function lockItem(c: Queryable, itemId: number) {
  await c.query('SELECT id FROM cart_items WHERE id = $1 FOR UPDATE', [itemId]);
}

export async function attachmentCount(c: Queryable, itemId: number): Promise<number> {
  const { rows } = await c.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM cart_item_attachments WHERE cart_item_id = $1',
    [itemId],
  );
  return rows[0].n;
}

export async function deleteAttachmentsOf(c: Queryable, itemId: number) {
  await c.query('DELETE FROM cart_item_attachments WHERE cart_item_id = $1', [itemId]);
}

export async function insertAttachment(c: Queryable, itemId: number, file: AttachmentFile) {
  await c.query(
    'INSERT INTO cart_item_attachments (cart_item_id, file_name, content_type, size_bytes, storage_key) VALUES ($1,$2,$3,$4,$5)',
    [itemId, file.name, file.contentType, file.size, file.storageKey],
  );
}

/**
 * An attachment of an item in a cart of the partner, or null: its storage key, or (uploaded before the file storage)
 * its bytes.
 */
export async function attachmentOfPartner(c: Queryable, bpNumber: string, itemId: number, id: number) {
  const { rows } = await c.query<{
    file_name: string;
    content_type: string;
    content: Buffer | null;
    storage_key: string | null;
  }>(
    `SELECT a.file_name, a.content_type, a.content, a.storage_key
       FROM cart_item_attachments a JOIN cart_items i ON i.id = a.cart_item_id JOIN carts c ON c.id = i.cart_id
      WHERE a.id = $1 AND a.cart_item_id = $2 AND c.bp_number = $3`,
    [id, itemId, bpNumber],
  );
  const r = rows[0];
  return r
    ? { fileName: r.file_name, contentType: r.content_type, content: r.content, storageKey: r.storage_key }
    : null;
}

/**
 * Of the stored attachment files `keys`, those no cart item or order line attachment names. Call inside a
 * transaction: it first takes a SHARE lock on order_line_attachments, so a checkout that is copying a cart item's
 * key has committed (its line is seen here) and one that has not started its copy yet reads the cart item rows only
 * after this transaction, when a removed attachment's row is gone for it too.
 */
export async function unreferencedAttachmentKeys(c: Queryable, keys: string[]): Promise<string[]> {
  await c.query('LOCK TABLE order_line_attachments IN SHARE MODE');
  const { rows } = await c.query<{ key: string }>(
    `SELECT k.key FROM unnest($1::text[]) AS k(key)
      WHERE NOT EXISTS (SELECT 1 FROM cart_item_attachments WHERE storage_key = k.key)
        AND NOT EXISTS (SELECT 1 FROM order_line_attachments WHERE storage_key = k.key)`,
    [keys],
  );
  return rows.map((r) => r.key);
}

/** Deletes an attachment of an item in a cart of the partner; false when there is none. */
export async function deleteAttachmentOfPartner(c: Queryable, bpNumber: string, itemId: number, id: number) {
  const { rowCount } = await c.query(
    `DELETE FROM cart_item_attachments a USING cart_items i, carts c
      WHERE a.id = $1 AND a.cart_item_id = $2 AND i.id = a.cart_item_id AND c.id = i.cart_id AND c.bp_number = $3`,
    [id, itemId, bpNumber],
  );
  return Boolean(rowCount);
}
