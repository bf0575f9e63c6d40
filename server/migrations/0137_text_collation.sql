-- Issue 32 item 7: text sorts are case-insensitive, and under zh-CN in pinyin order where PostgreSQL's ICU
-- has Chinese rules (server/engine/list/related.ts textCollation). The list sorts text by
-- `"column" COLLATE "und-x-icu"` (or "zh-x-icu"), which the plain (column, id) btrees cannot serve: one
-- collated (column, id) btree per collation, over the live rows as the plain ones. PGlite has no zh-x-icu,
-- so that one is made only where the collation exists. The generator writes the same for new resources
-- (server/engine/schema/ddl.ts collatedSortIndexes).
CREATE INDEX IF NOT EXISTS "assets_name_ci" ON "assets" ("name" COLLATE "und-x-icu", "id");
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'zh-x-icu') THEN CREATE INDEX IF NOT EXISTS "assets_name_zh" ON "assets" ("name" COLLATE "zh-x-icu", "id"); END IF; END $$;
CREATE INDEX IF NOT EXISTS "assets_mime_ci" ON "assets" ("mime" COLLATE "und-x-icu", "id");
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'zh-x-icu') THEN CREATE INDEX IF NOT EXISTS "assets_mime_zh" ON "assets" ("mime" COLLATE "zh-x-icu", "id"); END IF; END $$;
CREATE INDEX IF NOT EXISTS "departments_name_ci" ON "departments" ("name" COLLATE "und-x-icu", "id") WHERE "deleted_at" IS NULL;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'zh-x-icu') THEN CREATE INDEX IF NOT EXISTS "departments_name_zh" ON "departments" ("name" COLLATE "zh-x-icu", "id") WHERE "deleted_at" IS NULL; END IF; END $$;
CREATE INDEX IF NOT EXISTS "dictionary_types_name_ci" ON "dictionary_types" ("name" COLLATE "und-x-icu", "id") WHERE "deleted_at" IS NULL;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'zh-x-icu') THEN CREATE INDEX IF NOT EXISTS "dictionary_types_name_zh" ON "dictionary_types" ("name" COLLATE "zh-x-icu", "id") WHERE "deleted_at" IS NULL; END IF; END $$;
CREATE INDEX IF NOT EXISTS "dictionary_types_slug_ci" ON "dictionary_types" ("slug" COLLATE "und-x-icu", "id") WHERE "deleted_at" IS NULL;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'zh-x-icu') THEN CREATE INDEX IF NOT EXISTS "dictionary_types_slug_zh" ON "dictionary_types" ("slug" COLLATE "zh-x-icu", "id") WHERE "deleted_at" IS NULL; END IF; END $$;
CREATE INDEX IF NOT EXISTS "roles_name_ci" ON "roles" ("name" COLLATE "und-x-icu", "id") WHERE "deleted_at" IS NULL;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'zh-x-icu') THEN CREATE INDEX IF NOT EXISTS "roles_name_zh" ON "roles" ("name" COLLATE "zh-x-icu", "id") WHERE "deleted_at" IS NULL; END IF; END $$;
CREATE INDEX IF NOT EXISTS "staff_name_ci" ON "staff" ("name" COLLATE "und-x-icu", "id") WHERE "deleted_at" IS NULL;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'zh-x-icu') THEN CREATE INDEX IF NOT EXISTS "staff_name_zh" ON "staff" ("name" COLLATE "zh-x-icu", "id") WHERE "deleted_at" IS NULL; END IF; END $$;
CREATE INDEX IF NOT EXISTS "users_username_ci" ON "users" ("username" COLLATE "und-x-icu", "id") WHERE "deleted_at" IS NULL;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'zh-x-icu') THEN CREATE INDEX IF NOT EXISTS "users_username_zh" ON "users" ("username" COLLATE "zh-x-icu", "id") WHERE "deleted_at" IS NULL; END IF; END $$;
CREATE INDEX IF NOT EXISTS "users_name_ci" ON "users" ("name" COLLATE "und-x-icu", "id") WHERE "deleted_at" IS NULL;
DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'zh-x-icu') THEN CREATE INDEX IF NOT EXISTS "users_name_zh" ON "users" ("name" COLLATE "zh-x-icu", "id") WHERE "deleted_at" IS NULL; END IF; END $$;
