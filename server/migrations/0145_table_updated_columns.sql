-- Issue 37 item 4: an UPDATE that cannot move a list's rows no longer makes servers forget the remembered
-- page positions of every list of the table (server/engine/list/anchors.ts). On every table with the
-- `table_changed` trigger of migration 0111 and an `id` column, UPDATE gets a trigger of its own that sees
-- the statement's rows (transition tables) and tells which columns changed: NOTIFY `table_changes` with
-- `<table>:<column>,<column>`; nothing when no row changed (an UPDATE of no row, or writing the same
-- values). An UPDATE of more than 1,000 rows, or one that changes an id, says only `<table>` (every column,
-- as before). INSERT, DELETE and TRUNCATE keep the plain `<table>`. A table made later by `make:migration`
-- keeps the one trigger of 0111 (its updates say `<table>`, as before) until a migration runs
-- `SELECT track_updated_columns('<table>')`.
CREATE OR REPLACE FUNCTION table_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
  matched bigint;
  cols text;
BEGIN
  SELECT count(*) INTO n FROM old_rows;
  IF n = 0 THEN
    RETURN NULL;
  END IF;
  IF n > 1000 THEN
    PERFORM pg_notify('table_changes', TG_TABLE_NAME);
    RETURN NULL;
  END IF;
  SELECT count(*) INTO matched FROM old_rows o JOIN new_rows w ON w.id = o.id;
  IF matched <> n THEN
    PERFORM pg_notify('table_changes', TG_TABLE_NAME);
    RETURN NULL;
  END IF;
  SELECT string_agg(DISTINCT e.key, ',') INTO cols
    FROM old_rows o JOIN new_rows w ON w.id = o.id
    CROSS JOIN LATERAL jsonb_each(to_jsonb(o)) e
   WHERE to_jsonb(w) -> e.key IS DISTINCT FROM e.value;
  IF cols IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('table_changes', CASE WHEN length(cols) > 7000 THEN TG_TABLE_NAME
                                          ELSE TG_TABLE_NAME || ':' || cols END);
  RETURN NULL;
END
$$;

-- Gives `tab` (with a table_changed trigger and an id column) the UPDATE trigger above; true when it did.
CREATE OR REPLACE FUNCTION track_updated_columns(tab text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  trig text;
BEGIN
  SELECT t.tgname INTO trig
    FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
   WHERE t.tgrelid = to_regclass(quote_ident(tab)) AND p.proname = 'table_changed' AND NOT t.tgisinternal
   LIMIT 1;
  IF trig IS NULL OR NOT EXISTS (SELECT 1 FROM pg_attribute a
                                  WHERE a.attrelid = to_regclass(quote_ident(tab)) AND a.attname = 'id'
                                    AND NOT a.attisdropped) THEN
    RETURN false;
  END IF;
  EXECUTE format('DROP TRIGGER %I ON %I', trig, tab);
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR DELETE OR TRUNCATE ON %I '
                 'FOR EACH STATEMENT EXECUTE FUNCTION table_changed()', trig, tab);
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', left(tab || '_table_updated', 63), tab);
  EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '
                 'FOR EACH STATEMENT EXECUTE FUNCTION table_updated()', left(tab || '_table_updated', 63), tab);
  RETURN true;
END
$$;

SELECT track_updated_columns(c.relname)
  FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_proc p ON p.oid = t.tgfoid
 WHERE p.proname = 'table_changed' AND NOT t.tgisinternal;
