-- Supplier-customer relations: one per buyer partner and supplier, with an audit trail of status changes.
CREATE TABLE supplier_customers (
  id                       bigserial PRIMARY KEY,
  supplier_bp_number       text NOT NULL REFERENCES business_partners(bp_number),
  buyer_bp_number          text NOT NULL REFERENCES business_partners(bp_number),
  -- 1 Approved, 2 AwaitingConfirmation, 3 Rejected, 4 CustomerIdRequested, 6 Blocked, 7 Invalid
  relation_status_id       smallint NOT NULL CHECK (relation_status_id IN (1, 2, 3, 4, 6, 7)),
  supplier_customer_number text CHECK (char_length(supplier_customer_number) <= 100),
  shared_customer_id       text,
  comments                 text,
  is_active                boolean NOT NULL DEFAULT true,
  -- contact data of a request without customer number (the supplier contacts the buyer)
  contact_name             text,
  contact_email            text,
  contact_phone            text,
  contact_message          text,
  created_at               timestamptz NOT NULL DEFAULT now(),
  updated_at               timestamptz NOT NULL DEFAULT now(),
  UNIQUE (buyer_bp_number, supplier_bp_number)
);
CREATE INDEX supplier_customers_supplier_idx ON supplier_customers (supplier_bp_number, relation_status_id);

CREATE TABLE supplier_customer_status_changes (
  id                 bigserial PRIMARY KEY,
  supplier_customer_id bigint NOT NULL REFERENCES supplier_customers(id) ON DELETE CASCADE,
  changed_by         uuid REFERENCES users(id),
  old_status_id      smallint,
  new_status_id      smallint NOT NULL,
  comments           text,
  changed_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX supplier_customer_status_changes_rel_idx ON supplier_customer_status_changes (supplier_customer_id, changed_at);
