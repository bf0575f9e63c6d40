-- Resource "assets": changes since the last migration (review before committing).
-- Issue 28: the orphan sweep (server/engine/stored-keys.ts) looks stored keys up 1,000 at a time; without
-- this index each batch scanned the table.
CREATE INDEX "assets_storage_key_idx" ON "assets" ("storage_key");
