-- Punchout for procurement systems (docs/punchout.md): OCI and cXML credentials per buyer and partner, and the
-- protocol data of a punchout session. A punchout session is an IDS context (ids_contexts, action 'oci' or
-- 'cxml'), so it gets the IDS session's narrow scope (partner fixed, one cart, no checkout, no other changes,
-- bounded lifetime, revocation) from the same mechanism.

CREATE TABLE punchout_credentials (
  bp_number         text NOT NULL REFERENCES business_partners(bp_number) ON DELETE CASCADE,
  user_id           uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  oci_enabled       boolean NOT NULL DEFAULT false,
  oci_username      text CHECK (char_length(oci_username) BETWEEN 1 AND 100),
  oci_password_hash text,
  cxml_enabled      boolean NOT NULL DEFAULT false,
  cxml_domain       text CHECK (char_length(cxml_domain) BETWEEN 1 AND 50),
  cxml_identity     text CHECK (char_length(cxml_identity) BETWEEN 1 AND 100),
  cxml_secret_hash  text,
  updated_at        timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (bp_number, user_id)
);
-- OCI sends no customer number: the user name alone names the buyer and partner.
CREATE UNIQUE INDEX punchout_credentials_oci_key ON punchout_credentials (lower(oci_username))
  WHERE oci_username IS NOT NULL;
CREATE UNIQUE INDEX punchout_credentials_cxml_key ON punchout_credentials (lower(cxml_domain), lower(cxml_identity))
  WHERE cxml_identity IS NOT NULL;

CREATE TABLE punchout_sessions (
  context_id        uuid PRIMARY KEY REFERENCES ids_contexts(id) ON DELETE CASCADE,
  protocol          text NOT NULL CHECK (protocol IN ('oci', 'cxml')),
  -- OCI: the caller's fields; the return form uses this character set (UTF-8 or ISO-8859-1)
  charset           text NOT NULL DEFAULT 'UTF-8' CHECK (charset IN ('UTF-8', 'ISO-8859-1')),
  oci_version       text,
  oci_function      text,
  ok_code           text,
  caller            text,
  -- cXML: operation, the buyer's cookie and identities as sent (echoed in the PunchOutOrderMessage)
  operation         text CHECK (operation IN ('create', 'edit', 'inspect')),
  buyer_cookie      text,
  from_domain       text,
  from_identity     text,
  to_domain         text,
  to_identity       text,
  -- the one-time StartPage (hash only)
  start_code_hash   text UNIQUE,
  start_expires_at  timestamptz,
  lines_returned    integer,
  returned_at       timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX punchout_sessions_created_idx ON punchout_sessions (created_at DESC);

-- OCI 5.0 customer fields: which offer value goes into NEW_ITEM-CUST_FIELD1…5 (position = field number; null or
-- '' leaves the field out). Values: see docs/punchout.md ("OCI 5.0 customer fields").
ALTER TABLE punchout_credentials ADD COLUMN oci_cust_fields text[] NOT NULL DEFAULT '{}'
  CHECK (cardinality(oci_cust_fields) <= 5);
