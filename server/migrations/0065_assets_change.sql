-- Resource "assets": changes since the last migration (review before committing).
ALTER TABLE "assets" DROP CONSTRAINT IF EXISTS "assets_name_check";
ALTER TABLE "assets" ADD CONSTRAINT "assets_name_check" CHECK (char_length("name") <= 255);
DROP INDEX IF EXISTS "assets_name_idx";
CREATE INDEX "assets_name_sort" ON "assets" ("name", "id");
ALTER TABLE "assets" DROP CONSTRAINT IF EXISTS "assets_size_check";
ALTER TABLE "assets" ADD CONSTRAINT "assets_size_check" CHECK ("size" >= 0);
DROP INDEX IF EXISTS "assets_size_idx";
CREATE INDEX "assets_size_sort" ON "assets" ("size", "id");
ALTER TABLE "assets" DROP CONSTRAINT IF EXISTS "assets_mime_check";
ALTER TABLE "assets" ADD CONSTRAINT "assets_mime_check" CHECK (char_length("mime") <= 100);
DROP INDEX IF EXISTS "assets_mime_idx";
CREATE INDEX "assets_mime_sort" ON "assets" ("mime", "id");
DROP INDEX IF EXISTS "assets_created_at_idx";
CREATE INDEX "assets_created_at_sort" ON "assets" ("created_at", "id");
CREATE INDEX "assets_updated_at_sort" ON "assets" ("updated_at", "id");
