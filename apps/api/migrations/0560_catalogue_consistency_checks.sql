-- The catalogue consistency check at start (catalogue-import/consistency.ts) read every supplier's offers and search
-- rows on every API process start: at 1,000,000 products 9 suppliers × 1.4 s of Postgres per node and start, right
-- when the restarted node begins to answer searches. A supplier's clean check is now recorded with the catalogue
-- version it saw; a start skips the suppliers checked at the current version within the last 24 hours (every
-- catalogue write raises the version, so any change since is checked again, on one node).
CREATE TABLE catalogue_consistency_checks (
  bp_number         text PRIMARY KEY,
  catalogue_version bigint NOT NULL,
  checked_at        timestamptz NOT NULL DEFAULT now()
);
