-- Resource "departments": changes since the last migration (review before committing).
-- parent_id always was a bigint column (0001_foundation.sql); the field model now derives that from the
-- id-like schema (digit string | integer), so the snapshot says so too. A no-op on existing databases.
ALTER TABLE "departments" ALTER COLUMN "parent_id" TYPE bigint USING "parent_id"::bigint;
