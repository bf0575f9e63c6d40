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
  -- `challenge`: the second step of a sign-in; `enrol`: a user the login.require_2fa policy covers, who has no
  -- second factor yet, may call the TOTP enrolment routes with it and nothing else.
  purpose text NOT NULL DEFAULT 'challenge' CHECK (purpose IN ('challenge', 'enrol')),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mfa_tokens_expires_at_idx ON mfa_tokens (expires_at);

-- Passkeys (WebAuthn credentials): the public key and signature counter a sign-in is checked against; nothing
-- secret is stored. A user may register several and name them.
CREATE TABLE user_passkeys (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  credential_id text NOT NULL UNIQUE,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports text NOT NULL DEFAULT '[]',
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX user_passkeys_user_idx ON user_passkeys (user_id);

-- Challenges handed to the browser for a registration or a sign-in: one use, five minutes, kept as SHA-256.
-- `user_id` is the registering user or, for the second step of a sign-in, the user of the mfa token.
CREATE TABLE webauthn_challenges (
  id bigserial PRIMARY KEY,
  challenge_hash text NOT NULL UNIQUE,
  purpose text NOT NULL CHECK (purpose IN ('register', 'login')),
  user_id bigint REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX webauthn_challenges_expires_at_idx ON webauthn_challenges (expires_at);
