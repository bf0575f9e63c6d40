-- Review of issue 36: a delete of a user, a staff record or a role moves it to the trash (an UPDATE of
-- `deleted_at`, 0125), which the auth triggers of 0043 did not watch: a deleted account or staff member
-- kept signing in, and a deleted role kept granting, from every server's cache (server/core/auth-cache.ts)
-- for up to its entries' age. Trashing and restoring now tell every server, as a hard delete did.
CREATE TRIGGER users_auth_trashed AFTER UPDATE OF deleted_at ON users
  FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();
CREATE TRIGGER staff_auth_trashed AFTER UPDATE OF deleted_at ON staff
  FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();
CREATE TRIGGER roles_auth_trashed AFTER UPDATE OF deleted_at ON roles
  FOR EACH STATEMENT EXECUTE FUNCTION auth_changed();
