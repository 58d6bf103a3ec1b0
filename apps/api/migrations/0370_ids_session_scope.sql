-- An IDS context is also the session the craftsman's browser works in (docs/ids.md, "IDS session"): it starts when
-- its one-time code is exchanged, lasts at most session_expires_at, ends after an idle time (last_seen_at, touched
-- by the API at most once a minute) and is revoked by sign-out (revoked_at) or by the return (completed_at).
ALTER TABLE ids_contexts
  ADD COLUMN session_expires_at timestamptz,
  ADD COLUMN last_seen_at timestamptz,
  ADD COLUMN revoked_at timestamptz;

-- The API's caller cache must hear of a revocation and of a shortened lifetime as it hears of a completion
-- (last_seen_at stays out: it changes while the session is used and never opens anything).
DROP TRIGGER ids_contexts_auth_changes ON ids_contexts;
CREATE TRIGGER ids_contexts_auth_changes
  AFTER UPDATE OF id, user_id, completed_at, revoked_at, session_expires_at OR DELETE ON ids_contexts
  FOR EACH ROW EXECUTE FUNCTION auth_changes_notify();
