-- Supplier management (issue 10): audit trail of supplier changes, list indexes, logo variants.

-- Every change of a supplier's settings, logo or template: who, when, field, old -> new.
CREATE TABLE supplier_changes (
  id          bigserial PRIMARY KEY,
  bp_number   text NOT NULL REFERENCES suppliers(bp_number) ON DELETE CASCADE,
  user_id     uuid REFERENCES users(id) ON DELETE SET NULL,
  changed_by  text NOT NULL,
  changed_at  timestamptz NOT NULL DEFAULT now(),
  field       text NOT NULL,
  old_value   text,
  new_value   text
);
CREATE INDEX supplier_changes_bp_idx ON supplier_changes (bp_number, changed_at DESC, id DESC);

-- The staff list sorts by name and filters by name substring over thousands of suppliers.
-- Sort key: umlauts as their base letters (DIN 5007-1), independent of the server's collation.
CREATE INDEX IF NOT EXISTS business_partners_name_sort_idx
  ON business_partners (lower(translate(name, 'ÄÖÜäöüß', 'AOUaous')), bp_number);
CREATE INDEX IF NOT EXISTS business_partners_name_trgm_idx ON business_partners USING gin (lower(name) gin_trgm_ops);
CREATE INDEX IF NOT EXISTS suppliers_status_idx ON suppliers (supplier_status_id, bp_number);

-- A version per logo so resized copies can be cached by URL (immutable) and dropped on change.
ALTER TABLE suppliers ADD COLUMN logo_version integer NOT NULL DEFAULT 0;
