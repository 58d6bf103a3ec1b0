-- Catalogue imports (issue 26): a full catalogue that would withdraw an implausible share of the assortment waits for
-- approval; an applied import can be undone; warnings (fields left out, cut or defaulted) are kept apart from
-- rejections (products not imported).

ALTER TABLE catalogue_imports DROP CONSTRAINT IF EXISTS catalogue_imports_status_check;
ALTER TABLE catalogue_imports ADD CONSTRAINT catalogue_imports_status_check
  CHECK (status IN ('Pending', 'InProgress', 'AwaitingApproval', 'Completed', 'Failed', 'Discarded', 'RolledBack'));

ALTER TABLE catalogue_imports
  ADD COLUMN warning_count integer NOT NULL DEFAULT 0,
  -- the plausibility check of a full catalogue: assortment before, offers it would withdraw, limits, reasons
  ADD COLUMN preview jsonb,
  ADD COLUMN approved_by uuid REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN approved_at timestamptz,
  -- who discarded a waiting import or undid an applied one, and when
  ADD COLUMN reverted_by uuid REFERENCES users(id) ON DELETE SET NULL,
  ADD COLUMN reverted_at timestamptz,
  -- the supplier had no offers when the import began: every offer of the supplier it wrote is its own
  ADD COLUMN first_catalogue boolean NOT NULL DEFAULT false;

-- Warnings of an import: a product imported without a value (invalid GTIN, unknown unit, over-long text cut ...).
CREATE TABLE catalogue_import_warnings (
  import_id  bigint NOT NULL REFERENCES catalogue_imports(id) ON DELETE CASCADE,
  position   integer NOT NULL,
  seq        smallint NOT NULL,
  product_id text,
  reason     text NOT NULL,
  PRIMARY KEY (import_id, position, seq)
);

-- The offers a full catalogue waiting for approval would withdraw (logged: a crash must not turn the list into
-- "everything").
CREATE TABLE catalogue_import_pending_withdrawals (
  import_id    bigint NOT NULL REFERENCES catalogue_imports(id) ON DELETE CASCADE,
  supplier_pid text COLLATE "C" NOT NULL,
  PRIMARY KEY (import_id, supplier_pid)
);

-- What an import changed, as it was before (undo): offers it updated (offer NULL: created by the import) with their
-- future price blocks, and products it updated or whose offers it withdrew, with their search rows.
CREATE TABLE catalogue_import_undo_offers (
  import_id           bigint NOT NULL REFERENCES catalogue_imports(id) ON DELETE CASCADE,
  product_instance_id text NOT NULL,
  offer               jsonb,
  future_prices       jsonb,
  PRIMARY KEY (import_id, product_instance_id)
);
CREATE TABLE catalogue_import_undo_products (
  import_id bigint NOT NULL REFERENCES catalogue_imports(id) ON DELETE CASCADE,
  id        integer NOT NULL,
  product   jsonb NOT NULL,
  search    jsonb,
  PRIMARY KEY (import_id, id)
);

-- The supplier's limits for a full catalogue (staff can change them); no row: the defaults.
CREATE TABLE catalogue_import_settings (
  supplier_bp_number   text PRIMARY KEY REFERENCES business_partners(bp_number) ON DELETE CASCADE,
  max_withdraw_percent numeric(5,2) NOT NULL CHECK (max_withdraw_percent BETWEEN 0 AND 100),
  max_reject_percent   numeric(5,2) NOT NULL CHECK (max_reject_percent BETWEEN 0 AND 100),
  updated_by           uuid REFERENCES users(id) ON DELETE SET NULL,
  updated_at           timestamptz NOT NULL DEFAULT now()
);
