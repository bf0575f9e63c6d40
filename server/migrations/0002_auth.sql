-- Sign-in support: verification codes and the shared rate-limit counters.

-- One row per code sent. Only a salted SHA-256 of the code is kept; a code is bound to its channel,
-- destination and scene, dies at expires_at, on first use (consumed_at) or after 5 wrong tries.
CREATE TABLE verification_codes (
  id bigserial PRIMARY KEY,
  channel text NOT NULL CHECK (channel IN ('email', 'sms')),
  destination text NOT NULL,
  scene text NOT NULL CHECK (scene IN ('register', 'reset', 'login', 'bind')),
  salt text NOT NULL,
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  ip text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX verification_codes_lookup_idx ON verification_codes (channel, destination, scene, id);
CREATE INDEX verification_codes_expires_at_idx ON verification_codes (expires_at);

-- Fixed-window counters for @fastify/rate-limit, kept in the database so that every server behind a load
-- balancer sees the same counts. `key` is a SHA-256 of the limiter's key (no addresses or names in clear).
CREATE TABLE rate_limits (
  key text PRIMARY KEY,
  hits integer NOT NULL,
  reset_at timestamptz NOT NULL
);
CREATE INDEX rate_limits_reset_at_idx ON rate_limits (reset_at);
