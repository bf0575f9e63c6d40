-- Issue 31, item 6: personal API tokens live in access_tokens beside the sign-in sessions, so revocation on a
-- password change, a disabled account, the auth_changes notification and the caches work for both alike.
-- `scope` is the permission names the token may use (NULL: a sign-in session, which holds all its owner's);
-- `name` is what its owner called it (shown in the account area and in the activity rows it writes).
-- A token's expiry is fixed (remember = true: never slid forward by use).
ALTER TABLE access_tokens ADD COLUMN name text;
ALTER TABLE access_tokens ADD COLUMN scope text[];
ALTER TABLE access_tokens ADD CONSTRAINT access_tokens_api_named CHECK (scope IS NULL OR name IS NOT NULL);
