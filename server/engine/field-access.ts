import type { Resource } from '../../resources/define.ts';
import type { ComputedColumn } from '../../resources/meta.ts';
import { AppError } from '../core/errors.ts';
import type { Principal } from '../core/principal.ts';
import { permissionFor } from './access.ts';
import { fieldsOf, includeNameOf } from './schema/fields.ts';

/**
 * Field access (API contract, Amendments, "Who sees which rows and fields"): a role's `field_access` maps
 * `"<resource>.<field>"` to `hidden` or `read`. This module is the one place that turns the caller's roles
 * into the access of each field of a resource; every path asks it (answers: list/records.ts; queries:
 * list/query.ts; writes: `assertWritable`; CSV export and import; `GET v1/user/info`).
 */

export type FieldAccess = 'hidden' | 'read' | 'write';

const RANK: Record<FieldAccess, number> = { hidden: 0, read: 1, write: 2 };

/**
 * The caller's restricted fields of a resource (a field not in the map is writable as the resource allows):
 * the most permissive over the caller's roles that grant the resource (hold its read permission); a role
 * that does not name a field makes it writable. Administrators and callers without a staff record (the
 * engine's own calls) get an empty map. A caller none of whose roles grants the resource (an embedded child
 * read through its parent) gets the most permissive over all its roles.
 */
export function restrictedFields(
  principal: Principal | null | undefined,
  resource: Resource,
): Map<string, 'hidden' | 'read'> {
  const out = new Map<string, 'hidden' | 'read'>();
  if (!principal?.staff || principal.staff.isAdmin) return out;
  const roles = principal.roles ?? [];
  const read = permissionFor(resource, 'read');
  const granting = roles.filter((r) => r.permissions.has(read));
  const deciding = granting.length ? granting : roles;
  if (deciding.length === 0) return out;
  for (const f of fieldsOf(resource)) {
    const key = `${resource.name}.${f.name}`;
    let best: FieldAccess = 'hidden';
    for (const role of deciding) {
      const access: FieldAccess = Object.hasOwn(role.fieldAccess, key) ? role.fieldAccess[key]! : 'write';
      if (RANK[access] > RANK[best]) best = access;
    }
    if (best !== 'write') out.set(f.name, best);
  }
  // A computed value is as secret as what it is computed from: `price * stock` with `price` hidden would
  // tell the price (review of issue 35). Such a field is hidden too, on every path that asks this map.
  const hides = (name: string) => out.get(name) === 'hidden';
  for (const f of fieldsOf(resource)) {
    if (!f.meta.computed || hides(f.name)) continue;
    const inputs = inputsOf(f.meta.computed);
    if (inputs ? inputs.some(hides) : [...out.values()].includes('hidden')) out.set(f.name, 'hidden');
  }
  return out;
}

/**
 * The fields a computed column reads: the columns its SQL names through `c(name)`, or the keys its function
 * reads from a record (run once on an empty record that notes each key asked; null when it throws there:
 * it may read any field). Cached per declaration. A function may read more on a real record (a branch):
 * hideFields checks each record as well.
 */
function inputsOf(computed: ComputedColumn): readonly string[] | null {
  if (computedInputs.has(computed)) return computedInputs.get(computed)!;
  let known: readonly string[] | null;
  const read = new Set<string>();
  try {
    if (computed.sql)
      computed.sql((name) => {
        read.add(name);
        return 'NULL';
      });
    else
      computed.value?.(
        new Proxy(
          {},
          {
            get: (_, key) => (typeof key === 'string' && read.add(key), undefined),
            has: (_, key) => (typeof key === 'string' && read.add(key), false),
          },
        ),
      );
    known = [...read];
  } catch {
    known = null;
  }
  computedInputs.set(computed, known);
  return known;
}
const computedInputs = new WeakMap<ComputedColumn, readonly string[] | null>();

/** Whether a computed function, run on this record, reads one of the hidden fields (or throws). */
function readsHidden(
  value: NonNullable<ComputedColumn['value']>,
  record: Record<string, unknown>,
  hidden: ReadonlySet<string>,
): boolean {
  let reads = false;
  const note = (key: string | symbol) => {
    if (typeof key === 'string' && hidden.has(key)) reads = true;
  };
  try {
    value(
      new Proxy(record, {
        get: (target, key) => (note(key), Reflect.get(target, key)),
        has: (target, key) => (note(key), Reflect.has(target, key)),
      }),
    );
  } catch {
    return true;
  }
  return reads;
}

/** The fields of a resource the caller may not see. */
export function hiddenFields(principal: Principal | null | undefined, resource: Resource): Set<string> {
  const out = new Set<string>();
  for (const [name, access] of restrictedFields(principal, resource)) if (access === 'hidden') out.add(name);
  return out;
}

/**
 * The caller's effective restricted fields over every resource of the registry, as `GET v1/user/info`
 * answers them: `{ "<resource>.<field>": "hidden" | "read" }` for the resources its roles grant (empty for
 * administrators).
 */
export function effectiveFieldAccess(
  principal: Principal | null | undefined,
  registry: readonly Resource[],
): Record<string, 'hidden' | 'read'> {
  const out: Record<string, 'hidden' | 'read'> = {};
  for (const resource of registry) {
    const read = permissionFor(resource, 'read');
    if (!principal?.roles?.some((r) => r.permissions.has(read))) continue;
    for (const [name, access] of restrictedFields(principal, resource))
      out[`${resource.name}.${name}`] = access;
  }
  return out;
}

/**
 * Removes from records the fields the caller may not see: the hidden fields and the includes of hidden
 * relation fields; embedded records (includes, inline children) follow their own resource's access.
 * `registry` finds the embedded resources. Changes the records in place.
 */
export function hideFields(
  principal: Principal | null | undefined,
  resource: Resource,
  registry: readonly Resource[],
  records: Record<string, unknown>[],
): void {
  if (!principal?.staff || principal.staff.isAdmin || records.length === 0) return;
  const hidden = hiddenFields(principal, resource);
  const embedded: [string, Resource][] = [];
  for (const f of fieldsOf(resource)) {
    if (f.kind !== 'reference' && f.kind !== 'references') continue;
    const name = includeNameOf(f);
    if (hidden.has(f.name)) hidden.add(name);
    const target = registry.find((r) => r.name === f.meta.relation?.resource);
    if (target) embedded.push([name, target]);
  }
  for (const [name, spec] of Object.entries(resource.options.hasMany ?? {})) {
    const target = registry.find((r) => r.name === spec.resource);
    if (target) embedded.push([name, target]);
  }
  // A function's value that read a hidden field on this record (a branch the first run did not take).
  const derived = hidden.size
    ? fieldsOf(resource).filter((f) => f.meta.computed?.value && !hidden.has(f.name))
    : [];
  for (const record of records) {
    for (const f of derived) if (readsHidden(f.meta.computed!.value!, record, hidden)) delete record[f.name];
    for (const name of hidden) delete record[name];
    for (const [name, target] of embedded) {
      const value = record[name];
      if (Array.isArray(value))
        hideFields(
          principal,
          target,
          registry,
          value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null),
        );
      else if (value && typeof value === 'object')
        hideFields(principal, target, registry, [value as Record<string, unknown>]);
    }
  }
}

/**
 * 403 naming every field of `input` (a create or update body, before validation) the caller may not
 * write: a hidden or read-only field of the resource, or of an inline has-many item
 * (`<list>.<index>.<field>`, as the 422s of items name them).
 * A create may leave such fields out (the schema's default applies), except a required field without a
 * default: a caller who may not write one cannot create, and the 403 names it even when the body omits it.
 */
export function assertWritable(
  principal: Principal | null | undefined,
  resource: Resource,
  registry: readonly Resource[],
  input: unknown,
  kind: 'create' | 'update' = 'update',
): void {
  const denied = deniedFields(principal, resource, registry, input, kind);
  if (denied.length) throw fieldForbidden(denied);
}

/** The fields of `input` the caller may not write (see `assertWritable`). */
export function deniedFields(
  principal: Principal | null | undefined,
  resource: Resource,
  registry: readonly Resource[],
  input: unknown,
  kind: 'create' | 'update' = 'update',
): string[] {
  if (!principal?.staff || principal.staff.isAdmin) return [];
  if (!input || typeof input !== 'object' || Array.isArray(input)) return [];
  const body = input as Record<string, unknown>;
  const restricted = restrictedFields(principal, resource);
  const denied = Object.keys(body).filter((key) => restricted.has(key));
  // A create needs its required fields without a default: a caller who may not write one cannot create.
  if (kind === 'create')
    for (const f of fieldsOf(resource))
      if (!f.isOptional && restricted.has(f.name) && !denied.includes(f.name)) denied.push(f.name);
  for (const [list, spec] of Object.entries(resource.options.hasMany ?? {})) {
    const items = body[list];
    const child = registry.find((r) => r.name === spec.resource);
    if (!Array.isArray(items) || !child) continue;
    const childRestricted = restrictedFields(principal, child);
    items.forEach((item, index) => {
      if (item && typeof item === 'object')
        for (const key of Object.keys(item))
          if (childRestricted.has(key)) denied.push(`${list}.${index}.${key}`);
    });
  }
  return denied;
}

/** The 403 of a write naming fields the caller may not write. */
export function fieldForbidden(names: readonly string[]): AppError {
  return new AppError(403, 'engine.field_access.forbidden', {
    params: { field: names.join(', ').slice(0, 200) },
    fields: Object.fromEntries(names.map((n) => [n.slice(0, 100), ['engine.field_access.forbidden_short']])),
  });
}

/**
 * The reasons a role's `field_access` is refused, per key (422 on the role): a key naming no registered
 * resource's field (`id` is none, nor are `created_at`/`updated_at`), or a write-only field (no answer
 * carries it, so hiding it means nothing).
 */
export function fieldAccessProblems(
  value: unknown,
  registry: readonly Resource[],
): Record<string, 'unknown_field' | 'not_restrictable'> {
  const out: Record<string, 'unknown_field' | 'not_restrictable'> = {};
  if (!value || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const key of Object.keys(value)) {
    const dot = key.indexOf('.');
    const resource = dot > 0 ? registry.find((r) => r.name === key.slice(0, dot)) : undefined;
    const name = key.slice(dot + 1);
    const f = resource && fieldsOf(resource).find((x) => x.name === name);
    if (!resource || !f) out[key] = 'unknown_field';
    else if (f.meta.writeOnly) out[key] = 'not_restrictable';
  }
  return out;
}
