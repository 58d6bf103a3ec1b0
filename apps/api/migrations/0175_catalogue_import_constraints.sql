-- Foreign keys a supplier's first large catalogue drops for its bulk writes (issue 15 performance;
-- docs/catalogue-import.md "Bulk mode"): each is recorded here in the transaction that drops it and
-- added again (NOT VALID, then VALIDATE: one set-based check instead of one lookup per written row)
-- when the import has written its rows. An import that crashes meanwhile leaves its rows here; the next
-- import adds and validates them before it writes anything.
CREATE TABLE catalogue_import_constraints (
  name       text PRIMARY KEY,
  table_name text NOT NULL,
  definition text NOT NULL
);
