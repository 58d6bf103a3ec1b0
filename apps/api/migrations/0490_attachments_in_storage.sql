-- Cart item and order line attachments go through the file storage (STORAGE_BACKEND): a new attachment names its
-- file by `storage_key` and keeps no bytes in the row; attachments from before keep theirs in `content`.
-- At checkout an order line attachment takes the cart item attachment's key: stored files are never changed, and
-- a file is removed only by the sweep once no row of either table names it any more.
ALTER TABLE cart_item_attachments ADD COLUMN storage_key text;
ALTER TABLE cart_item_attachments ALTER COLUMN content DROP NOT NULL;
ALTER TABLE cart_item_attachments
  ADD CONSTRAINT cart_item_attachments_bytes_somewhere CHECK (content IS NOT NULL OR storage_key IS NOT NULL);
CREATE INDEX cart_item_attachments_storage_key_idx ON cart_item_attachments (storage_key) WHERE storage_key IS NOT NULL;

ALTER TABLE order_line_attachments ADD COLUMN storage_key text;
ALTER TABLE order_line_attachments ALTER COLUMN content DROP NOT NULL;
ALTER TABLE order_line_attachments
  ADD CONSTRAINT order_line_attachments_bytes_somewhere CHECK (content IS NOT NULL OR storage_key IS NOT NULL);
CREATE INDEX order_line_attachments_storage_key_idx ON order_line_attachments (storage_key) WHERE storage_key IS NOT NULL;
