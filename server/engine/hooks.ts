import type * as z from 'zod';
import { isSoftDelete, type Resource } from '../../resources/define.ts';
import type { Db, Queryable } from '../db/index.ts';
import type { Actor } from '../core/activity.ts';
import type { Principal } from '../core/principal.ts';
import type { SettingsGroup, SettingsOf } from '../../schemas/settings.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { ident } from './schema/fields.ts';
import type { WireRecord } from './list/wire.ts';

/**
 * Server-side behaviour a resource needs beyond its schema (resources/ stays free of server code, so the
 * domain module that owns the resource declares its hooks, in a `ResourceHooksTable`). Every write path of
 * the engine (create, update, delete, CSV import) runs them inside the write's transaction, so a rule
 * enforced in a hook cannot be bypassed through another route. Example:
 * `export const peopleResourceHooks = { departments: { beforeWrite: async (e) => { if (cycle) throw ... } } }`
 */
export interface WriteEvent extends HookContext {
  action: 'create' | 'update' | 'delete';
  tx: Queryable;
  /** The record's id; null before a create. */
  id: string | null;
  /** The stored record before the write (update, delete), read FOR UPDATE. */
  before: WireRecord | null;
  /** The validated input (only the keys given, on update); empty on delete. A hook may change it. */
  data: Record<string, unknown>;
  actor: Actor;
  /** A delete asked with `?detach=1`: release the records holding this one instead of refusing (roles). */
  detach?: boolean;
}

/**
 * What every hook gets besides the write (issue 35 item 9): the caller, the database handle (inside
 * beforeWrite/afterWrite the write's transaction, the same as `tx`; in afterCommit the database) and the
 * product's services, bound to that handle.
 */
export interface HookContext {
  /** The caller (undefined for a write the system makes itself). */
  principal: Principal | undefined;
  db: Queryable;
  services: HookServices;
}

/**
 * The product's services as hooks use them. Inside the transaction `mail.send` writes an outbox row that a
 * pg-boss job sends once the transaction has committed (retried, sent once: outbox.ts); `jobs.send` enqueues
 * after commit, so a rolled-back write starts nothing.
 */
export interface HookServices {
  mail: { send(message: MailMessage): Promise<void> };
  jobs: { send(queue: string, data: object): Promise<void> };
  settings: { get<G extends SettingsGroup>(group: G): Promise<SettingsOf<G>> };
  logger: HookLogger;
}

/** The logger hooks get (pino's methods): say what happened, never a secret or a record's private values. */
export interface HookLogger {
  info(obj: object, message?: string): void;
  warn(obj: object, message?: string): void;
  error(obj: object, message?: string): void;
}

/** A committed write, as `afterCommit` sees it: `db` is the database (the transaction is over). */
export type CommittedEvent = Omit<WriteEvent, 'tx'> & { id: string; db: Db };

export interface ResourceHooks {
  /**
   * Runs once the write's transaction has committed, never after a rollback (one call per record, bulk and
   * import included). Its failure is logged and the caller still gets the write's answer; work that must not
   * be lost goes through `services.mail` / `services.jobs` inside the transaction instead.
   */
  afterCommit?(event: CommittedEvent): Promise<void>;
  /** Runs after validation, before the SQL; throw an AppError to refuse the write. */
  beforeWrite?(event: WriteEvent): Promise<void>;
  /** Runs after the SQL and before the audit row; what it returns is added to the create/update response. */
  afterWrite?(event: WriteEvent & { id: string }): Promise<Record<string, unknown> | void>;
  /** Adds derived values to records read by any route (list, read, include). */
  afterRead?(args: { db: Queryable; records: WireRecord[] }): Promise<void>;
  /**
   * The keys `afterRead` adds to every record (`read`) and `afterWrite` adds to a create's answer (`create`),
   * as the OpenAPI document shows them (server/engine/openapi.ts): a key a hook answers and this leaves out
   * fails the contract gate, which refuses keys the document does not name.
   */
  answers?: { read?: z.ZodRawShape; create?: z.ZodRawShape };
  /**
   * Replaces the SQL of a search on one field (e.g. a department and its sub-departments). Gets the quoted
   * column, the condition and the parsed values; returns a clause using `bind` for every value.
   */
  filters?: Record<
    string,
    (args: { column: string; condition: string; values: unknown[]; bind: (v: unknown) => string }) => string
  >;
}

/**
 * Resource name -> its hooks. The module that owns a resource declares its table (e.g. `peopleResourceHooks`)
 * and the app passes the tables to the engine where it is composed (server/modules/index.ts), like Payload's
 * config: nothing is registered as a side effect of importing a module.
 */
export type ResourceHooksTable = Readonly<Record<string, ResourceHooks>>;

/** The hooks of a resource in a table (none when it has none). */
export function hooksOf(table: ResourceHooksTable, resource: Resource): ResourceHooks {
  return Object.hasOwn(table, resource.name) ? table[resource.name]! : {};
}

/**
 * A search filter for a reference to a tree resource that matches the given records and every record under
 * them (a department includes its sub-departments): `filters: { department_id: subtreeFilter(departments) }`.
 * UNION, not UNION ALL: a cycle cannot loop forever.
 */
export function subtreeFilter(
  tree: Resource,
  parentColumn = 'parent_id',
): NonNullable<ResourceHooks['filters']>[string] {
  const table = ident(tree.table);
  const parent = ident(parentColumn);
  // Live children only (a trashed record has none: its delete was refused while it had some), which also
  // lets the step use the partial (parent, id) index over the live rows.
  const live = isSoftDelete(tree) ? ' AND t."deleted_at" IS NULL' : '';
  return ({ column, values, bind }) =>
    `${column} IN (WITH RECURSIVE sub(id) AS (
       SELECT id FROM ${table} WHERE id IN (${values.map(bind).join(', ')})
       UNION SELECT t.id FROM ${table} t JOIN sub ON t.${parent} = sub.id${live})
     SELECT id FROM sub)`;
}
