-- Resource "staff": changes since the last migration (review before committing).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "staff_name_trgm" ON "staff" USING gin ("name" gin_trgm_ops);
DROP INDEX IF EXISTS "staff_phone_idx";
CREATE INDEX "staff_phone_trgm" ON "staff" USING gin ("phone" gin_trgm_ops);
DROP INDEX IF EXISTS "staff_email_idx";
CREATE INDEX "staff_email_trgm" ON "staff" USING gin ("email" gin_trgm_ops);
