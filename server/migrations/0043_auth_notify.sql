-- Issue 14, item 4: servers cache each token's owner and each user's principal (server/core/auth-cache.ts)
-- and drop those caches when anything they were built from changes. Whatever writes the change (an API
-- call, a CLI, hand-written SQL), these triggers tell every server at commit, through NOTIFY on the
-- `auth_changes` channel; PostgreSQL sends one notification per transaction for a repeated payload.
CREATE OR REPLACE FUNCTION auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('auth_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

-- Tokens: revoked, cut short or deleted (not the sliding expiry every use moves forward).
CREATE TRIGGER access_tokens_auth_changed AFTER UPDATE OF revoked_at, expires_at ON access_tokens
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR NEW.expires_at < OLD.expires_at)
  EXECUTE FUNCTION auth_changed();
CREATE TRIGGER access_tokens_auth_deleted AFTER DELETE OR TRUNCATE ON access_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();

-- Users: disabled or enabled, deleted.
CREATE TRIGGER users_auth_changed AFTER UPDATE OF state ON users
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION auth_changed();
CREATE TRIGGER users_auth_deleted AFTER DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();

-- Staff records, their roles and the roles' grants: everything a principal is made of.
CREATE TRIGGER staff_auth_changed AFTER INSERT OR DELETE OR TRUNCATE
  OR UPDATE OF user_id, state, is_admin, department_id ON staff
  FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();
CREATE TRIGGER staff_roles_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON staff_roles
  FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();
CREATE TRIGGER roles_auth_changed AFTER UPDATE OF state, permissions OR DELETE OR TRUNCATE ON roles
  FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();
