-- AS2 with the partner's certificate: encryption to it, signed MDNs verified against it, asynchronous
-- MDNs and certificate expiry warnings. See docs/transmission.md "AS2".

-- Per AS2 workflow: the partner's X.509 certificate (PEM; public data, not a secret), how messages are
-- encrypted to it and whether the partner returns the MDN on the same connection or later to our URL.
ALTER TABLE workflows
  ADD COLUMN IF NOT EXISTS as2_partner_certificate text,
  ADD COLUMN IF NOT EXISTS as2_encryption text NOT NULL DEFAULT 'aes256'
    CHECK (as2_encryption IN ('none', 'aes128', 'aes256')),
  ADD COLUMN IF NOT EXISTS as2_mdn_mode text NOT NULL DEFAULT 'sync' CHECK (as2_mdn_mode IN ('sync', 'async'));

-- Messages sent with an asynchronous MDN request: the MDN arrives on /inbound/as2/mdn, is matched by the
-- Message-ID, verified against the workflow's partner certificate and recorded once.
CREATE TABLE as2_messages (
  message_id        text PRIMARY KEY,
  supplier_order_id bigint NOT NULL REFERENCES supplier_orders(id) ON DELETE CASCADE,
  workflow_id       integer REFERENCES workflows(id) ON DELETE SET NULL,
  mic               text NOT NULL,
  state             text NOT NULL DEFAULT 'awaiting' CHECK (state IN ('awaiting', 'processed', 'failed')),
  error             text,
  sent_at           timestamptz NOT NULL DEFAULT now(),
  mdn_received_at   timestamptz
);
CREATE INDEX as2_messages_order_idx ON as2_messages (supplier_order_id);

-- One warning mail per certificate (SHA-256 fingerprint) and threshold (days before expiry).
CREATE TABLE certificate_expiry_notices (
  fingerprint    text NOT NULL,
  threshold_days integer NOT NULL,
  notified_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (fingerprint, threshold_days)
);
