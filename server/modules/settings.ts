import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PERMISSION, actionPermission } from '../../schemas/permissions.ts';
import { settingsSchemas, type SettingsGroup } from '../../schemas/settings.ts';
import { ok } from '../core/envelope.ts';
import { answerJson, inputJson } from '../core/openapi.ts';
import { AppError } from '../core/errors.ts';
import { validate } from '../core/validate.ts';
import { requirePermission, type Principal } from '../core/principal.ts';
import { getSettings } from '../core/settings.ts';
import type { AppModule } from '../core/app-module.ts';
import type { Db } from '../db/index.ts';
import { actorOf, writeActorActivity, type Actor } from '../core/activity.ts';

/** Keys that are write-only: never returned, only whether they are set (`<key>_set`). */
export const SECRET_KEYS: Partial<Record<string, readonly string[]>> = {
  sms: ['access_key_secret'],
  login: ['wechat_app_secret'],
  message: ['smtp_url'],
};
/**
 * Reading a group needs the settings group name *and* the general settings page (a group name never grants a
 * page by itself: ticking only "Dictionaries" also saves `system.settings`); writing needs the page's
 * grantable `update` action too (API contract, Amendments, "General settings").
 */
export const SETTINGS_READ = [PERMISSION.settings, PERMISSION.settingsGeneral] as const;
export const SETTINGS_WRITE = [
  ...SETTINGS_READ,
  actionPermission(PERMISSION.settingsGeneral, 'update'),
] as const;
const MASK = '******';

/** `GET/POST /api/v1/settings/<name>`: one settings group, validated by its zod schema, audited on change. */
export const settingsModule: AppModule = {
  name: 'settings',
  register(app, { db }) {
    const params = inputJson(z.object({ name: z.enum(groupNames()) }));
    const groupAnswer = { 200: answerJson(z.record(z.string(), z.unknown())) };
    // Documents what a group takes (the handler validates the one the path names, strictly).
    const groupBody = z
      .xor(Object.values(settingsSchemas).map((group) => (group as z.ZodObject).partial()))
      .describe(`The group's fields (one of the groups ${groupNames().join(', ')})`);

    app.get<{ Params: { name: string } }>(
      '/api/v1/settings/:name',
      {
        schema: {
          tags: ['settings'],
          summary: 'Read one settings group (secrets only say whether set)',
          params,
          response: groupAnswer,
        },
      },
      async (request) => {
        await requireAll(request, SETTINGS_READ);
        const group = groupOf(request);
        return ok(redact(group, await getSettings(db, group)));
      },
    );

    app.post<{ Params: { name: string } }>(
      '/api/v1/settings/:name',
      {
        schema: {
          tags: ['settings'],
          summary: 'Replace one settings group; an omitted or empty secret keeps its stored value',
          params,
          body: inputJson(groupBody),
          response: groupAnswer,
        },
      },
      async (request) => {
        const principal = await requireAll(request, SETTINGS_WRITE);
        const saved = await saveSettingsGroup(db, {
          group: groupOf(request),
          body: request.body,
          actor: actorOf(request, principal.userId),
        });
        return ok(saved);
      },
    );
  },
};

/**
 * Replaces one settings group (the operation behind `POST settings/<name>`; no access check of its own):
 * validates the whole group strictly (an omitted or empty secret keeps its stored value), stores it and
 * writes one audit row with the changed keys (secrets masked) when anything changed. Answers the group as
 * a reader sees it (secrets only say whether set).
 */
export async function saveSettingsGroup(
  db: Db,
  { group, body, actor }: { group: SettingsGroup; body: unknown; actor: Actor },
): Promise<Record<string, unknown>> {
  const before = (await getSettings(db, group)) as Record<string, unknown>;
  const input = { ...((body as Record<string, unknown> | undefined) ?? {}) };
  for (const key of SECRET_KEYS[group] ?? []) {
    if (input[key] === undefined || input[key] === '') input[key] = before[key];
  }
  const after = validate(settingsSchemas[group].strict(), input) as Record<string, unknown>;
  const changes = diff(group, before, after);
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO settings (name, value, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [group, JSON.stringify(after)],
    );
    if (Object.keys(changes).length)
      await writeActorActivity(tx, actor, {
        action: 'settings.update',
        subjectType: 'settings',
        subjectId: group,
        changes,
      });
  });
  return redact(group, after);
}

/** 401/403 unless the caller holds every one of `names`. */
async function requireAll(request: FastifyRequest, names: readonly string[]): Promise<Principal> {
  let principal: Principal | null = null;
  for (const name of names) principal = await requirePermission(request, name);
  return principal!;
}

function groupNames(): [SettingsGroup, ...SettingsGroup[]] {
  return Object.keys(settingsSchemas) as [SettingsGroup, ...SettingsGroup[]];
}

function groupOf(request: FastifyRequest): SettingsGroup {
  const name = (request.params as { name: string }).name;
  if (!Object.hasOwn(settingsSchemas, name)) throw AppError.notFound();
  return name as SettingsGroup;
}

function redact(group: string, value: object): Record<string, unknown> {
  const out: Record<string, unknown> = { ...value };
  for (const key of SECRET_KEYS[group] ?? []) {
    out[`${key}_set`] = Boolean(out[key]);
    delete out[key];
  }
  return out;
}

function diff(group: string, before: Record<string, unknown>, after: Record<string, unknown>) {
  const secrets = new Set(SECRET_KEYS[group] ?? []);
  const changes: Record<string, [unknown, unknown]> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    changes[key] = secrets.has(key) ? [MASK, MASK] : [before[key] ?? null, after[key] ?? null];
  }
  return changes;
}
