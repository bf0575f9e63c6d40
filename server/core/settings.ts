import { settingsSchemas, type SettingsGroup, type SettingsOf } from '../../schemas/settings.ts';
import type { Queryable } from '../db/index.ts';

/**
 * Reads one settings group, filling defaults for anything unset. A stored value that no longer parses
 * (say, after a schema change) falls back to the defaults key by key rather than failing the request.
 */
export async function getSettings<G extends SettingsGroup>(db: Queryable, group: G): Promise<SettingsOf<G>> {
  const { rows } = await db.query<{ value: Record<string, unknown> }>(
    'SELECT value FROM settings WHERE name = $1',
    [group],
  );
  const schema = settingsSchemas[group];
  const parsed = schema.safeParse(rows[0]?.value ?? {});
  if (parsed.success) return parsed.data as SettingsOf<G>;
  return schema.parse({}) as SettingsOf<G>;
}
