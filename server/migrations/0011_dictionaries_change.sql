-- Resource "dictionaries": changes since the last migration (review before committing).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "dictionary_types_name_trgm" ON "dictionary_types" USING gin ("name" gin_trgm_ops);
CREATE INDEX "dictionary_types_slug_trgm" ON "dictionary_types" USING gin ("slug" gin_trgm_ops);
