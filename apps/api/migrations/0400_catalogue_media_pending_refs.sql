-- The products an import wrote that name media by URL, noted per batch (a plain append) and moved into the media
-- download queue once the import has ended: the queue's upserts, sorts and index writes stay out of the import's
-- batches, and the fetcher starts on an import's media only after it has ended anyway.
CREATE TABLE catalogue_media_pending_refs (
  import_id  bigint NOT NULL,
  product_id text NOT NULL,
  pos        integer NOT NULL
);
CREATE INDEX catalogue_media_pending_refs_import ON catalogue_media_pending_refs (import_id);
