-- State that every API node of one installation must share (docs/architecture.md, "Several nodes"):
-- cluster_secrets holds what used to be generated per DATA_DIR when not configured: the embedded identity
-- provider's signing keys and cookie secrets (with key ids, rotated), the workflow secret key and the platform's
-- AS2 identity. A row is written once by whichever node starts first (INSERT … ON CONFLICT DO NOTHING, then read
-- back), so two nodes starting at the same moment agree on one value.
CREATE TABLE cluster_secrets (
  name       text PRIMARY KEY,
  value      jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Counters of @fastify/rate-limit (http/rate-limits.ts): one row per limiter and key, counted by every node.
-- Unlogged: a crash of the server may reset the counts, which only forgives a few requests.
CREATE UNLOGGED TABLE rate_limit_hits (
  key         text PRIMARY KEY,
  hits        integer NOT NULL,
  window_ends timestamptz NOT NULL
);
CREATE INDEX rate_limit_hits_window_ends_idx ON rate_limit_hits (window_ends);
