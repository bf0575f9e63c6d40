-- STORAGE=postgres (server/storage/postgres.ts): each stored object is a row, its bytes fixed-size chunks.
-- A staged upload has no key yet; commit gives it one. Chunks are stored uncompressed (EXTERNAL): uploads
-- are mostly compressed formats already, and compressing them again would cost CPU for nothing.
CREATE TABLE "storage_objects" (
  "id" bigserial PRIMARY KEY,
  "key" text UNIQUE,
  "size" bigint NOT NULL DEFAULT 0,
  "chunk_size" integer NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "committed_at" timestamptz
);
CREATE INDEX "storage_objects_staged_idx" ON "storage_objects" ("created_at") WHERE "key" IS NULL;
CREATE TABLE "storage_chunks" (
  "object_id" bigint NOT NULL REFERENCES "storage_objects" ("id") ON DELETE CASCADE,
  "seq" integer NOT NULL,
  "data" bytea NOT NULL,
  PRIMARY KEY ("object_id", "seq")
);
ALTER TABLE "storage_chunks" ALTER COLUMN "data" SET STORAGE EXTERNAL;
