import { ACTIVITY_REFERENCES } from '../../../resources/activities.ts';
import type { Resource } from '../../../resources/define.ts';
import { fieldsOf, isIdString } from '../../../resources/fields.ts';
import type { Principal } from '../../core/principal.ts';
import type { Queryable } from '../../db/index.ts';
import { asSystem } from '../../engine/system-access.ts';
import { canReadSubject, changeAccess, subjectResource, visibleChanges } from './access.ts';

/** What a log row says about its subject: its representation today, or that it is gone. */
export interface SubjectInfo {
  /** The record's representation (name, username ...); null once deleted. */
  label: string | null;
  deleted: boolean;
}

/** Representations of the records a page of log rows mentions: `{ roles: { '1': 'Admin' } }`. */
export type NameMap = Record<string, Record<string, string>>;

/** Ids looked up per resource and page at most (a page holds at most 100 rows of a few references each). */
const MAX_IDS = 2000;

/**
 * The field a record of `resource` is shown by: `recordRepresentation`, else its first readable plain string
 * field (the same rule as the client's `representationField`), else none.
 */
export function representationColumn(resource: Resource): string | null {
  const declared = resource.options.recordRepresentation;
  if (declared) return declared;
  return fieldsOf(resource).find((f) => f.kind === 'string' && f.isColumn && !f.meta.writeOnly)?.name ?? null;
}

/**
 * Makes each log row what `principal` may see of it, legible without a second request: `changes` reduced to
 * the values the reader may see and `changes_withheld` naming the changed fields whose values were withheld
 * (./access.ts: the subject's read permission decides, per field), `subject` (the subject record's
 * representation, or `deleted: true` once it is gone) and `names` (representations of the records its
 * visible changes refer to through reference fields, e.g. role and department names). Only resources the
 * caller may read are looked up; rows about anything else carry `subject: null` and no names, so nothing
 * leaks past the read permission of the resource. One query per mentioned resource for the whole page.
 * Every path that answers log rows (list, single read, dashboard) goes through here.
 */
export async function withNames<R extends Record<string, unknown>>(
  db: Queryable,
  principal: Principal,
  rows: R[],
): Promise<
  (R & {
    changes: Record<string, unknown> | null;
    changes_withheld: string[];
    subject: SubjectInfo | null;
    names: NameMap;
  })[]
> {
  const readable = (name: unknown) => {
    const resource = subjectResource(name);
    return resource && canReadSubject(principal, resource.name) ? resource : undefined;
  };
  const wanted = new Map<Resource, Set<string>>();
  const want = (resource: Resource | undefined, id: unknown) => {
    const text = typeof id === 'number' ? String(id) : id;
    if (!resource || typeof text !== 'string' || !isIdString(text)) return;
    const ids = wanted.get(resource) ?? new Set<string>();
    if (ids.size < MAX_IDS) ids.add(text);
    wanted.set(resource, ids);
  };
  const referencesOf = (row: R) => {
    const subject = readable(row.subject_type);
    const changes =
      row.changes && typeof row.changes === 'object' ? (row.changes as Record<string, unknown>) : {};
    const out: { field: string; target: Resource; values: unknown[] }[] = [];
    if (!subject) return out;
    const declared = fieldsOf(subject);
    // The subject's reference fields, and the event fields declared as references (ACTIVITY_REFERENCES).
    const pointers: [string, string | undefined][] = [
      ...declared.map((f): [string, string | undefined] => [f.name, f.meta.relation?.resource]),
      ...Object.entries(ACTIVITY_REFERENCES).filter(([field]) => !declared.some((f) => f.name === field)),
    ];
    for (const [field, resource] of pointers) {
      if (!Object.hasOwn(changes, field) || changeAccess(principal, row.subject_type, field) !== 'visible')
        continue;
      const value = changes[field];
      const target = resource ? readable(resource) : undefined;
      if (!target) continue;
      const values = (Array.isArray(value) ? value : [value]).flatMap((side: unknown) =>
        Array.isArray(side) ? side : [side],
      );
      out.push({ field, target, values });
    }
    return out;
  };
  for (const row of rows) {
    want(readable(row.subject_type), row.subject_id);
    for (const ref of referencesOf(row)) for (const v of ref.values) want(ref.target, v);
  }
  const found = new Map<Resource, Map<string, string>>();
  for (const [resource, ids] of wanted) {
    const column = representationColumn(resource);
    const list = [...ids];
    const records = await asSystem(db).list<Record<string, unknown>>(resource, {
      where: { id: { in: list } },
      columns: column ? ['id', column] : ['id'],
    });
    const labelOf = (r: Record<string, unknown>) => (column ? r[column] : r.id);
    found.set(
      resource,
      new Map(records.map((r) => [String(r.id), labelOf(r) == null ? '' : String(labelOf(r))])),
    );
  }
  return rows.map((row) => {
    const subjectResource = readable(row.subject_type);
    const subjectId = typeof row.subject_id === 'string' ? row.subject_id : null;
    let subject: SubjectInfo | null = null;
    if (subjectResource && subjectId && isIdString(subjectId)) {
      const label = found.get(subjectResource)?.get(subjectId);
      subject = label === undefined ? { label: null, deleted: true } : { label, deleted: false };
    }
    const names: NameMap = {};
    for (const ref of referencesOf(row)) {
      const known = found.get(ref.target);
      for (const v of ref.values) {
        const label = known?.get(String(v));
        if (label === undefined) continue;
        (names[ref.target.name] ??= {})[String(v)] = label;
      }
    }
    return { ...row, ...visibleChanges(principal, row), subject, names };
  });
}
