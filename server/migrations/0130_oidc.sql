-- Issue 31, item 4: sign-in through OpenID Connect providers (the `login.oidc_providers` settings).
-- Nothing here can sign in by itself when read: states keep the PKCE verifier and the nonce only for the
-- minutes of one round trip, tickets are kept as SHA-256.

-- Who a provider's subject is here. `sub` is unique per issuer (OpenID Connect Core 2), so the issuer and the
-- subject name the person; `provider_id` is the settings entry it was bound through (one per user and entry).
CREATE TABLE oidc_identities (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider_id text NOT NULL,
  issuer text NOT NULL,
  subject text NOT NULL,
  email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_login_at timestamptz,
  UNIQUE (issuer, subject),
  UNIQUE (user_id, provider_id)
);

-- One started authorisation: the state (hashed) bound to the browser that asked (its nonce cookie, hashed),
-- the PKCE verifier and the OpenID nonce the callback checks, where to go afterwards, and for a binding the
-- signed-in user it binds to. Ten minutes, one use.
CREATE TABLE oidc_states (
  id bigserial PRIMARY KEY,
  state_hash text NOT NULL UNIQUE,
  browser_hash text NOT NULL,
  provider_id text NOT NULL,
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  href text NOT NULL DEFAULT '',
  remember boolean NOT NULL DEFAULT false,
  bind_user_id bigint REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX oidc_states_expires_at_idx ON oidc_states (expires_at);

-- The one-time ticket the callback hands to the front end (`/login?oidc_ticket=`): two minutes, one use.
CREATE TABLE oidc_tickets (
  id bigserial PRIMARY KEY,
  ticket_hash text NOT NULL UNIQUE,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider_id text NOT NULL,
  remember boolean NOT NULL DEFAULT false,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz
);
CREATE INDEX oidc_tickets_expires_at_idx ON oidc_tickets (expires_at);
