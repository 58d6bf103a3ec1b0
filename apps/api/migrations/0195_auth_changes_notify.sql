-- Freshness of the API's caller cache (issue 13, http/caller-cache.ts): every change that decides what a bearer
-- token may do wakes the API processes with NOTIFY auth_changes, delivered at commit, so they drop the cached
-- callers it concerns instead of reading the grant, the user and the IDS context on every request.
-- Payloads: 'user:<id>' (role, names, e-mail, current partner, subject, partner memberships, deleted user),
-- 'grant:<id>' (sign-out / revoked grant), 'ids:<id>' (IDS context completed or removed).
-- Without a LISTEN connection the processes read all three per request, as before.
CREATE FUNCTION auth_changes_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  row_data record;
BEGIN
  IF TG_OP = 'DELETE' THEN row_data := OLD; ELSE row_data := NEW; END IF;
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('auth_changes', 'user:' || row_data.id::text);
  ELSIF TG_TABLE_NAME = 'user_business_partners' THEN
    PERFORM pg_notify('auth_changes', 'user:' || row_data.user_id::text);
    IF TG_OP = 'UPDATE' AND OLD.user_id IS DISTINCT FROM NEW.user_id THEN
      PERFORM pg_notify('auth_changes', 'user:' || OLD.user_id::text);
    END IF;
  ELSIF TG_TABLE_NAME = 'revoked_grants' THEN
    PERFORM pg_notify('auth_changes', 'grant:' || row_data.grant_id);
  ELSIF TG_TABLE_NAME = 'ids_contexts' THEN
    PERFORM pg_notify('auth_changes', 'ids:' || row_data.id::text);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER users_auth_changes
  AFTER UPDATE OF id, email, first_name, last_name, role, current_bp_number, external_subject OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION auth_changes_notify();
CREATE TRIGGER user_business_partners_auth_changes AFTER INSERT OR UPDATE OR DELETE ON user_business_partners
  FOR EACH ROW EXECUTE FUNCTION auth_changes_notify();
CREATE TRIGGER revoked_grants_auth_changes AFTER INSERT OR UPDATE ON revoked_grants
  FOR EACH ROW EXECUTE FUNCTION auth_changes_notify();
CREATE TRIGGER ids_contexts_auth_changes
  AFTER UPDATE OF id, user_id, completed_at OR DELETE ON ids_contexts
  FOR EACH ROW EXECUTE FUNCTION auth_changes_notify();
