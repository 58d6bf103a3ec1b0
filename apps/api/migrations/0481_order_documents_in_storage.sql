-- Order documents go through the file storage (STORAGE_BACKEND): a new document names its file by `storage_key`
-- and keeps no bytes in the row; documents uploaded before keep theirs in `content` and are served from there.
ALTER TABLE supplier_order_documents ADD COLUMN storage_key text;
ALTER TABLE supplier_order_documents ALTER COLUMN content DROP NOT NULL;
ALTER TABLE supplier_order_documents
  ADD CONSTRAINT supplier_order_documents_bytes_somewhere CHECK (content IS NOT NULL OR storage_key IS NOT NULL);
