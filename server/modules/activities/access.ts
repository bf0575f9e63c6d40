import type { Resource } from '../../../resources/define.ts';
import { resources } from '../../../resources/index.ts';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { can, type Principal } from '../../core/principal.ts';
import { hiddenFields } from '../../engine/field-access.ts';
import { mayRead } from '../../engine/list/include-access.ts';
import { visibleInlineChange } from '../../engine/write/inline-history.ts';
import { inlineLists } from '../../../resources/inline-lists.ts';
import { SETTINGS_READ } from '../settings.ts';

/**
 * What a reader of the activity log may see of a row's `changes` (issue 27, item 3). A row shows the values
 * of its changes only to a reader who may read what the row is about: a resource's read permission, or for
 * the other audited subjects the page they live on (below). Otherwise the values are withheld and only the
 * changed field names are kept (`changes_withheld`), so the reader sees *that* something changed, not what.
 * Administrators see everything; a subject type nobody declared is shown to administrators only.
 */

/** The read permissions (all needed) of the subjects the log holds that are not resources of the registry. */
const OTHER_SUBJECTS: Readonly<Record<string, readonly string[]>> = {
  settings: SETTINGS_READ,
  modules: [PERMISSION.settingsModules],
  tasks: [PERMISSION.systemTasks],
};

/** The registry's resource a log row is about, if any (the log itself never is one). */
export function subjectResource(subjectType: unknown): Resource | undefined {
  if (typeof subjectType !== 'string' || subjectType === 'activities') return undefined;
  return resources.find((r) => r.name === subjectType);
}

/** The read permissions of a subject type (all needed), or null for a type nobody declared. */
export function subjectPermissions(subjectType: unknown): readonly string[] | null {
  const resource = subjectResource(subjectType);
  if (resource) return [resource.permission];
  if (typeof subjectType === 'string' && Object.hasOwn(OTHER_SUBJECTS, subjectType)) {
    return OTHER_SUBJECTS[subjectType]!;
  }
  return null;
}

/** True when `principal` may read what rows of `subjectType` are about. */
export function canReadSubject(principal: Principal, subjectType: unknown): boolean {
  if (principal.staff?.isAdmin) return true;
  const names = subjectPermissions(subjectType);
  return names !== null && names.every((name) => can(principal, name));
}

/**
 * How a changed field's value reaches `principal`: `visible` (the value), `withheld` (the field's name only)
 * or `hidden` (nothing: neither name nor value). This is the one place that decides, per (subject, field):
 * by the subject's read permission, then field access on roles (contract Amendments 2026-11-26, "Field
 * access on roles", server/engine/field-access.ts): a field the caller's roles make `hidden` for
 * `<resource>.<field>` answers `hidden` (absent from activity changes, as the contract says), `read` and
 * writable fields stay `visible`. Names (`names` in ./names.ts) follow it too:
 * a reference field's names are looked up only when its value is `visible`.
 */
export type ValueAccess = 'visible' | 'withheld' | 'hidden';

export function changeAccess(principal: Principal, subjectType: unknown, field: string): ValueAccess {
  if (!canReadSubject(principal, subjectType)) return 'withheld';
  const resource = subjectResource(subjectType);
  return resource && hiddenFields(principal, resource).has(field) ? 'hidden' : 'visible';
}

/**
 * A row's `changes` as `principal` may see them: the visible entries only (null stays null), and
 * `changes_withheld`, the names of the changed fields whose values were withheld (empty when none).
 */
export function visibleChanges(
  principal: Principal,
  row: { subject_type?: unknown; changes?: unknown },
): { changes: Record<string, unknown> | null; changes_withheld: string[] } {
  const changes = row.changes;
  if (changes === null || changes === undefined) return { changes: null, changes_withheld: [] };
  if (typeof changes !== 'object' || Array.isArray(changes)) {
    // Not the `{ field: ... }` shape the log writes: all or nothing.
    return canReadSubject(principal, row.subject_type)
      ? { changes: changes as Record<string, unknown>, changes_withheld: [] }
      : { changes: null, changes_withheld: [] };
  }
  const shown: Record<string, unknown> = {};
  const withheld: string[] = [];
  // A parent's inline lists (`parts: [items before, items after]`) follow the child resource's access: its
  // read permission (else withheld) and its hidden fields (taken out of every item).
  const resource = subjectResource(row.subject_type);
  const lists = resource ? inlineLists(resource, resources) : [];
  for (const [field, value] of Object.entries(changes as Record<string, unknown>)) {
    const access = changeAccess(principal, row.subject_type, field);
    const list = lists.find((l) => l.key === field);
    if (access === 'visible' && list && !principal.staff?.isAdmin && !mayRead(principal, list.child))
      withheld.push(field);
    else if (access === 'visible') shown[field] = list ? visibleInlineChange(principal, list, value) : value;
    else if (access === 'withheld') withheld.push(field);
  }
  return { changes: shown, changes_withheld: withheld };
}
