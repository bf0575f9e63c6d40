-- WeChat official-account sign-in (issue 7): linked identities, OAuth states and registration tickets.

-- A WeChat identity linked to a user, keyed on provider + openid (and unionid when WeChat gives one); never on
-- a nickname or email. One identity per provider per user.
CREATE TABLE wechat_identities (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider text NOT NULL,
  app_id text NOT NULL,
  openid text NOT NULL,
  unionid text,
  nickname text NOT NULL DEFAULT '',
  avatar_url text,
  last_login_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX wechat_identities_openid_key ON wechat_identities (provider, openid);
CREATE UNIQUE INDEX wechat_identities_unionid_key ON wechat_identities (unionid) WHERE unionid IS NOT NULL;
CREATE UNIQUE INDEX wechat_identities_user_key ON wechat_identities (user_id, provider);

-- One row per authorisation started. Only SHA-256 hashes of the state and of the browser nonce (an httpOnly
-- cookie) are kept; a state is valid 10 minutes and for one use, from the browser that started it.
CREATE TABLE wechat_states (
  id bigserial PRIMARY KEY,
  state_hash text NOT NULL UNIQUE,
  browser_hash text NOT NULL,
  remember boolean NOT NULL DEFAULT false,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wechat_states_expires_at_idx ON wechat_states (expires_at);

-- A WeChat user not linked yet gets a short-lived ticket (stored hashed) to register or link an account.
-- It dies at expires_at, on first use, or after 5 wrong passwords while linking.
CREATE TABLE wechat_tickets (
  id bigserial PRIMARY KEY,
  ticket_hash text NOT NULL UNIQUE,
  provider text NOT NULL,
  app_id text NOT NULL,
  openid text NOT NULL,
  unionid text,
  nickname text NOT NULL DEFAULT '',
  avatar_url text,
  remember boolean NOT NULL DEFAULT false,
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX wechat_tickets_expires_at_idx ON wechat_tickets (expires_at);
