-- Resource "roles": changes since the last migration (review before committing).
ALTER TABLE "roles" DROP CONSTRAINT IF EXISTS "roles_name_check";
ALTER TABLE "roles" ADD CONSTRAINT "roles_name_check" CHECK (char_length("name") <= 60);
CREATE INDEX "roles_name_sort" ON "roles" ("name", "id");
ALTER TABLE "roles" DROP CONSTRAINT IF EXISTS "roles_intro_check";
ALTER TABLE "roles" ADD CONSTRAINT "roles_intro_check" CHECK (char_length("intro") <= 500);
ALTER TABLE "roles" DROP CONSTRAINT IF EXISTS "roles_sort_check";
ALTER TABLE "roles" ADD CONSTRAINT "roles_sort_check" CHECK ("sort" BETWEEN 0 AND 1000000);
DROP INDEX IF EXISTS "roles_sort_idx";
CREATE INDEX "roles_sort_sort" ON "roles" ("sort", "id");
DROP INDEX IF EXISTS "roles_state_idx";
CREATE INDEX "roles_state_sort" ON "roles" ("state", "id");
DROP INDEX IF EXISTS "roles_created_at_idx";
CREATE INDEX "roles_created_at_sort" ON "roles" ("created_at", "id");
CREATE INDEX "roles_updated_at_sort" ON "roles" ("updated_at", "id");
