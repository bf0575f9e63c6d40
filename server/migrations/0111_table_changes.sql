-- Issue 14: servers remember where deep pages of a list start (server/engine/anchors.ts) and forget it when
-- the table changes. Whatever writes the change (an API call, a CLI, hand-written SQL), these triggers tell
-- every server at commit, through NOTIFY on the `table_changes` channel with the table's name as payload;
-- PostgreSQL sends one notification per transaction for a repeated payload. Every engine resource table
-- (and join table) has one; `make:migration` writes the same trigger for a new resource's table.
CREATE OR REPLACE FUNCTION table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('table_changes', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['departments', 'roles', 'users', 'staff', 'staff_roles', 'dictionary_types',
                           'assets', 'activity_logs'] LOOP
    IF to_regclass(quote_ident(t)) IS NOT NULL THEN
      EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I '
                     'FOR EACH STATEMENT EXECUTE FUNCTION table_changed()', t || '_table_changed', t);
    END IF;
  END LOOP;
END
$$;
