-- Issue 36 (nothing lost), versions: every engine table gains `version` (1 on create, +1 on every write
-- through the engine; a PATCH naming a stale version is a 409). Existing rows start at 1.
ALTER TABLE "departments" ADD COLUMN "version" integer NOT NULL DEFAULT 1;
ALTER TABLE "roles" ADD COLUMN "version" integer NOT NULL DEFAULT 1;
ALTER TABLE "users" ADD COLUMN "version" integer NOT NULL DEFAULT 1;
ALTER TABLE "staff" ADD COLUMN "version" integer NOT NULL DEFAULT 1;
ALTER TABLE "dictionary_types" ADD COLUMN "version" integer NOT NULL DEFAULT 1;
ALTER TABLE "assets" ADD COLUMN "version" integer NOT NULL DEFAULT 1;
ALTER TABLE "activity_logs" ADD COLUMN "version" integer NOT NULL DEFAULT 1;
