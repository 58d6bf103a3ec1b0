-- Lifecycle timestamps of a supplier order that several modules read (transmission writes sent_at,
-- confirmation writes confirmed_at, the dashboard's SLA and the reports read both). Created here once
-- so that the modules built on them agree on names.
ALTER TABLE supplier_orders
  ADD COLUMN IF NOT EXISTS sent_at timestamptz,
  ADD COLUMN IF NOT EXISTS confirmed_at timestamptz,
  ADD COLUMN IF NOT EXISTS status_changed_at timestamptz NOT NULL DEFAULT now(),
  -- InCommunicationTest suppliers receive orders marked as tests.
  ADD COLUMN IF NOT EXISTS is_test boolean NOT NULL DEFAULT false;

CREATE INDEX IF NOT EXISTS supplier_orders_status_idx ON supplier_orders (status_id, placed_at);
