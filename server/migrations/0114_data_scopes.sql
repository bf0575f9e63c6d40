-- Issue 30 (data scopes), items 1 and 2. Roles gain `data_scope` (existing roles become `all`, so they keep
-- seeing every row) and the departments a `custom` scope names (roles_departments). Every engine table gains
-- `created_by` / `updated_by` (the acting user's id, set by the engine's writes; nullable: older rows and the
-- system's own writes have none) and an index on `created_by`, the owner a `self` scope matches
-- (server/engine/scope.ts). Existing rows take their creator from their `<resource>.create` audit row where
-- the activity log has one.
-- Resource "departments": changes since the last migration (review before committing).
ALTER TABLE "departments" ADD COLUMN "created_by" bigint;
CREATE INDEX "departments_created_by_idx" ON "departments" ("created_by");
ALTER TABLE "departments" ADD COLUMN "updated_by" bigint;

-- Resource "roles": changes since the last migration (review before committing).
ALTER TABLE "roles" ADD COLUMN "data_scope" text NOT NULL DEFAULT 'all' CONSTRAINT "roles_data_scope_check" CHECK ("data_scope" IN ('all', 'department_and_below', 'department', 'self', 'custom'));
CREATE INDEX "roles_data_scope_idx" ON "roles" ("data_scope");
ALTER TABLE "roles" ADD COLUMN "created_by" bigint;
CREATE INDEX "roles_created_by_idx" ON "roles" ("created_by");
ALTER TABLE "roles" ADD COLUMN "updated_by" bigint;
CREATE TABLE "roles_departments" (
  "role_id" bigint NOT NULL CONSTRAINT "roles_departments_role_id_fkey" REFERENCES "roles" ("id") ON DELETE CASCADE,
  "data_scope_department_id" bigint NOT NULL CONSTRAINT "roles_departments_data_scope_department_id_fkey" REFERENCES "departments" ("id") ON DELETE CASCADE,
  PRIMARY KEY ("role_id", "data_scope_department_id")
);
CREATE INDEX "roles_departments_data_scope_department_id_idx" ON "roles_departments" ("data_scope_department_id");
CREATE OR REPLACE FUNCTION table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('table_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
CREATE TRIGGER "roles_departments_table_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "roles_departments"
  FOR EACH STATEMENT EXECUTE FUNCTION table_changed();

-- Resource "users": changes since the last migration (review before committing).
ALTER TABLE "users" ADD COLUMN "created_by" bigint;
CREATE INDEX "users_created_by_idx" ON "users" ("created_by");
ALTER TABLE "users" ADD COLUMN "updated_by" bigint;

-- Resource "staff": changes since the last migration (review before committing).
ALTER TABLE "staff" ADD COLUMN "created_by" bigint;
CREATE INDEX "staff_created_by_idx" ON "staff" ("created_by");
ALTER TABLE "staff" ADD COLUMN "updated_by" bigint;

-- Resource "dictionaries": changes since the last migration (review before committing).
ALTER TABLE "dictionary_types" ADD COLUMN "created_by" bigint;
CREATE INDEX "dictionary_types_created_by_idx" ON "dictionary_types" ("created_by");
ALTER TABLE "dictionary_types" ADD COLUMN "updated_by" bigint;

-- Resource "assets": changes since the last migration (review before committing).
ALTER TABLE "assets" ADD COLUMN "created_by" bigint;
CREATE INDEX "assets_created_by_idx" ON "assets" ("created_by");
ALTER TABLE "assets" ADD COLUMN "updated_by" bigint;

-- Resource "activities": changes since the last migration (review before committing).
ALTER TABLE "activity_logs" ADD COLUMN "created_by" bigint;
CREATE INDEX "activity_logs_created_by_idx" ON "activity_logs" ("created_by");
ALTER TABLE "activity_logs" ADD COLUMN "updated_by" bigint;

-- The creators the activity log knows (the first `create` row of each record).
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT * FROM (VALUES ('departments', 'departments'), ('roles', 'roles'), ('users', 'users'),
                                 ('staff', 'staff'), ('dictionaries', 'dictionary_types'), ('assets', 'assets'))
                    AS t(resource, tbl) LOOP
    EXECUTE format('UPDATE %I t SET created_by = l.operator_id, updated_by = l.operator_id
                      FROM (SELECT DISTINCT ON (subject_id) subject_id, operator_id FROM activity_logs
                             WHERE subject_type = %L AND action = %L AND operator_id IS NOT NULL
                             ORDER BY subject_id, id) l
                     WHERE l.subject_id = t.id::text AND t.created_by IS NULL',
                   r.tbl, r.resource, r.resource || '.create');
  END LOOP;
END
$$;
