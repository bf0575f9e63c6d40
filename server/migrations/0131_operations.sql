-- Issue 36 item 5: undo of a whole operation. A bulk PATCH/DELETE or an import records itself here, and
-- every audit row it writes is linked to it (operation_records), so `POST v1/operations/<id>/undo` knows
-- which records it changed, created or deleted and their values before (the audit row's `changes`), and
-- whether a record was written since (a later audit row of the same record). Undone once: `undone_at`.
CREATE TABLE "operations" (
  "id" bigserial PRIMARY KEY,
  "kind" text NOT NULL CHECK ("kind" IN ('update', 'delete', 'import')),
  "resource" text NOT NULL,
  "actor_id" bigint REFERENCES "users" ("id") ON DELETE SET NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "undone_at" timestamptz,
  "undone_by" bigint REFERENCES "users" ("id") ON DELETE SET NULL
);
CREATE INDEX "operations_created_at_idx" ON "operations" ("created_at");
CREATE TABLE "operation_records" (
  "operation_id" bigint NOT NULL REFERENCES "operations" ("id") ON DELETE CASCADE,
  "activity_id" bigint NOT NULL,
  "subject_type" text NOT NULL,
  "subject_id" text NOT NULL,
  "action" text NOT NULL,
  PRIMARY KEY ("operation_id", "activity_id")
);
