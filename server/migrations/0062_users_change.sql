-- Resource "users": changes since the last migration (review before committing).
CREATE INDEX "users_username_sort" ON "users" ("username", "id");
ALTER TABLE "users" DROP CONSTRAINT IF EXISTS "users_name_check";
ALTER TABLE "users" ADD CONSTRAINT "users_name_check" CHECK (char_length("name") <= 60);
DROP INDEX IF EXISTS "users_name_idx";
CREATE INDEX "users_name_sort" ON "users" ("name", "id");
ALTER TABLE "users" DROP CONSTRAINT IF EXISTS "users_email_check";
ALTER TABLE "users" ADD CONSTRAINT "users_email_check" CHECK (char_length("email") <= 254);
DROP INDEX IF EXISTS "users_state_idx";
CREATE INDEX "users_state_sort" ON "users" ("state", "id");
DROP INDEX IF EXISTS "users_last_login_at_idx";
CREATE INDEX "users_last_login_at_sort" ON "users" ("last_login_at", "id");
DROP INDEX IF EXISTS "users_created_at_idx";
CREATE INDEX "users_created_at_sort" ON "users" ("created_at", "id");
CREATE INDEX "users_updated_at_sort" ON "users" ("updated_at", "id");
