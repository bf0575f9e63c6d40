-- Issue 36 (part T): the trash. Every table of a soft-delete resource gains `deleted_at` (null: live), an
-- index on the live ids, and its list (sort) indexes become partial over the live rows, so lists that
-- leave trashed rows out read the same indexes as before (server/engine/scope.ts liveSql).
-- Resource "departments": changes since the last migration (review before committing).
ALTER TABLE "departments" ADD COLUMN "deleted_at" timestamptz;
DROP INDEX IF EXISTS "departments_name_sort";
CREATE INDEX "departments_name_sort" ON "departments" ("name", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "departments_parent_id_sort";
CREATE INDEX "departments_parent_id_sort" ON "departments" ("parent_id", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "departments_sort_sort";
CREATE INDEX "departments_sort_sort" ON "departments" ("sort", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "departments_state_sort";
CREATE INDEX "departments_state_sort" ON "departments" ("state", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "departments_created_at_sort";
CREATE INDEX "departments_created_at_sort" ON "departments" ("created_at", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "departments_updated_at_sort";
CREATE INDEX "departments_updated_at_sort" ON "departments" ("updated_at", "id") WHERE "deleted_at" IS NULL;
CREATE INDEX "departments_live_idx" ON "departments" ("id") WHERE "deleted_at" IS NULL;

-- Resource "roles": changes since the last migration (review before committing).
ALTER TABLE "roles" ADD COLUMN "deleted_at" timestamptz;
DROP INDEX IF EXISTS "roles_name_sort";
CREATE INDEX "roles_name_sort" ON "roles" ("name", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "roles_sort_sort";
CREATE INDEX "roles_sort_sort" ON "roles" ("sort", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "roles_state_sort";
CREATE INDEX "roles_state_sort" ON "roles" ("state", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "roles_created_at_sort";
CREATE INDEX "roles_created_at_sort" ON "roles" ("created_at", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "roles_updated_at_sort";
CREATE INDEX "roles_updated_at_sort" ON "roles" ("updated_at", "id") WHERE "deleted_at" IS NULL;
CREATE INDEX "roles_live_idx" ON "roles" ("id") WHERE "deleted_at" IS NULL;

-- Resource "users": changes since the last migration (review before committing).
ALTER TABLE "users" ADD COLUMN "deleted_at" timestamptz;
DROP INDEX IF EXISTS "users_username_sort";
CREATE INDEX "users_username_sort" ON "users" ("username", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "users_name_sort";
CREATE INDEX "users_name_sort" ON "users" ("name", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "users_state_sort";
CREATE INDEX "users_state_sort" ON "users" ("state", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "users_last_login_at_sort";
CREATE INDEX "users_last_login_at_sort" ON "users" ("last_login_at", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "users_created_at_sort";
CREATE INDEX "users_created_at_sort" ON "users" ("created_at", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "users_updated_at_sort";
CREATE INDEX "users_updated_at_sort" ON "users" ("updated_at", "id") WHERE "deleted_at" IS NULL;
CREATE INDEX "users_live_idx" ON "users" ("id") WHERE "deleted_at" IS NULL;

-- Resource "staff": changes since the last migration (review before committing).
ALTER TABLE "staff" ADD COLUMN "deleted_at" timestamptz;
DROP INDEX IF EXISTS "staff_name_sort";
CREATE INDEX "staff_name_sort" ON "staff" ("name", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "staff_state_sort";
CREATE INDEX "staff_state_sort" ON "staff" ("state", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "staff_created_at_sort";
CREATE INDEX "staff_created_at_sort" ON "staff" ("created_at", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "staff_updated_at_sort";
CREATE INDEX "staff_updated_at_sort" ON "staff" ("updated_at", "id") WHERE "deleted_at" IS NULL;
CREATE INDEX "staff_live_idx" ON "staff" ("id") WHERE "deleted_at" IS NULL;

-- Resource "dictionaries": changes since the last migration (review before committing).
ALTER TABLE "dictionary_types" ADD COLUMN "deleted_at" timestamptz;
DROP INDEX IF EXISTS "dictionary_types_name_sort";
CREATE INDEX "dictionary_types_name_sort" ON "dictionary_types" ("name", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "dictionary_types_slug_sort";
CREATE INDEX "dictionary_types_slug_sort" ON "dictionary_types" ("slug", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "dictionary_types_created_at_sort";
CREATE INDEX "dictionary_types_created_at_sort" ON "dictionary_types" ("created_at", "id") WHERE "deleted_at" IS NULL;
DROP INDEX IF EXISTS "dictionary_types_updated_at_sort";
CREATE INDEX "dictionary_types_updated_at_sort" ON "dictionary_types" ("updated_at", "id") WHERE "deleted_at" IS NULL;
CREATE INDEX "dictionary_types_live_idx" ON "dictionary_types" ("id") WHERE "deleted_at" IS NULL;
