-- Resource "departments": changes since the last migration (review before committing).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "departments_name_trgm" ON "departments" USING gin ("name" gin_trgm_ops);
