-- Resource "departments": changes since the last migration (review before committing).
ALTER TABLE "departments" DROP CONSTRAINT IF EXISTS "departments_name_check";
ALTER TABLE "departments" ADD CONSTRAINT "departments_name_check" CHECK (char_length("name") <= 100);
DROP INDEX IF EXISTS "departments_name_idx";
CREATE INDEX "departments_name_sort" ON "departments" ("name", "id");
ALTER TABLE "departments" DROP CONSTRAINT IF EXISTS "departments_parent_id_check";
ALTER TABLE "departments" ADD CONSTRAINT "departments_parent_id_check" CHECK ("parent_id" >= 0);
DROP INDEX IF EXISTS "departments_parent_id_idx";
CREATE INDEX "departments_parent_id_sort" ON "departments" ("parent_id", "id");
ALTER TABLE "departments" DROP CONSTRAINT IF EXISTS "departments_sort_check";
ALTER TABLE "departments" ADD CONSTRAINT "departments_sort_check" CHECK ("sort" BETWEEN 0 AND 1000000);
DROP INDEX IF EXISTS "departments_sort_idx";
CREATE INDEX "departments_sort_sort" ON "departments" ("sort", "id");
DROP INDEX IF EXISTS "departments_state_idx";
CREATE INDEX "departments_state_sort" ON "departments" ("state", "id");
DROP INDEX IF EXISTS "departments_created_at_idx";
CREATE INDEX "departments_created_at_sort" ON "departments" ("created_at", "id");
CREATE INDEX "departments_updated_at_sort" ON "departments" ("updated_at", "id");
