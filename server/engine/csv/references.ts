import type { Resource } from '../../../resources/define.ts';
import type { Queryable } from '../../db/index.ts';
import { escapeFormula, unescapeFormula } from './formula.ts';
import { fieldByName, ident, joinTableOf, type FieldInfo } from '../schema/fields.ts';
import type { Lang } from '../labels.ts';
import type { Principal } from '../../core/principal.ts';
import { rowScope, scopeSql } from '../scope.ts';

/**
 * References in CSV files, for people: an export writes the referenced record's representation (its
 * `recordRepresentation` field; the id when that is empty), an import reads a representation or an id back.
 * Names are resolved in one query per column and file, never per row, among the target's records the caller
 * may see (its data scope, live rows only): a name or id of a record outside them reads as unknown, as a read
 * of that record would be a 404, so an import can neither learn that such a record exists nor bind to it.
 * The record's own current reference is the exception: an untouched export row keeps it.
 */

/** The table and column a resource's records are written as, or null when it declares none. */
export function representationOf(
  registry: readonly Resource[],
  name: string | undefined,
): { table: string; column: string; resource: Resource } | null {
  const target = registry.find((r) => r.name === name);
  const column = target?.options.recordRepresentation;
  return target && column ? { table: target.table, column, resource: target } : null;
}

/** A reference cell waiting for its names to be resolved (`rowInput` leaves these; `resolveReferences` fills them). */
export class ReferenceCell {
  constructor(
    readonly field: FieldInfo,
    /** The cell's text (a belongs-to's without its formula escape; a many-to-many's as written). */
    readonly text: string,
  ) {}
}

/** The parts of a many-to-many cell: representations (or ids) separated by commas, each formula-escaped. */
function partsOf(text: string): string[] {
  return text
    .split(/\s*,\s*/)
    .map((s) => unescapeFormula(s.trim()))
    .filter(Boolean);
}

const isId = (v: string) => /^\d{1,18}$/.test(v);

interface Lookup {
  /** representation -> ids with it, of the records the caller may see */
  byName: Map<string, string[]>;
  /** id -> representation as exported ('' when it has none): the visible records and the rows' current ones */
  nameOf: Map<string, string>;
  /** ids of the records the caller may see */
  visible: Set<string>;
}

/**
 * Replaces the `ReferenceCell`s of each row's input by ids. A cell is, in order: the representation of the
 * record's current reference(s) (an untouched export row with `upsert`), a representation naming exactly one
 * record, or an id of an existing record. Unknown and ambiguous names are errors of that row and column
 * (`rows[i]` gets `{ field: [message] }`), in `lang`.
 */
export async function resolveReferences(
  ctx: { db: Queryable; resource: Resource; registry: readonly Resource[] },
  principal: Principal | undefined,
  lang: Lang,
  inputs: Record<string, unknown>[],
  existingIds: (string | null)[],
): Promise<(Record<string, string[]> | null)[]> {
  const errors: (Record<string, string[]> | null)[] = inputs.map(() => null);
  const fields = new Map<string, FieldInfo>();
  for (const input of inputs)
    for (const value of Object.values(input))
      if (value instanceof ReferenceCell) fields.set(value.field.name, value.field);
  for (const field of fields.values()) {
    const target = ctx.registry.find((r) => r.name === field.meta.relation?.resource);
    if (!target) continue;
    const current = await currentValues(ctx, field, existingIds);
    const texts = new Set<string>();
    for (const input of inputs) {
      const cell = input[field.name];
      if (!(cell instanceof ReferenceCell)) continue;
      texts.add(cell.text);
      if (field.kind === 'references') for (const part of partsOf(cell.text)) texts.add(part);
    }
    const lookup = await lookUp(
      ctx.db,
      ctx.registry,
      target,
      principal,
      [...texts],
      [...current.values()].flat(),
    );
    const label = lang.t(`resources.${target.name}.name_one`);
    const resourceLabel = label === `resources.${target.name}.name_one` ? target.name : label;
    inputs.forEach((input, i) => {
      const cell = input[field.name];
      if (!(cell instanceof ReferenceCell)) return;
      const mine = current.get(existingIds[i] ?? '') ?? [];
      const fail = (key: string, value: string) => {
        errors[i] = {
          ...errors[i],
          [field.name]: [lang.t(key, { resource: resourceLabel, value: value.slice(0, 100) })],
        };
        delete input[field.name];
      };
      if (field.kind === 'reference') {
        const id = pick(lookup, cell.text, mine);
        if (typeof id === 'string') input[field.name] = id;
        else fail(id.error, cell.text);
        return;
      }
      // Many-to-many: the record's current set written as the export writes it, else part by part.
      if (mine.length && exportedText(lookup, mine) === cell.text) {
        input[field.name] = mine;
        return;
      }
      const ids: string[] = [];
      for (const part of partsOf(cell.text)) {
        const id = pick(lookup, part, mine);
        if (typeof id !== 'string') return fail(id.error, part);
        ids.push(id);
      }
      input[field.name] = [...new Set(ids)];
    });
  }
  return errors;
}

/** The one id a text names (preferring the record's current ones), or the error key. */
function pick(lookup: Lookup, text: string, current: string[]): string | { error: string } {
  const own = current.find((id) => id === text || (lookup.nameOf.get(id) || undefined) === text);
  if (own) return own;
  const named = lookup.byName.get(text) ?? [];
  const candidates = named.length ? named : isId(text) && lookup.visible.has(text) ? [text] : [];
  if (candidates.length === 1) return candidates[0]!;
  return { error: candidates.length ? 'engine.csv.ambiguous_reference' : 'engine.csv.unknown_reference' };
}

/** How an export writes these ids (ascending id order, `, ` between them). */
function exportedText(lookup: Lookup, ids: string[]): string {
  return [...ids]
    .sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0))
    .map((id) => escapeFormula(lookup.nameOf.get(id) || '') || id)
    .join(', ');
}

/**
 * Records of `target` named by `texts` (representation, or id) among those the caller may see, and the
 * representations of `ids` (the rows' current references, whatever their scope).
 */
async function lookUp(
  db: Queryable,
  registry: readonly Resource[],
  target: Resource,
  principal: Principal | undefined,
  texts: string[],
  ids: string[],
): Promise<Lookup> {
  const rep = representationOf(registry, target.name);
  const column = rep ? `${ident(rep.column)}::text` : `NULL::text`;
  const params: unknown[] = [[...new Set(ids)], texts.filter(isId)];
  const named = rep
    ? `"id" = ANY($2::bigint[]) OR ${column} = ANY($${params.push(texts)}::text[])`
    : `"id" = ANY($2::bigint[])`;
  const scope = scopeSql(target, await rowScope(db, target, principal), (value) => `$${params.push(value)}`);
  const visible = scope ? `((${named}) AND ${scope})` : `(${named})`;
  const { rows } = await db.query<{ id: string; name: string | null; visible: boolean }>(
    `SELECT "id"::text AS id, ${column} AS name, ${visible} AS visible FROM ${ident(target.table)}
      WHERE "id" = ANY($1::bigint[]) OR ${visible}`,
    params,
  );
  const lookup: Lookup = { byName: new Map(), nameOf: new Map(), visible: new Set() };
  for (const row of rows) {
    const name = row.name ?? '';
    lookup.nameOf.set(row.id, name);
    if (!row.visible) continue;
    lookup.visible.add(row.id);
    if (name === '') continue;
    const same = lookup.byName.get(name) ?? [];
    if (!same.includes(row.id)) same.push(row.id);
    lookup.byName.set(name, same);
  }
  return lookup;
}

/** existing record id -> its current reference id(s) for `field` (rows matched by `upsert`). */
async function currentValues(
  ctx: { db: Queryable; resource: Resource },
  field: FieldInfo,
  existingIds: (string | null)[],
): Promise<Map<string, string[]>> {
  const ids = [...new Set(existingIds.filter((id): id is string => id !== null))];
  const out = new Map<string, string[]>();
  if (!ids.length) return out;
  if (field.kind === 'reference') {
    const { rows } = await ctx.db.query<{ id: string; ref: string | null }>(
      `SELECT "id"::text AS id, ${ident(field.name)}::text AS ref FROM ${ident(ctx.resource.table)}
        WHERE "id" = ANY($1::bigint[])`,
      [ids],
    );
    for (const row of rows) if (row.ref !== null) out.set(row.id, [row.ref]);
    return out;
  }
  const j = joinTableOf(ctx.resource, fieldByName(ctx.resource, field.name)!);
  const { rows } = await ctx.db.query<{ id: string; ref: string }>(
    `SELECT ${ident(j.ownerColumn)}::text AS id, ${ident(j.targetColumn)}::text AS ref FROM ${ident(j.table)}
      WHERE ${ident(j.ownerColumn)} = ANY($1::bigint[])`,
    [ids],
  );
  for (const row of rows) out.set(row.id, [...(out.get(row.id) ?? []), row.ref]);
  return out;
}
