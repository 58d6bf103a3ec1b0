-- Catalogue imports that survive a crash, keep the disk bounded and fetch media by URL
-- (docs/catalogue-import.md, "Crash, lease and resume", "Disk", "Media by URL").

-- Lease of the process running an import: renewed while it runs (heartbeat); an import whose lease ran out
-- belonged to a process that died and is queued again by the import sweeper (instead of waiting for
-- pg-boss's expiry of the dead process's job).
ALTER TABLE catalogue_imports
  ADD COLUMN lease_owner text,
  ADD COLUMN lease_until timestamptz,
  -- Resume point: the articles (by their order in the file's event stream) whose batches are committed
  -- completely (offers, search vectors staged, rejections saved), and the counts up to there.
  ADD COLUMN resume_articles integer NOT NULL DEFAULT 0,
  ADD COLUMN resume_counts jsonb,
  -- A full catalogue's decision at its first attempt: it records seen article numbers and withdraws
  -- (the supplier had offers). A resumed attempt keeps it (the supplier has offers by then either way).
  ADD COLUMN withdraws boolean,
  -- Start time of the database server at the attempt: the UNLOGGED stages (seen article numbers, staged
  -- search vectors) are emptied by a database crash, so after one the import starts again from its file.
  ADD COLUMN attempt_db_start timestamptz;
CREATE INDEX catalogue_imports_unfinished_idx ON catalogue_imports (id) WHERE status IN ('Pending', 'InProgress');

-- Media a catalogue names by URL: fetched by the media fetcher (never redirected to). One row per supplier
-- and URL, written in the transaction of the batch that names it (the outbox); the products that show it
-- are listed apart (their product id and where the import found them, for the warning).
CREATE TABLE catalogue_media_downloads (
  id                 bigserial PRIMARY KEY,
  supplier_bp_number text NOT NULL REFERENCES business_partners(bp_number),
  url                text NOT NULL,
  -- 'pending' (to fetch), 'stored' (sha256 names the file), 'failed' (error says why, in German)
  state              text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'stored', 'failed')),
  attempts           integer NOT NULL DEFAULT 0,
  lease_until        timestamptz,
  next_attempt_at    timestamptz NOT NULL DEFAULT now(),
  sha256             text,
  error              text,
  -- the import that queued it last (its warnings receive a failure)
  import_id          bigint REFERENCES catalogue_imports(id) ON DELETE SET NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  finished_at        timestamptz,
  UNIQUE (supplier_bp_number, url)
);
CREATE INDEX catalogue_media_downloads_due_idx ON catalogue_media_downloads (next_attempt_at) WHERE state = 'pending';

CREATE TABLE catalogue_media_download_products (
  download_id bigint NOT NULL REFERENCES catalogue_media_downloads(id) ON DELETE CASCADE,
  product_id  text NOT NULL,
  import_id   bigint,
  position    integer,
  supplier_pid text,
  PRIMARY KEY (download_id, product_id)
);
