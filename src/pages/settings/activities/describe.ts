import { ACTIVITY_REFERENCES } from '../../../../resources/activities.ts';
import type { Resource } from '../../../../resources/define.ts';
import { fieldsOf, type FieldInfo } from '../../../../resources/fields.ts';
import { resources as registered } from '../../../../resources/index.ts';
import { SETTINGS_MENU, type MenuItem } from '../../../../schemas/permissions.ts';
import { formatDateTime, formatNative } from '../../../lib/localeDate.ts';

/**
 * Turns activity log rows into plain words, generically from the resource registry (resources/fields.ts)
 * and the locale catalogues: the action ("Created staff member"), the subject (its representation, linked,
 * or "deleted"), and each change with its field label and values as people read them (references by name,
 * enum and dictionary labels, Yes/No, permission names as page names). Nothing here shows raw JSON.
 */

/** A log row as `GET v1/user/logs` and the dashboard send it (see server/modules/activities/names.ts). */
export interface ActivityRow {
  id: string;
  action: string;
  subject_type?: string | null;
  subject_id?: string | null;
  changes?: Record<string, unknown> | null;
  /** Changed fields whose values the reader may not see (server/modules/activities/access.ts). */
  changes_withheld?: string[];
  subject?: { label: string | null; deleted: boolean } | null;
  names?: Record<string, Record<string, string>>;
  operator?: { id: string; username: string | null; name: string | null } | null;
  created_at?: string;
  /** The bulk call or import that wrote the row, and whether the caller may still undo it (issue 36). */
  operation_id?: string | null;
  undoable?: boolean;
}

/** i18next's `t`, as far as this file needs it. */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** One change as shown: field label, and the value before and after (before is null for a plain value). */
export interface ChangeLine {
  field: string;
  label: string;
  before: string | null;
  after: string;
  /** For list values (roles, permissions): what was added and removed, instead of both whole lists. */
  added?: string[];
  removed?: string[];
}

const VERBS = ['create', 'update', 'delete'] as const;
/** Masked write-only values (server/engine/write/audit.ts MASK). */
const MASK = '******';
const MAX_TEXT = 80;

/** `t(key)` or `fallback` when the catalogue has no such key. */
function tOr(t: Translate, key: string, fallback: string, options?: Record<string, unknown>): string {
  const text = t(key, options);
  return text === key || text === '' ? fallback : text;
}

export function findResource(name: string | null | undefined, list: readonly Resource[] = registered) {
  return name ? list.find((r) => r.name === name) : undefined;
}

/** A resource's (or another audited subject's) name in the singular: "Staff member", "员工". */
export function subjectTypeName(t: Translate, type: string): string {
  if (findResource(type)) return tOr(t, `resources.${type}.name`, type, { count: 1, smart_count: 1 });
  return tOr(t, `app.activity.subjects.${type}`, type);
}

/**
 * The action in words: a known event (`auth.login` -> "Signed in"), else `<resource>.<verb>` ->
 * "Created staff member" / "新建员工", else the key itself.
 */
export function actionLabel(t: Translate, action: string, language: string): string {
  const known = tOr(t, `app.activity.actions.${action}`, '');
  if (known) return known;
  const dot = action.lastIndexOf('.');
  const type = action.slice(0, dot);
  const verb = action.slice(dot + 1);
  if (dot > 0 && (VERBS as readonly string[]).includes(verb)) {
    const name = subjectTypeName(t, type);
    // English puts the noun mid-sentence ("Created staff member"); Chinese has no case.
    const noun = language.startsWith('en') ? name.charAt(0).toLowerCase() + name.slice(1) : name;
    return t(`app.activity.verbs.${verb}`, { name: noun });
  }
  return action;
}

/** The events audited besides record writes (the keys of `app.activity.actions`; a test keeps them equal). */
export const KNOWN_ACTIONS = [
  'auth.login',
  'auth.logout',
  'auth.login_failed',
  'auth.register',
  'auth.password_reset',
  'auth.password_changed',
  'auth.profile_updated',
  'auth.wechat_link',
  'auth.wechat_unlink',
  'auth.session_ended',
  'auth.sessions_ended',
  'auth.token_created',
  'auth.token_revoked',
  'auth.totp_enabled',
  'auth.totp_disabled',
  'auth.mfa_challenge',
  'auth.mfa_enrolment_required',
  'auth.mfa_reset',
  'auth.passkey_added',
  'auth.passkey_deleted',
  'settings.update',
  'modules.enable',
  'modules.disable',
  'staff.join',
  'staff.invitation',
  'staff.invitation_sent',
  'system.bootstrap',
  'views.create',
  'views.update',
  'views.delete',
] as const;

/**
 * Every action the log can hold, named in the current language and sorted by that name: the events above
 * and `<resource>.<verb>` for each audited resource. The action filter offers these, so people search
 * "新建员工" / "Created staff member", never `staff.create`.
 */
export function actionChoices(
  t: Translate,
  language: string,
  list: readonly Resource[] = registered,
): { id: string; name: string }[] {
  const writes = list
    .filter((r) => r.name !== 'activities')
    .flatMap((r) => VERBS.map((verb) => `${r.name}.${verb}`));
  return [...new Set([...KNOWN_ACTIONS, ...writes])]
    .map((id) => ({ id, name: actionLabel(t, id, language) }))
    .sort((a, b) => a.name.localeCompare(b.name, language));
}

/** Where the subject lives in the settings area, and how it reads. */
export function subjectOf(
  t: Translate,
  row: ActivityRow,
): { text: string; to: string | null; deleted: boolean } | null {
  const type = row.subject_type;
  const id = row.subject_id;
  if (!type) return null;
  if (type === 'settings') {
    const group = id ? tOr(t, `settings.general.tabs.${id}`, id) : '';
    return {
      text: [subjectTypeName(t, type), group].filter(Boolean).join(' · '),
      to: '/settings',
      deleted: false,
    };
  }
  if (type === 'modules') return { text: id ?? '', to: '/settings/modules', deleted: false };
  const resource = findResource(type);
  if (resource && id && row.subject) {
    if (row.subject.deleted) return { text: `${subjectTypeName(t, type)} #${id}`, to: null, deleted: true };
    return {
      text: row.subject.label || `${subjectTypeName(t, type)} #${id}`,
      to: `/settings/${resource.name}/${encodeURIComponent(id)}`,
      deleted: false,
    };
  }
  return {
    text: id ? `${subjectTypeName(t, type)} #${id}` : subjectTypeName(t, type),
    to: null,
    deleted: false,
  };
}

/** Page names of the settings menu by permission name, with `<page>.<action>` as "Staff · Create". */
export function permissionLabel(
  t: Translate,
  name: string,
  menu: readonly MenuItem[] = SETTINGS_MENU,
): string {
  const pages = new Map<string, string>();
  const walk = (items: readonly MenuItem[]) => {
    for (const item of items) {
      if (item.name) pages.set(item.name, t(item.title));
      walk(item.children ?? []);
    }
  };
  walk(menu);
  const page = pages.get(name);
  if (page) return page;
  const dot = name.lastIndexOf('.');
  const parent = pages.get(name.slice(0, dot));
  if (parent)
    return `${parent} · ${tOr(t, `settings.people.roles.actions.${name.slice(dot + 1)}`, name.slice(dot + 1))}`;
  return name;
}

function isFlag(info: FieldInfo | undefined): boolean {
  return (
    info?.kind === 'boolean' ||
    (info?.kind === 'int' && info.intRange?.min === 0n && info.intRange.max === 1n)
  );
}

function shorten(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}

interface ValueContext {
  t: Translate;
  language: string;
  resource?: Resource;
  info?: FieldInfo;
  names: Record<string, Record<string, string>>;
  /** Labels of a dictionary field's values, when known. */
  dictionary?: Record<string, string>;
  /** The resource an event field that is no record field names (ACTIVITY_REFERENCES), read by name. */
  target?: string;
}

/** The items of a list value, each in words (references by name, permission names as pages). */
function listItems(value: unknown[], ctx: ValueContext): string[] {
  const target = ctx.info?.meta.relation?.resource ?? ctx.target;
  return value.map((item) => {
    const id = String(item);
    if (target) return ctx.names[target]?.[id] ?? `#${id}`;
    if (typeof item === 'string' && item.includes('.')) return permissionLabel(ctx.t, item);
    return valueText(item, { ...ctx, info: undefined });
  });
}

/** One value in words. Empty values read "—". */
export function valueText(value: unknown, ctx: ValueContext): string {
  const { t, info, resource } = ctx;
  if (value === null || value === undefined || value === '') return '—';
  if (value === MASK) return MASK;
  if (isFlag(info) || typeof value === 'boolean') {
    const on = value === true || value === 1 || value === '1' || value === 'true';
    return t(on ? 'app.activity.yes' : 'app.activity.no');
  }
  if (info?.kind === 'reference' && ctx.names && info.meta.relation) {
    const id = String(value);
    return ctx.names[info.meta.relation.resource]?.[id] ?? `#${id}`;
  }
  if (!info && ctx.target && (typeof value === 'string' || typeof value === 'number')) {
    return ctx.names[ctx.target]?.[String(value)] ?? `#${String(value)}`;
  }
  if (info?.meta.dictionary && typeof value === 'string') return ctx.dictionary?.[value] ?? value;
  if (info?.kind === 'enum' && resource) {
    return tOr(t, `resources.${resource.name}.enums.${info.name}.${String(value)}`, String(value));
  }
  if (info?.kind === 'datetime' && typeof value === 'string' && !Number.isNaN(Date.parse(value))) {
    return formatDateTime(value, ctx.language);
  }
  if (info?.kind === 'date' && typeof value === 'string') {
    return formatNative(value, 'date', ctx.language) || value;
  }
  if (Array.isArray(value)) return listItems(value, ctx).join(', ') || '—';
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) =>
        Array.isArray(inner)
          ? listItems(inner, { ...ctx, info: undefined }).join(', ') || '—'
          : `${key}: ${valueText(inner, { ...ctx, info: undefined })}`,
      )
      .join('; ');
  }
  // Words of account events (`reason: wrong_password`); a record's own text stays as it is.
  if (typeof value === 'string') return shorten(info ? value : tOr(t, `app.activity.values.${value}`, value));
  return String(value);
}

/** The list inside a value, if it is one: an array, or an object holding one array (`{ menu_ids: [...] }`). */
function asList(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') {
    const inner = Object.values(value);
    if (inner.length === 1 && Array.isArray(inner[0])) return inner[0];
  }
  return value === null || value === undefined ? [] : null;
}

/** A field's label: the resource's own, a settings key's, an account event's, or the key itself. */
export function fieldLabelOf(t: Translate, row: ActivityRow, field: string): string {
  const resource = findResource(row.subject_type);
  const info = resource ? fieldsOf(resource).find((f) => f.name === field) : undefined;
  if (resource) {
    const key = info?.meta.label ?? `resources.${resource.name}.fields.${field}`;
    const text = tOr(t, key, '');
    if (text) return text;
  }
  if (row.subject_type === 'settings') {
    const text = tOr(t, `settings.general.fields.${field}`, '');
    if (text) return text;
  }
  return tOr(t, `app.activity.fields.${field}`, field);
}

/**
 * The row's changes in words. A `[before, after]` pair of lists becomes added/removed items; any other pair
 * becomes before -> after; a plain value (account events: `reason`, `remember`) is shown as it is.
 */
export function changeLines(
  t: Translate,
  row: ActivityRow,
  language: string,
  dictionaries: Record<string, Record<string, string>> = {},
): ChangeLine[] {
  const changes = row.changes;
  if (!changes || typeof changes !== 'object') return [];
  const resource = findResource(row.subject_type);
  const fields = resource ? fieldsOf(resource) : [];
  // A record's `version: [old, new]` numbers its history (issue 36); it is no change a reader made, and
  // `operation_id` links the row to its bulk call or import (answered as the row's own `operation_id`).
  const shown = Object.entries(changes).filter(
    ([field]) => !(resource && (field === 'version' || field === 'operation_id')),
  );
  return shown.map(([field, raw]) => {
    const info = fields.find((f) => f.name === field);
    const ctx: ValueContext = {
      t,
      language,
      resource,
      info,
      names: row.names ?? {},
      dictionary: info?.meta.dictionary ? dictionaries[info.meta.dictionary] : undefined,
      target: !info && Object.hasOwn(ACTIVITY_REFERENCES, field) ? ACTIVITY_REFERENCES[field] : undefined,
    };
    const label = fieldLabelOf(t, row, field);
    if (!Array.isArray(raw) || raw.length !== 2)
      return { field, label, before: null, after: valueText(raw, ctx) };
    const [before, after] = raw as [unknown, unknown];
    const oldList = asList(before);
    const newList = asList(after);
    const isList = [before, after].some((v) => v !== null && typeof v === 'object');
    if (isList && oldList && newList) {
      const listCtx = info?.kind === 'references' || ctx.target ? ctx : { ...ctx, info: undefined };
      // Items of an inline list are objects (`{ id, name }`, issue 36): compared whole.
      const keyOf = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v));
      const oldKeys = oldList.map(keyOf);
      const newKeys = newList.map(keyOf);
      return {
        field,
        label,
        before: valueText(before, ctx),
        after: valueText(after, ctx),
        added: listItems(
          newList.filter((v) => !oldKeys.includes(keyOf(v))),
          listCtx,
        ),
        removed: listItems(
          oldList.filter((v) => !newKeys.includes(keyOf(v))),
          listCtx,
        ),
      };
    }
    return { field, label, before: valueText(before, ctx), after: valueText(after, ctx) };
  });
}

/**
 * The changed fields whose values were withheld from the reader (no read permission on what the row is
 * about), as one line: "Changed, values not shown: Name, Permissions"; null when nothing was withheld.
 */
export function withheldText(t: Translate, row: ActivityRow): string | null {
  const fields = row.changes_withheld ?? [];
  if (fields.length === 0) return null;
  return t('app.activity.withheld', {
    fields: fields.map((field) => fieldLabelOf(t, row, field)).join(', '),
  });
}
