import type { FastifyRequest } from 'fastify';
import * as z from 'zod';
import { PERMISSION, actionPermission } from '../../schemas/permissions.ts';
import { DELIVERY_KEYS, settingsSchemas, type SettingsGroup } from '../../schemas/settings.ts';
import { templateIssues } from '../../schemas/mailTemplates.ts';
import { ok } from '../core/envelope.ts';
import { route, unchecked } from '../core/route.ts';
import { AppError } from '../core/errors.ts';
import { validate } from '../core/validate.ts';
import { can, requirePermission, type Principal } from '../core/principal.ts';
import { getSettings } from '../core/settings.ts';
import type { AppModule } from '../core/app-module.ts';
import type { Db } from '../db/index.ts';
import { actorOf, type Actor } from '../core/activity.ts';
import { writeActorActivity } from '../engine/activity-log.ts';
import { deliveryHostRefusal, UNSAFE_SMTP_PARAMS, type DeliveryPolicy } from '../core/delivery-guard.ts';
import { resolveMailer } from '../mail/mailer.ts';
import { notifyDeliveryChange } from './delivery-notice.ts';

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
/**
 * Write-only keys inside lists of entries (`login.oidc_providers[].client_secret`): never answered
 * (`<key>_set` instead), kept from the stored entry with the same `match` key when a save omits them.
 */
export const LIST_SECRET_KEYS: Partial<Record<string, Record<string, { match: string; secret: string }>>> = {
  login: { oidc_providers: { match: 'id', secret: 'client_secret' } },
};
const MASK = '******';

/** `GET/POST /api/v1/settings/<name>`: one settings group, validated by its zod schema, audited on change. */
export const settingsModule: AppModule = {
  name: 'settings',
  register(app, { db, config }) {
    // An unknown group is a 404 (a path that names nothing).
    const params = z.object({ name: z.enum(groupNames()) });
    const read = async (group: SettingsGroup) =>
      ok(withFacts(group, redact(group, await getSettings(db, group)), config));
    const write = async (
      group: SettingsGroup,
      body: unknown,
      principal: Principal,
      request: FastifyRequest,
    ) => {
      const actor = actorOf(request, principal.userId);
      // The notice goes through the mail server as it was before the change: a new one could swallow it.
      const noticeMailer = DELIVERY_KEYS[group] ? await resolveMailer({ db, config }) : null;
      const { saved, deliveryChanged } = await saveSettingsGroup(db, {
        group,
        body,
        actor,
        delivery: { allowed: can(principal, PERMISSION.settingsDelivery), policy: config },
      });
      if (deliveryChanged.length)
        notifyDeliveryChange(
          { db, config, log: request.log },
          { mailer: noticeMailer, actor, keys: deliveryChanged, locale: request.locale },
        );
      return ok(withFacts(group, saved, config));
    };

    // One documented pair of routes per group, so each body and answer has its own schema (a generated
    // client gets `postSettingsSite` taking the site group); `:name` below serves the same for any group.
    for (const group of groupNames()) {
      const url = `/api/v1/settings/${group}`;
      const answer = { 200: groupAnswerSchema(group) };
      route(app, {
        method: 'GET',
        url,
        tags: ['settings'],
        summary: `Read the ${group} settings group (secrets only say whether set)`,
        access: (request) => requireAll(request, SETTINGS_READ),
        responses: answer,
        handler: async () => read(group),
      });
      route(app, {
        method: 'POST',
        url,
        tags: ['settings'],
        summary: `Replace the ${group} settings group; an omitted or empty secret keeps its stored value`,
        access: (request) => requireAll(request, SETTINGS_WRITE),
        // saveSettingsGroup validates it, strictly (keys left out take their defaults).
        body: unchecked(settingsSchemas[group].strict().meta({ 'x-name': `Settings${pascal(group)}Body` })),
        responses: answer,
        handler: async ({ body, principal, request }) => write(group, body, principal, request),
      });
    }

    // Any group by name: the same as the routes above, left out of the document (they describe each group).
    const anyGroup = { 200: z.record(z.string(), z.unknown()) };
    route(app, {
      method: 'GET',
      url: '/api/v1/settings/:name',
      tags: ['settings'],
      summary: 'Read one settings group (secrets only say whether set)',
      access: (request) => requireAll(request, SETTINGS_READ),
      params,
      responses: anyGroup,
      openapi: { hide: true },
      handler: async ({ params: { name: group } }) => read(group),
    });

    route(app, {
      method: 'POST',
      url: '/api/v1/settings/:name',
      tags: ['settings'],
      summary: 'Replace one settings group; an omitted or empty secret keeps its stored value',
      access: (request) => requireAll(request, SETTINGS_WRITE),
      params,
      // saveSettingsGroup validates the group the path names, strictly.
      body: unchecked(),
      responses: anyGroup,
      openapi: { hide: true },
      handler: async ({ params: { name: group }, body, principal, request }) =>
        write(group, body, principal, request),
    });
  },
};

/**
 * Replaces one settings group (the operation behind `POST settings/<name>`; no access check of its own beyond
 * `delivery`): validates the whole group strictly (an omitted or empty secret keeps its stored value), stores
 * it and writes one audit row with the changed keys (secrets masked) when anything changed. A change of a
 * delivery key (`DELIVERY_KEYS`) is a 403 unless `delivery.allowed`, and its SMTP host or SMS endpoint must
 * pass the delivery guard (422). Answers the group as a reader sees it (secrets only say whether set) and the
 * delivery keys that changed.
 */
export async function saveSettingsGroup(
  db: Db,
  {
    group,
    body,
    actor,
    delivery,
  }: {
    group: SettingsGroup;
    body: unknown;
    actor: Actor;
    delivery: { allowed: boolean; policy: DeliveryPolicy };
  },
): Promise<{ saved: Record<string, unknown>; deliveryChanged: string[] }> {
  const before = (await getSettings(db, group)) as Record<string, unknown>;
  const input = { ...((body as Record<string, unknown> | undefined) ?? {}) };
  for (const key of SECRET_KEYS[group] ?? []) {
    if (input[key] === undefined || input[key] === '') input[key] = before[key];
  }
  keepListSecrets(group, before, input);
  const after = validate(settingsSchemas[group].strict(), input) as Record<string, unknown>;
  // Checked on save only: a stored template that fails it must not reset the group to its defaults on read.
  if (group === 'message') {
    const issues = templateIssues(after.templates as Record<string, Record<string, string>>);
    if (Object.keys(issues).length) throw AppError.validation(issues);
  }
  const changes = diff(group, before, after);
  const deliveryChanged = (DELIVERY_KEYS[group] ?? []).filter((key) => key in changes);
  if (deliveryChanged.length) {
    if (!delivery.allowed)
      throw new AppError(403, 'settings.general.errors.delivery_forbidden', {
        fields: Object.fromEntries(
          deliveryChanged.map((key) => [key, ['settings.general.errors.delivery_forbidden']]),
        ),
      });
    await assertDeliveryTargets(group, after, delivery.policy);
  }
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
  return { saved: redact(group, after), deliveryChanged };
}

/** 422 naming the field when the group's SMTP URL or SMS endpoint is malformed or refused by the guard. */
async function assertDeliveryTargets(
  group: SettingsGroup,
  value: Record<string, unknown>,
  policy: DeliveryPolicy,
): Promise<void> {
  let field: string;
  let url: string;
  let protocols: string[];
  if (group === 'message') {
    [field, url, protocols] = ['smtp_url', String(value.smtp_url ?? ''), ['smtp:', 'smtps:']];
  } else if (group === 'sms' && value.provider === 'http') {
    [field, url, protocols] = ['endpoint', String(value.endpoint ?? ''), ['http:', 'https:']];
  } else return;
  if (!url) return;
  let host: string;
  try {
    const parsed = new URL(url);
    if (!protocols.includes(parsed.protocol) || !parsed.hostname) throw new Error('no host');
    // An SMTP URL's query may not send the connection elsewhere (nodemailer's proxy, service, ...).
    if (field === 'smtp_url' && UNSAFE_SMTP_PARAMS.some((key) => parsed.searchParams.has(key)))
      throw new Error('unsafe parameter');
    host = parsed.hostname;
  } catch {
    throw AppError.validation({ [field]: [`settings.general.errors.${field}`] });
  }
  const refusal = await deliveryHostRefusal(policy, host);
  if (refusal) throw AppError.validation({ [field]: [refusal] });
}

/** 401/403 unless the caller holds every one of `names`. */
async function requireAll(request: FastifyRequest, names: readonly string[]): Promise<Principal> {
  let principal: Principal | null = null;
  for (const name of names) principal = await requirePermission(request, name);
  return principal!;
}

/** A group as answered: its fields, each secret replaced by `<key>_set`. */
function groupAnswerSchema(group: SettingsGroup): z.ZodObject {
  const schema = settingsSchemas[group] as z.ZodObject;
  const secrets = SECRET_KEYS[group] ?? [];
  const shape = Object.fromEntries(Object.entries(schema.shape).filter(([key]) => !secrets.includes(key)));
  for (const key of secrets) shape[`${key}_set`] = z.boolean().describe(`whether ${key} is set`);
  Object.assign(shape, FACTS[group]?.shape ?? {});
  return z.object(shape).meta({ 'x-name': `Settings${pascal(group)}` });
}

/** `site` -> `Site`: named schemas `SettingsSite` (the answer) and `SettingsSiteBody` (core/openapi.ts). */
const pascal = (name: string) =>
  name.replace(/(^|_)([a-z])/g, (_, _sep: string, c: string) => c.toUpperCase());

function groupNames(): [SettingsGroup, ...SettingsGroup[]] {
  return Object.keys(settingsSchemas) as [SettingsGroup, ...SettingsGroup[]];
}

/**
 * Read-only facts a group's answer carries beside its keys, never stored or accepted in a body: for
 * `message`, where the SMTP URL mail goes through comes from (the group's own `smtp_url` wins over the
 * environment's `SMTP_URL`, as server/mail/mailer.ts resolves it). Neither URL is ever answered.
 */
const FACTS: Partial<Record<SettingsGroup, z.ZodObject>> = {
  message: z.object({
    smtp_url_source: z
      .enum(['settings', 'environment', 'none'])
      .describe('where the SMTP URL in use comes from: these settings, SMTP_URL of the environment, or none'),
  }),
};

function withFacts(
  group: SettingsGroup,
  answer: Record<string, unknown>,
  config: { smtpUrl: string | null },
): Record<string, unknown> {
  if (group !== 'message') return answer;
  const source = answer.smtp_url_set === true ? 'settings' : config.smtpUrl ? 'environment' : 'none';
  return { ...answer, smtp_url_source: source };
}

function redact(group: string, value: object): Record<string, unknown> {
  const out: Record<string, unknown> = { ...value };
  for (const key of SECRET_KEYS[group] ?? []) {
    out[`${key}_set`] = Boolean(out[key]);
    delete out[key];
  }
  for (const [list, { secret }] of Object.entries(LIST_SECRET_KEYS[group] ?? {})) {
    if (!Array.isArray(out[list])) continue;
    out[list] = (out[list] as Record<string, unknown>[]).map(({ [secret]: value, ...entry }) => ({
      ...entry,
      [`${secret}_set`]: Boolean(value),
    }));
  }
  return out;
}

/** An entry saved without its secret (or with '') keeps the stored entry's secret, matched by its key. */
function keepListSecrets(
  group: string,
  before: Record<string, unknown>,
  input: Record<string, unknown>,
): void {
  for (const [list, { match, secret }] of Object.entries(LIST_SECRET_KEYS[group] ?? {})) {
    if (!Array.isArray(input[list])) continue;
    const stored = new Map(
      ((before[list] as Record<string, unknown>[] | undefined) ?? []).map((entry) => [entry[match], entry]),
    );
    input[list] = (input[list] as unknown[]).map((entry) => {
      if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return entry;
      const { [`${secret}_set`]: _set, ...rest } = entry as Record<string, unknown>;
      if (rest[secret] !== undefined && rest[secret] !== '') return rest;
      return { ...rest, [secret]: stored.get(rest[match])?.[secret] ?? '' };
    });
  }
}

/** The value as the audit row shows it: secrets inside lists masked. */
function masked(group: string, key: string, value: unknown): unknown {
  const spec = LIST_SECRET_KEYS[group]?.[key];
  if (!spec || !Array.isArray(value)) return value;
  return (value as Record<string, unknown>[]).map((entry) =>
    entry[spec.secret] ? { ...entry, [spec.secret]: MASK } : entry,
  );
}

function diff(group: string, before: Record<string, unknown>, after: Record<string, unknown>) {
  const secrets = new Set(SECRET_KEYS[group] ?? []);
  const changes: Record<string, [unknown, unknown]> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    changes[key] = secrets.has(key)
      ? [MASK, MASK]
      : [masked(group, key, before[key]) ?? null, masked(group, key, after[key]) ?? null];
  }
  return changes;
}
