-- Files of the PostgreSQL storage backend (STORAGE_BACKEND=postgres): one row per file under its key (a relative
-- path such as 'reports/12-….xlsx'), its bytes in chunks of at most 512 KB, written and read one chunk at a time so a
-- file is never held whole in memory. A file is written in one transaction: readers see it complete or not at all.
CREATE TABLE stored_files (
  id         bigserial PRIMARY KEY,
  key        text NOT NULL UNIQUE,
  size_bytes bigint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE stored_file_chunks (
  file_id bigint NOT NULL REFERENCES stored_files(id) ON DELETE CASCADE,
  seq     integer NOT NULL,
  data    bytea NOT NULL,
  PRIMARY KEY (file_id, seq)
);
-- Chunks are already compressed media, zips, PDFs or spreadsheets: no second compression attempt per chunk.
ALTER TABLE stored_file_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
