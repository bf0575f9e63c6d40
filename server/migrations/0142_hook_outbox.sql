-- Issue 35 item 9: mail a resource hook sends is written here inside the write's transaction and sent by a
-- pg-boss job (`engine.outbox`) once it has committed, so a rolled-back write sends nothing and a sent mail
-- is not sent again. `claimed_at` marks a send in progress (another server leaves it alone for a while);
-- `sent_at` a mail the server accepted.
CREATE TABLE engine_outbox (
  id bigserial PRIMARY KEY,
  kind text NOT NULL DEFAULT 'mail' CHECK (kind IN ('mail')),
  payload jsonb NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  claimed_at timestamptz,
  sent_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- The unsent rows, which a server starting its jobs queues again.
CREATE INDEX engine_outbox_unsent_idx ON engine_outbox (id) WHERE sent_at IS NULL;
