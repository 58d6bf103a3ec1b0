-- Each punchout session fills its own cart (docs/punchout.md, "The session's cart"): created with the session,
-- used only by it, never the partner's default cart and never in the buyer's normal cart list. It goes when the
-- session's context goes.
-- A cXML inspect session's cart is read-only: the API refuses every change to it.
ALTER TABLE carts
  ADD COLUMN punchout_context_id uuid UNIQUE REFERENCES ids_contexts(id) ON DELETE CASCADE,
  ADD COLUMN read_only boolean NOT NULL DEFAULT false;

-- OCI 5.0 customer fields: the fixed text of a CUST_FIELDn whose source is 'fixed' (position = field number,
-- parallel to oci_cust_fields).
ALTER TABLE punchout_credentials ADD COLUMN oci_cust_field_values text[] NOT NULL DEFAULT '{}'
  CHECK (cardinality(oci_cust_field_values) <= 5);
