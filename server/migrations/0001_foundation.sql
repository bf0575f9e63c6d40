-- Foundation: settings, people, access control, tokens and the activity log.

CREATE TABLE settings (
  name text PRIMARY KEY,
  value jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id bigserial PRIMARY KEY,
  username text NOT NULL,
  name text NOT NULL DEFAULT '',
  email text,
  phone text,
  avatar_id bigint,
  state boolean NOT NULL DEFAULT true,
  password_hash text,
  last_login_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_key ON users (lower(username));
CREATE UNIQUE INDEX users_email_key ON users (lower(email)) WHERE email IS NOT NULL;
CREATE UNIQUE INDEX users_phone_key ON users (phone) WHERE phone IS NOT NULL;
CREATE INDEX users_created_at_idx ON users (created_at);

CREATE TABLE departments (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  parent_id bigint NOT NULL DEFAULT 0,
  sort integer NOT NULL DEFAULT 0,
  state boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX departments_parent_id_idx ON departments (parent_id, sort);

CREATE TABLE roles (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  intro text NOT NULL DEFAULT '',
  permissions jsonb NOT NULL DEFAULT '{"menu_ids": []}'::jsonb,
  sort integer NOT NULL DEFAULT 0,
  state boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX roles_name_key ON roles (name);

CREATE TABLE staff (
  id bigserial PRIMARY KEY,
  user_id bigint UNIQUE REFERENCES users (id) ON DELETE SET NULL,
  name text NOT NULL,
  gender text NOT NULL DEFAULT 'unknown' CHECK (gender IN ('male', 'female', 'unknown')),
  phone text,
  email text,
  department_id bigint REFERENCES departments (id) ON DELETE RESTRICT,
  state boolean NOT NULL DEFAULT true,
  is_supervisor boolean NOT NULL DEFAULT false,
  is_admin smallint NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
  invitation_hash text,
  invitation_expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX staff_department_id_idx ON staff (department_id);
CREATE UNIQUE INDEX staff_invitation_hash_key ON staff (invitation_hash) WHERE invitation_hash IS NOT NULL;

CREATE TABLE staff_roles (
  staff_id bigint NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
  role_id bigint NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
  PRIMARY KEY (staff_id, role_id)
);
CREATE INDEX staff_roles_role_id_idx ON staff_roles (role_id);

-- Opaque bearer tokens: only the SHA-256 of the token is stored.
CREATE TABLE access_tokens (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  remember boolean NOT NULL DEFAULT false,
  expires_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  ip text,
  user_agent text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX access_tokens_user_id_idx ON access_tokens (user_id);
CREATE INDEX access_tokens_expires_at_idx ON access_tokens (expires_at);

CREATE TABLE activity_logs (
  id bigserial PRIMARY KEY,
  operator_id bigint REFERENCES users (id) ON DELETE SET NULL,
  action text NOT NULL,
  subject_type text,
  subject_id text,
  changes jsonb,
  ip text,
  user_agent text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX activity_logs_created_at_idx ON activity_logs (created_at);
CREATE INDEX activity_logs_operator_id_idx ON activity_logs (operator_id);
CREATE INDEX activity_logs_subject_idx ON activity_logs (subject_type, subject_id);
