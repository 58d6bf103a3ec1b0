-- Failed sign-ins (docs/security.md, "Login throttling"): counted per account and client address, and per client
-- address, in PostgreSQL so that every API process sees the same counts. Only failures are written; a success
-- deletes its pair's row. blocked_until is the progressive delay the next attempt of that key has to wait for.
CREATE TABLE sign_in_failures (
  key            text PRIMARY KEY,
  failures       integer NOT NULL,
  last_failed_at timestamptz NOT NULL,
  blocked_until  timestamptz
);
CREATE INDEX sign_in_failures_last_failed_idx ON sign_in_failures (last_failed_at);
