-- Resource "roles": changes since the last migration (review before committing).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "roles_name_trgm" ON "roles" USING gin ("name" gin_trgm_ops);
