import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.ts';
import type { Db, Queryable } from '../../db/index.ts';
import { hubFor, publishEvent } from '../../events/hub.ts';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { moduleOfPath, type ModuleInfo } from './catalogue.ts';

/** Module states live in the settings table under this name: `{ "disabled": ["wechat", ...] }`. */
export const MODULES_SETTING = 'modules';
/** Other servers learn of a change through the `modules` event; this bounds the wait if one is missed. */
const CACHE_MS = 5_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** Menu names of disabled modules (set by the module gate; absent when it is not registered). */
    hiddenMenus?: ReadonlySet<string>;
  }
}

interface Cache {
  disabled: Set<string>;
  loadedAt: number;
  loading: Promise<Set<string>> | null;
}
const caches = new WeakMap<Db, Cache>();

/** Whether a settings menu item belongs to a disabled module (GET v1/system/menus hides it). */
export function isMenuHidden(request: FastifyRequest, name: string): boolean {
  return request.hiddenMenus?.has(name) ?? false;
}

/** The names of the disabled modules (cached for a few seconds, refreshed at once on a change). */
export async function disabledModules(db: Db): Promise<Set<string>> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = { disabled: new Set(), loadedAt: 0, loading: null }));
  if (Date.now() - cache.loadedAt < CACHE_MS) return cache.disabled;
  const current = cache;
  current.loading ??= readDisabled(db)
    .then((set) => {
      current.disabled = set;
      current.loadedAt = Date.now();
      return set;
    })
    .finally(() => {
      current.loading = null;
    });
  return current.loading;
}

/** Switches a module on or off (row locked, so two servers changing modules at once lose nothing). */
export async function setModuleState(db: Db, name: string, isEnabled: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO settings (name, value) VALUES ($1, '{"disabled": []}'::jsonb) ON CONFLICT (name) DO NOTHING`,
      [MODULES_SETTING],
    );
    const disabled = await readDisabled(tx, ' FOR UPDATE');
    if (isEnabled) disabled.delete(name);
    else disabled.add(name);
    await tx.query(
      `UPDATE settings SET value = jsonb_set(value, '{disabled}', $2::jsonb), updated_at = now() WHERE name = $1`,
      [MODULES_SETTING, JSON.stringify([...disabled].sort())],
    );
  });
  caches.delete(db);
  await publishEvent(db, {
    type: 'modules',
    data: { name, enabled: isEnabled },
    permission: PERMISSION.settings,
  });
}

/**
 * Answers 404 for the API of a disabled module (as if the route did not exist) and tells the menu route
 * which items to hide. Registered on the root instance, so it sees every route.
 */
export function registerModuleGate(app: FastifyInstance, db: Db, catalogue: readonly ModuleInfo[]): void {
  hubFor(db).on('modules', () => caches.delete(db));
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const disabled = await disabledModules(db);
    if (disabled.size === 0) return;
    const owner = moduleOfPath(catalogue, request.url);
    if (owner && !owner.isCore && disabled.has(owner.name)) throw new AppError(404, 'errors.route_not_found');
    request.hiddenMenus = new Set(
      catalogue.filter((m) => !m.isCore && disabled.has(m.name)).flatMap((m) => m.menus),
    );
  });
}

async function readDisabled(db: Queryable, lock = ''): Promise<Set<string>> {
  const { rows } = await db.query<{ value: { disabled?: unknown } }>(
    `SELECT value FROM settings WHERE name = $1${lock}`,
    [MODULES_SETTING],
  );
  const list = rows[0]?.value.disabled;
  return new Set(Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []);
}
