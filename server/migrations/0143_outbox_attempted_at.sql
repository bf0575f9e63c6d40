-- Issue 35: the outbox sweep (server/engine/outbox.ts) queues again a mail whose retries all failed once
-- it is due, some minutes after its last attempt; this is when that attempt began.
ALTER TABLE engine_outbox ADD COLUMN attempted_at timestamptz;
