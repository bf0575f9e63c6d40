-- Issue 32, item 1: saved views of the generated lists. A view belongs to its owner and may be shared with
-- some roles or with everyone; `query` is the list query language's parameters (search, searchFields,
-- searchJoin, orderBy, sortedBy, q), validated by the list's own parser when saved and when counted.
-- Whether a view is pinned into the menu, and which view opens a list by default, is each user's own choice
-- (saved_view_choices), so a shared view can be pinned by everyone who sees it and a default is per user and list.
CREATE TABLE saved_views (
  id bigserial PRIMARY KEY,
  owner_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  resource text NOT NULL CHECK (length(resource) BETWEEN 1 AND 100),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  query jsonb NOT NULL DEFAULT '{}'::jsonb,
  columns text[] NOT NULL DEFAULT '{}',
  density text NOT NULL DEFAULT 'compact' CHECK (density IN ('compact', 'comfortable')),
  shared text NOT NULL DEFAULT 'private' CHECK (shared IN ('private', 'roles', 'everyone')),
  role_ids bigint[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX saved_views_owner ON saved_views (owner_id, resource);
CREATE INDEX saved_views_shared ON saved_views (resource) WHERE shared <> 'private';

CREATE TABLE saved_view_choices (
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  view_id bigint NOT NULL REFERENCES saved_views (id) ON DELETE CASCADE,
  resource text NOT NULL,
  pinned boolean NOT NULL DEFAULT false,
  is_default boolean NOT NULL DEFAULT false,
  PRIMARY KEY (user_id, view_id)
);
-- One default view per user and list.
CREATE UNIQUE INDEX saved_view_choices_default ON saved_view_choices (user_id, resource) WHERE is_default;
