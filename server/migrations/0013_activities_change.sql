-- Resource "activities": changes since the last migration (review before committing).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "activity_logs_action_trgm" ON "activity_logs" USING gin ("action" gin_trgm_ops);
CREATE INDEX "activity_logs_ip_trgm" ON "activity_logs" USING gin ("ip" gin_trgm_ops);
