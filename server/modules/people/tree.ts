import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { departmentNodeSchema, type DepartmentNode } from '../../../schemas/departments.ts';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { ok } from '../../core/envelope.ts';
import { can, requireStaff } from '../../core/principal.ts';
import { route } from '../../core/route.ts';
import { AppError } from '../../core/errors.ts';
import { departments } from '../../../resources/departments.ts';
import type { Db, Queryable } from '../../db/index.ts';
import { asSystem } from '../../engine/system-access.ts';

/**
 * `GET v1/user/department/tree`: every department, nested, siblings by sort then id (disabled ones too,
 * with `state` false, so the client's tree builder decides). Readable with the departments page or the
 * staff page (whose filter and form pick departments from it).
 */
export function registerDepartmentTreeRoute(app: FastifyInstance, db: Db): void {
  route(app, {
    method: 'GET',
    url: '/api/v1/user/department/tree',
    tags: ['people'],
    summary: 'Departments as a nested tree',
    access: async (request) => {
      const principal = await requireStaff(request);
      if (!can(principal, PERMISSION.usersDepartments) && !can(principal, PERMISSION.usersStaff))
        throw AppError.forbidden();
    },
    responses: { 200: z.array(departmentNodeSchema) },
    handler: async () => ok(await readDepartmentTree(db)),
  });
}

/** Every department as a nested tree (the operation behind the route; no access check of its own). */
export async function readDepartmentTree(db: Queryable): Promise<DepartmentNode[]> {
  const rows = await asSystem(db).list<{
    id: string;
    parent_id: string;
    name: string;
    sort: number;
    state: boolean;
    version: number;
  }>(departments, {
    columns: ['id', 'parent_id', 'name', 'sort', 'state', 'version'],
    orderBy: [
      ['sort', 'asc'],
      ['id', 'asc'],
    ],
  });
  return nest(rows);
}

/** Builds the nested tree; a node whose superior is missing (or in a cycle) is shown at the root. */
export function nest(
  rows: { id: string; parent_id: string; name: string; sort: number; state: boolean; version?: number }[],
): DepartmentNode[] {
  const nodes = new Map<string, DepartmentNode>();
  for (const r of rows) {
    const id = String(r.id);
    nodes.set(id, {
      id,
      parent_id: String(r.parent_id),
      title: r.name,
      value: id,
      sort: Number(r.sort),
      state: r.state,
      ...(r.version === undefined ? {} : { version: Number(r.version) }),
      children: [],
    });
  }
  const roots: DepartmentNode[] = [];
  for (const node of nodes.values()) {
    const parent = nodes.get(node.parent_id);
    if (parent && !isAncestor(nodes, node.id, parent)) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

function isAncestor(nodes: Map<string, DepartmentNode>, id: string, start: DepartmentNode): boolean {
  const seen = new Set<string>();
  for (let n: DepartmentNode | undefined = start; n && !seen.has(n.id); n = nodes.get(n.parent_id)) {
    if (n.id === id) return true;
    seen.add(n.id);
  }
  return false;
}
