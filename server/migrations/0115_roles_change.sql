-- Resource "roles": changes since the last migration (review before committing).
ALTER TABLE "roles" ADD COLUMN "field_access" jsonb NOT NULL DEFAULT '{}'::jsonb;
