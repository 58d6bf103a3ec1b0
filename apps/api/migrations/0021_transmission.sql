-- Outbound transmission of supplier orders (issue 9, part A): connection profiles (workflows), the
-- transactional outbox of transmissions and the log of every attempt. See docs/transmission.md.

-- A workflow is a connection profile an administrator manages; suppliers name one by workflow_id.
-- The secret (password or private key) is AES-256-GCM encrypted with WORKFLOW_SECRET_KEY.
CREATE TABLE workflows (
  id                        serial PRIMARY KEY,
  name                      text NOT NULL UNIQUE,
  communication_protocol_id smallint NOT NULL CHECK (communication_protocol_id BETWEEN 1 AND 6),
  host                      text,
  port                      integer CHECK (port BETWEEN 1 AND 65535),
  username                  text,
  secret_kind               text CHECK (secret_kind IN ('password', 'privateKey')),
  secret_encrypted          text,
  base_url                  text,
  timeout_ms                integer NOT NULL DEFAULT 15000 CHECK (timeout_ms BETWEEN 100 AND 300000),
  created_at                timestamptz NOT NULL DEFAULT now(),
  updated_at                timestamptz NOT NULL DEFAULT now()
);

-- One row per supplier order: written in the checkout transaction, claimed by the worker with a
-- lease (locked_until); an expired lease is a crashed or stuck attempt and is claimed again.
CREATE TABLE supplier_order_transmissions (
  supplier_order_id bigint PRIMARY KEY REFERENCES supplier_orders(id) ON DELETE CASCADE,
  state             text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'sent', 'failed')),
  attempts          integer NOT NULL DEFAULT 0,
  next_attempt_at   timestamptz NOT NULL DEFAULT now(),
  locked_until      timestamptz,
  last_error        text,
  idempotency_key   text NOT NULL UNIQUE,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  sent_at           timestamptz
);
CREATE INDEX supplier_order_transmissions_due_idx ON supplier_order_transmissions (next_attempt_at)
  WHERE state IN ('pending', 'sending');

CREATE TABLE supplier_order_transmission_attempts (
  id                bigserial PRIMARY KEY,
  supplier_order_id bigint NOT NULL REFERENCES supplier_orders(id) ON DELETE CASCADE,
  attempt_no        integer NOT NULL,
  protocol_id       smallint NOT NULL,
  data_format_ids   smallint[] NOT NULL DEFAULT '{}',
  started_at        timestamptz NOT NULL DEFAULT now(),
  finished_at       timestamptz,
  outcome           text NOT NULL DEFAULT 'running' CHECK (outcome IN ('running', 'sent', 'failed', 'abandoned')),
  error             text,
  remote_names      text[] NOT NULL DEFAULT '{}',
  message_id        text,
  UNIQUE (supplier_order_id, attempt_no)
);

-- Mails: a stable Message-ID per outbox row (receivers can drop a redelivery after a crash) and
-- when the row was last handed to the job queue (the sweeper requeues rows whose job was lost).
ALTER TABLE mail_outbox
  ADD COLUMN IF NOT EXISTS message_id text,
  ADD COLUMN IF NOT EXISTS dispatched_at timestamptz;
CREATE INDEX IF NOT EXISTS mail_outbox_pending_idx ON mail_outbox (created_at) WHERE status = 'pending';
