import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { Resource } from '../../resources/define.ts';
import { fieldsOf } from '../../resources/fields.ts';
import { resources } from '../../resources/index.ts';
import { joinTableOf } from '../../server/engine/schema/fields.ts';

/**
 * The engine's tables behind one seam (issue 29): code outside server/engine reads and writes the tables of
 * the registry's resources, their join tables and the activity log only through the engine (operations, or
 * the helpers of server/engine/records.ts), so every rule the engine applies holds on every path. This scans
 * the SQL in the string and template literals of every .ts file of server/ outside server/engine (tests
 * excluded) for a table the registry owns, or for SQL that names a resource's table through an expression;
 * a resource added later is covered without touching this file. It names no exception.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

describe('the engine seam: no SQL on engine-owned tables outside server/engine', () => {
  it('the table list comes from the registry (resources, join tables, the activity log)', () => {
    const tables = engineTables(resources);
    expect(tables).toEqual(expect.arrayContaining(['users', 'staff', 'roles', 'activity_logs']));
    expect(tables).toEqual(expect.arrayContaining(['staff_roles']));
  });

  it('finds no SQL naming an engine-owned table outside server/engine', () => {
    const tables = engineTables(resources);
    const hits = serverFiles().flatMap((file) =>
      sqlOnTables(readFileSync(path.join(ROOT, file), 'utf8'), tables).map((hit) => `${file}: ${hit}`),
    );
    expect(hits).toEqual([]);
  });

  it('fails on a planted violation, in any spelling SQL allows', () => {
    const tables = engineTables(resources);
    const planted = [
      'const a = await db.query(`SELECT id FROM users WHERE username = $1`, [name]);',
      'const b = await db.query(\'update "staff" SET name = $1\', [name]);',
      'const c = sql`SELECT 1\n  FROM public.roles r\n  JOIN staff_roles sr ON sr.role_id = r.id`;',
      "const d = 'INSERT INTO activity_logs (action) VALUES ($1)';",
      "const e = 'DELETE   FROM dictionary_types';",
      'const f = `SELECT * FROM ${ident(resource.table)} WHERE id = $1`;',
      'const g = `UPDATE ${TABLE} SET state = false`;',
    ].join('\n');
    expect(sqlOnTables(planted, tables)).toEqual([
      'FROM users',
      'update "staff"',
      'FROM public.roles',
      'JOIN staff_roles',
      'INTO activity_logs',
      'FROM dictionary_types',
      'FROM ${ident(resource.table)}',
      'UPDATE ${TABLE}',
    ]);
    // A module's own table, a word in prose and an import path are not engine SQL.
    const clean = [
      "import { users } from './users.ts';",
      "const f = 'SELECT * FROM tasks JOIN task_runs ON true';",
      '// reads from users, through the engine',
      "const g = 'Update your profile';",
    ].join('\n');
    expect(sqlOnTables(clean, tables)).toEqual([]);
  });
});

/** Every table the engine owns: each resource's table, the join tables of its many-to-many fields. */
function engineTables(registry: readonly Resource[]): string[] {
  const tables = new Set<string>();
  for (const resource of registry) {
    tables.add(resource.table);
    for (const f of fieldsOf(resource).filter((x) => x.kind === 'references'))
      tables.add(joinTableOf(resource, f).table);
  }
  return [...tables].sort();
}

/** The .ts files of server/ outside server/engine, test files and test helpers left out. */
function serverFiles(): string[] {
  return readdirSync(path.join(ROOT, 'server'), { recursive: true, encoding: 'utf8' })
    .map((f) => path.join('server', f))
    .filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes(`${path.sep}testing${path.sep}`),
    )
    .filter((f) => !f.startsWith(path.join('server', 'engine') + path.sep));
}

/** `FROM users`, `JOIN "staff_roles"`, ...: the SQL in the literals of `code` that names one of `tables`. */
function sqlOnTables(code: string, tables: readonly string[]): string[] {
  const names = tables.map((t) => t.replace(/[^a-z0-9_]/gi, '')).join('|');
  const pattern = new RegExp(
    `\\b(FROM|JOIN|INTO|UPDATE|TABLE)\\s+((?:"?public"?\\.)?"?(?:${names})"?)(?![\\w"])`,
    'gi',
  );
  const { texts, dynamic } = literalsOf(code);
  return [...texts.flatMap((text) => [...text.matchAll(pattern)].map((m) => `${m[1]} ${m[2]}`)), ...dynamic];
}

/**
 * The text of every string and template literal in `code` (SQL lives there; comments and imports do not),
 * and the SQL that names a resource's table through an expression (`FROM ${ident(resource.table)}`,
 * `JOIN ${TABLE}`): any table of the registry, so it is refused whichever one it is.
 */
function literalsOf(code: string): { texts: string[]; dynamic: string[] } {
  const source = ts.createSourceFile('scan.ts', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const texts: string[] = [];
  const dynamic: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) texts.push(node.text);
    else if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node))
      texts.push(node.text);
    if (ts.isTemplateExpression(node)) {
      let before = node.head.text;
      for (const span of node.templateSpans) {
        const keyword = /\b(FROM|JOIN|INTO|UPDATE|TABLE)\s+$/i.exec(before)?.[1];
        const expression = span.expression.getText(source);
        if (keyword && /\.table\b|^\w*TABLE\w*$/i.test(expression))
          dynamic.push(`${keyword} \${${expression}}`);
        before = span.literal.text;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { texts, dynamic };
}
