-- Resource "dictionaries": changes since the last migration (review before committing).
ALTER TABLE "dictionary_types" DROP CONSTRAINT IF EXISTS "dictionary_types_name_check";
ALTER TABLE "dictionary_types" ADD CONSTRAINT "dictionary_types_name_check" CHECK (char_length("name") <= 100);
DROP INDEX IF EXISTS "dictionary_types_name_idx";
CREATE INDEX "dictionary_types_name_sort" ON "dictionary_types" ("name", "id");
ALTER TABLE "dictionary_types" DROP CONSTRAINT IF EXISTS "dictionary_types_slug_check";
ALTER TABLE "dictionary_types" ADD CONSTRAINT "dictionary_types_slug_check" CHECK (char_length("slug") <= 60);
CREATE INDEX "dictionary_types_slug_sort" ON "dictionary_types" ("slug", "id");
DROP INDEX IF EXISTS "dictionary_types_created_at_idx";
CREATE INDEX "dictionary_types_created_at_sort" ON "dictionary_types" ("created_at", "id");
CREATE INDEX "dictionary_types_updated_at_sort" ON "dictionary_types" ("updated_at", "id");
INSERT INTO "dictionary_types" ("name", "slug", "data") VALUES ('性别', 'gender', '[{"label":"男","value":"male","state":true,"memo":"","labels":{"en":"Male"}},{"label":"女","value":"female","state":true,"memo":"","labels":{"en":"Female"}},{"label":"未知","value":"unknown","state":true,"memo":"","labels":{"en":"Unknown"}}]'::jsonb) ON CONFLICT ("slug") DO NOTHING;
