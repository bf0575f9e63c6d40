-- Issue 31, items 1-3: second factors. TOTP secrets are kept in clear (the database is the trust boundary, as
-- for the WeChat app secret): a code can only be checked against the secret itself. Everything a user types
-- or carries that could sign in on its own (recovery codes, the two-step mfa tokens) is kept as a SHA-256.

-- One authenticator app per user. A row without confirmed_at is an enrolment in progress (replaced by the next
-- start); last_step is the newest 30-second step a code was accepted for, so a code is never accepted twice.
CREATE TABLE user_totp (
  user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret text NOT NULL,
  confirmed_at timestamptz,
  last_step bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Ten one-time recovery codes per confirmed enrolment (a new enrolment replaces them).
CREATE TABLE user_recovery_codes (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX user_recovery_codes_user_idx ON user_recovery_codes (user_id);

-- The token between the first and the second step of a sign-in: five minutes, one use.
CREATE TABLE mfa_tokens (
  id bigserial PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  remember boolean NOT NULL DEFAULT false,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mfa_tokens_expires_at_idx ON mfa_tokens (expires_at);
