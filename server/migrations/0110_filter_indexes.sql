-- Issue 14 item 3: the btrees the snapshots of activities and staff already record for their `=`/`in`
-- filters, which the hand-written tables of 0001/0002 never got (every sortable field already has its
-- `(field, id)` index from 0060-0066). IF NOT EXISTS: a database made by an older make:migration may have them.
-- staff.user_id is left out: its UNIQUE constraint's index (staff_user_id_key) serves `=` already.
CREATE INDEX IF NOT EXISTS "activity_logs_subject_id_idx" ON "activity_logs" ("subject_id");
CREATE INDEX IF NOT EXISTS "activity_logs_ip_idx" ON "activity_logs" ("ip");
CREATE INDEX IF NOT EXISTS "staff_gender_idx" ON "staff" ("gender");
CREATE INDEX IF NOT EXISTS "staff_is_supervisor_idx" ON "staff" ("is_supervisor");
CREATE INDEX IF NOT EXISTS "staff_is_admin_idx" ON "staff" ("is_admin");
