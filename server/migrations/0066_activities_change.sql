-- Resource "activities": changes since the last migration (review before committing).
ALTER TABLE "activity_logs" DROP CONSTRAINT IF EXISTS "activity_logs_action_check";
ALTER TABLE "activity_logs" ADD CONSTRAINT "activity_logs_action_check" CHECK (char_length("action") <= 100);
DROP INDEX IF EXISTS "activity_logs_action_idx";
CREATE INDEX "activity_logs_action_sort" ON "activity_logs" ("action", "id");
ALTER TABLE "activity_logs" DROP CONSTRAINT IF EXISTS "activity_logs_subject_type_check";
ALTER TABLE "activity_logs" ADD CONSTRAINT "activity_logs_subject_type_check" CHECK (char_length("subject_type") <= 100);
DROP INDEX IF EXISTS "activity_logs_subject_type_idx";
CREATE INDEX "activity_logs_subject_type_sort" ON "activity_logs" ("subject_type", "id");
ALTER TABLE "activity_logs" DROP CONSTRAINT IF EXISTS "activity_logs_subject_id_check";
ALTER TABLE "activity_logs" ADD CONSTRAINT "activity_logs_subject_id_check" CHECK (char_length("subject_id") <= 40);
ALTER TABLE "activity_logs" DROP CONSTRAINT IF EXISTS "activity_logs_ip_check";
ALTER TABLE "activity_logs" ADD CONSTRAINT "activity_logs_ip_check" CHECK (char_length("ip") <= 64);
ALTER TABLE "activity_logs" DROP CONSTRAINT IF EXISTS "activity_logs_user_agent_check";
ALTER TABLE "activity_logs" ADD CONSTRAINT "activity_logs_user_agent_check" CHECK (char_length("user_agent") <= 1000);
DROP INDEX IF EXISTS "activity_logs_created_at_idx";
CREATE INDEX "activity_logs_created_at_sort" ON "activity_logs" ("created_at", "id");
