-- Resource "staff": changes since the last migration (review before committing).
ALTER TABLE "staff" DROP CONSTRAINT IF EXISTS "staff_name_check";
ALTER TABLE "staff" ADD CONSTRAINT "staff_name_check" CHECK (char_length("name") <= 60);
DROP INDEX IF EXISTS "staff_name_idx";
CREATE INDEX "staff_name_sort" ON "staff" ("name", "id");
ALTER TABLE "staff" DROP CONSTRAINT IF EXISTS "staff_email_check";
ALTER TABLE "staff" ADD CONSTRAINT "staff_email_check" CHECK (char_length("email") <= 254);
DROP INDEX IF EXISTS "staff_state_idx";
CREATE INDEX "staff_state_sort" ON "staff" ("state", "id");
ALTER TABLE "staff" DROP CONSTRAINT IF EXISTS "staff_is_admin_check";
ALTER TABLE "staff" ADD CONSTRAINT "staff_is_admin_check" CHECK ("is_admin" BETWEEN 0 AND 1);
DROP INDEX IF EXISTS "staff_created_at_idx";
CREATE INDEX "staff_created_at_sort" ON "staff" ("created_at", "id");
CREATE INDEX "staff_updated_at_sort" ON "staff" ("updated_at", "id");
