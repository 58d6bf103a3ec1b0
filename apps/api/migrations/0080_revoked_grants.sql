-- Grants ended by logout or revocation (issue 14). The embedded provider's access tokens are JWTs
-- that are not stored; each names its grant (claim "gid"), and the API refuses tokens of a grant
-- listed here. Rows are useless once every token of the grant has expired.
CREATE TABLE revoked_grants (
  grant_id   text PRIMARY KEY,
  revoked_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX revoked_grants_expires_idx ON revoked_grants (expires_at);
