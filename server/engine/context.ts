import type { Resource } from '../../resources/define.ts';
import type { Db } from '../db/index.ts';
import type { Action } from './access.ts';
import type { Actor } from './write/audit.ts';
import type { ResourceHooksTable } from './hooks.ts';
import type { Lang } from './labels.ts';

/**
 * What every operation needs. `authorize(action)` checks `<permission>` (read) or `<permission>.<action>`
 * and resolves to the acting user (401/403 otherwise); `label(field)` names a field in the caller's language.
 * A route builds one per request (routes.ts), a CSV job one from the job's data (csv/jobs.ts).
 */
export interface OperationContext {
  db: Db;
  resource: Resource;
  registry: readonly Resource[];
  /** The resource hooks the app was composed with (hooks.ts). */
  hooks: ResourceHooksTable;
  authorize(action: Action): Promise<Actor>;
  label(field: string): string;
  /** The caller's language, for messages about other resources' fields (inline has-many children). */
  lang?: Lang;
  /**
   * Set for the items of an inline has-many list (inline-writes.ts): they follow their parent, whose data
   * scope the parent's write checked, so they are not scoped again (scope.ts).
   */
  isInlineChild?: true;
}
