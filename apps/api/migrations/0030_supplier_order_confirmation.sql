-- Supplier order confirmation (issue 9 part B): what the supplier confirmed per line, lines the
-- supplier added, documents the seller attaches, and inbound ORDRSP files kept for staff.

-- Confirmed values sit next to the ordered ones so the ordered values are never overwritten.
-- kind: confirmed | changed | replaced | removed | added (NULL until a confirmation arrives).
ALTER TABLE order_lines
  ADD COLUMN IF NOT EXISTS confirmation_kind text
    CHECK (confirmation_kind IN ('confirmed', 'changed', 'replaced', 'removed', 'added')),
  ADD COLUMN IF NOT EXISTS confirmed_quantity numeric(14,3),
  ADD COLUMN IF NOT EXISTS confirmed_unit_price numeric(14,4),
  ADD COLUMN IF NOT EXISTS confirmed_delivery_date date,
  ADD COLUMN IF NOT EXISTS confirmed_article_number text,
  ADD COLUMN IF NOT EXISTS confirmed_name text;

CREATE TABLE supplier_order_documents (
  id                bigserial PRIMARY KEY,
  supplier_order_id bigint NOT NULL REFERENCES supplier_orders(id) ON DELETE CASCADE,
  file_name         text NOT NULL,
  content_type      text NOT NULL,
  size_bytes        integer NOT NULL,
  content           bytea NOT NULL,
  uploaded_by       uuid REFERENCES users(id),
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX supplier_order_documents_order_idx ON supplier_order_documents (supplier_order_id);

-- Credentials of a supplier's inbound ORDRSP endpoint (Basic auth); only the scrypt hash is stored.
CREATE TABLE supplier_inbound_credentials (
  supplier_bp_number text PRIMARY KEY REFERENCES business_partners(bp_number),
  username           text NOT NULL UNIQUE,
  secret_hash        text NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT now()
);

-- Every inbound order response, applied or rejected; rejected ones stay here with the reason for staff.
CREATE TABLE inbound_order_responses (
  id                    bigserial PRIMARY KEY,
  supplier_bp_number    text,
  source                text NOT NULL,
  file_name             text,
  content               bytea NOT NULL,
  supplier_order_number text,
  outcome               text NOT NULL CHECK (outcome IN ('applied', 'rejected')),
  reason                text,
  received_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX inbound_order_responses_outcome_idx ON inbound_order_responses (outcome, received_at DESC);
