-- Resource "staff": issue 32 item 5. `department_id` declares `sortBy: ['name']`: a list sorted by
-- `department.name` walks the departments in their collated name order and, for each, its live staff by
-- `(department_id, id)` (server/engine/list/related.ts relatedPageSql), instead of computing every row's
-- department name and sorting the table. The generator makes this btree for every reference that declares
-- `sortBy` (server/engine/schema/snapshot.ts); it replaces the plain one on the column.
DROP INDEX IF EXISTS "staff_department_id_idx";
CREATE INDEX "staff_department_id_sort" ON "staff" ("department_id", "id") WHERE "deleted_at" IS NULL;
