-- Resource "assets": changes since the last migration (review before committing).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "assets_name_trgm" ON "assets" USING gin ("name" gin_trgm_ops);
CREATE INDEX "assets_mime_trgm" ON "assets" USING gin ("mime" gin_trgm_ops);
