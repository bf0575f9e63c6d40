-- Issue 28 (the soak's one duplicate): a create whose COMMIT reached the disk while the database went down
-- answered 503, and the client's retry created the record a second time. A create sent with an
-- `Idempotency-Key` header claims the key here in the record's own transaction, so a retry with the same key
-- finds the record the first attempt made instead of making another. Keys are kept a day (the clean-up task).
CREATE TABLE "idempotency_keys" (
  "user_id" bigint NOT NULL,
  "key_hash" text NOT NULL,
  "target" text NOT NULL,
  "record_id" text NOT NULL,
  "created_at" timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY ("user_id", "key_hash")
);
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys" ("created_at");
