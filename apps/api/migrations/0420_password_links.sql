-- One-time set-password links (docs/security.md, "Passwords"): "Passwort vergessen?" (purpose 'reset', 30 minutes)
-- and staff invitations (purpose 'invitation', 7 days). Only the SHA-256 of the random token is stored, so a copy of
-- the database opens no account. used_at is set when the link is used and, for every open link of the user, when the
-- password changes by any way: older links stop working.
CREATE TABLE password_links (
  token_hash bytea PRIMARY KEY,
  user_id    uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose    text NOT NULL CHECK (purpose IN ('reset', 'invitation')),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  -- the staff member who sent an invitation (null for a reset the user asked for)
  created_by uuid REFERENCES users(id) ON DELETE SET NULL
);
CREATE INDEX password_links_user_idx ON password_links (user_id) WHERE used_at IS NULL;
CREATE INDEX password_links_expires_idx ON password_links (expires_at);

-- When the password was last set (audit, and the invitation list tells invited from active users).
ALTER TABLE users ADD COLUMN password_changed_at timestamptz;
