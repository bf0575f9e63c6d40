import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogs } from '../../locales/index.ts';
import { hasOperation, searchConditions, type Resource } from '../../resources/define.ts';
import { readMigrations } from '../../server/db/migrate.ts';
import { createResourcesModule } from '../../server/engine/module.ts';
import { publishEvent } from '../../server/events/hub.ts';
import { FIXTURE_MIGRATIONS } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';
import { resources as registry } from '../fixtures/registry.ts';
import {
  effectiveFieldAccess,
  fieldLevel,
  mayDo,
  mayManageRole,
  mayRead,
  oracleResource,
  sees,
  visibleIds,
  type DataScope,
  type OracleRecord,
} from '../helpers/access-oracle.ts';
import {
  buildWorld,
  listEverything,
  oracleRecords,
  restrictableFields,
  type Caller,
  type World,
} from '../helpers/access-world.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { bySize, generatedCases } from '../helpers/generated.ts';
import { openSse, type SseStream } from '../helpers/sse.ts';

/**
 * Generated access tests (issue 30, 7): for every resource of the product's registry and the fixture's, a
 * seeded world (tests/helpers/access-world.ts: a random department tree, roles with random data scopes,
 * permissions and field access, callers in random departments, random records created by the administrator
 * and by the callers) is compared, caller by caller, with an oracle written from the contract alone
 * (tests/helpers/access-oracle.ts) on every path: list (page, cursor, totals), read, `id:in` lists, fields
 * (hidden ones absent, not searchable nor sortable), update and delete (404 out of scope, 403 naming a
 * hidden or read-only field, 422 for a move out of scope), bulk calls, CSV export, import `upsert=id`,
 * `include`, live events, dashboard figures and `v1/user/info`'s field access. Mismatches are collected per
 * resource and reported together. A resource added to the registry is covered with no new test.
 * `ACCESS_NEUTRAL=1` builds the same world with neutral roles (scope `all`, no field access): the server
 * before issue 30 passes it, which checks the harness and the oracle themselves.
 */
const SEED = 30_07;
const SIZE = bySize({
  full: { departments: 8, roles: 8, callers: 8, records: 5 },
  sample: { departments: 5, roles: 5, callers: 5, records: 3 },
});
const NEUTRAL = process.env.ACCESS_NEUTRAL === '1';

let t: TestApp;
let base: string;
let world: World;
const cases: Record<string, number> = {};
const streams: SseStream[] = [];
/**
 * How much each resource's comparisons could tell (printed at the end): callers that may read it seeing
 * every row, some, none; fields hidden or read-only for one of them.
 */
const power: Record<string, { all: number; some: number; none: number; restricted: number }> = {};
/** The administrator's export header per resource (English labels). */
const adminHeaders = new Map<string, string[]>();

beforeAll(async () => {
  const started = performance.now();
  const fixtures = {
    ...createResourcesModule({ resources: fixtureResources, migrationsDir: FIXTURE_MIGRATIONS }),
    name: 'fixture-resources',
  };
  t = await createTestApp({}, { extraModules: [fixtures] });
  for (const m of readMigrations(FIXTURE_MIGRATIONS)) await t.db.exec(m.sql);
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  world = await buildWorld(t, registry, { seed: SEED, size: SIZE, neutral: NEUTRAL });
  console.info(
    `[access] world built in ${((performance.now() - started) / 1000).toFixed(1)} s: ${SIZE.departments} departments, ` +
      `${SIZE.roles} roles, ${SIZE.callers} callers, records ${JSON.stringify(world.created)}` +
      (world.refusedFieldAccess.length
        ? `; restrictions refused: ${world.refusedFieldAccess.join(', ')}`
        : ''),
  );
}, 240_000);
afterAll(async () => {
  for (const s of streams) s.close();
  const total = Object.values(cases).reduce((a, b) => a + b, 0);
  console.info(
    `[access] seed ${SEED} (${generatedCases}${NEUTRAL ? ', neutral roles' : ''}); requests compared with the oracle: ` +
      `${JSON.stringify(cases)} (total ${total}); callers seeing all/some/no rows, restricted fields: ${JSON.stringify(power)}`,
  );
  await t?.close();
});

const engineResources = registry.filter((r) => hasOperation(r, 'list'));

describe.each(engineResources.map((r) => [r.name, r] as const))('%s (generated access)', (name, r) => {
  it('every path shows each caller the records and fields the oracle allows', async () => {
    const failures: string[] = [];
    const records = await oracleRecords(t, world, r);
    const adminView = new Map((await listEverything(t, world.admin.token, r)).map((x) => [x.id, x]));
    if (hasOperation(r, 'export')) {
      const res = await t.request({
        url: `/api/${r.endpoint}/export`,
        token: world.admin.token,
        headers: { 'accept-language': 'en' },
      });
      adminHeaders.set(r.name, (parseCsv(res.body.replace(/^\uFEFF/, '')) as string[][])[0] ?? []);
    }
    for (const caller of world.callers) await checkCaller(r, caller, records, adminView, failures);
    // Creates last: they add records the checks above did not expect.
    if (hasOperation(r, 'create'))
      for (const caller of world.callers) await checkCreates(r, caller, adminView, failures);
    expect(failures).toEqual([]);
  }, 240_000);

  it.runIf(hasOperation(r, 'update'))(
    'live events reach only the callers whose scope holds the record',
    async () => {
      const failures: string[] = [];
      await checkEvents(r, failures);
      expect(failures).toEqual([]);
    },
    120_000,
  );
});

describe('records and callers (generated access)', () => {
  it('records carry the user who created them (created_by)', async () => {
    const failures: string[] = [];
    for (const r of world.resources) {
      for (const row of await listEverything(t, world.admin.token, r)) {
        const author = world.authors.get(`${r.name}:${row.id}`);
        if (author !== undefined && String(row.created_by) !== author)
          failures.push(
            `${r.name} ${row.id}: created_by ${JSON.stringify(row.created_by)}, created by ${author}`,
          );
      }
    }
    expect(failures).toEqual([]);
  });

  it('roles answer their data scope and field access as set (neutral when not set)', async () => {
    const failures: string[] = [];
    for (const role of world.oracle.roles) {
      const res = await t.request({ url: `/api/v1/user/roles/${role.id}`, token: world.admin.token });
      const data = (res.json() as { data: Record<string, unknown> }).data;
      const got = {
        data_scope: data.data_scope,
        data_scope_department_ids: ((data.data_scope_department_ids as unknown[] | undefined) ?? null)
          ?.map(String)
          .sort(),
        field_access: sortKeys(data.field_access),
      };
      const want = {
        data_scope: role.dataScope,
        data_scope_department_ids: [...role.departmentIds].sort(),
        field_access: sortKeys(role.fieldAccess),
      };
      if (JSON.stringify(got) !== JSON.stringify(want))
        failures.push(`role ${role.id}: ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
    }
    expect(failures).toEqual([]);
  });

  it('dashboard figures count the rows in each caller scope', async () => {
    const failures: string[] = [];
    const figures = [
      { key: 'staff', r: registry.find((x) => x.name === 'staff')! },
      { key: 'users', r: registry.find((x) => x.name === 'users')! },
    ];
    for (const caller of world.callers) {
      const res = await t.request({ url: '/api/v1/system/dashboard', token: caller.token });
      count('dashboard');
      if (res.statusCode !== 200) {
        failures.push(`${caller.label} dashboard: ${res.statusCode}`);
        continue;
      }
      const counts = (res.json() as { data: { counts: Record<string, number> } }).data.counts;
      for (const { key, r } of figures) {
        const R = oracleResource(r);
        if (!mayRead(world.oracle, caller, R)) continue;
        const expected = visibleIds(world.oracle, caller, R, await oracleRecords(t, world, r)).length;
        if (counts[key] !== expected)
          failures.push(`${caller.label} dashboard counts.${key}: ${counts[key]}, expected ${expected}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('v1/user/info answers each caller its effective field access', async () => {
    const failures: string[] = [];
    const all = world.resources.map((r) => ({ r: oracleResource(r), fields: restrictableFields(r) }));
    for (const caller of world.callers) {
      const res = await t.request({ url: '/api/v1/user/info', token: caller.token });
      count('info');
      const expected = effectiveFieldAccess(world.oracle, caller, all);
      const got =
        res.statusCode === 200
          ? (res.json() as { data: { field_access?: unknown } }).data.field_access
          : null;
      // No data scope key (the server applies scopes); `field_access` may name the roles' data_scope field.
      const data = res.statusCode === 200 ? (res.json() as { data: Record<string, unknown> }).data : {};
      const leaked = Object.keys(data).filter((k) => k.startsWith('data_scope'));
      if (leaked.length) failures.push(`${caller.label} user/info sends ${leaked.join(', ')}`);
      if (JSON.stringify(sortKeys(got)) !== JSON.stringify(sortKeys(expected)))
        failures.push(
          `${caller.label} user/info ${res.statusCode}: field_access ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`,
        );
    }
    expect(failures).toEqual([]);
  });
});

// --------------------------------------------------------------------------------------------- checks

type Row = Record<string, unknown> & { id: string };

async function checkCaller(
  r: Resource,
  caller: Caller,
  records: OracleRecord[],
  adminView: Map<string, Row>,
  failures: string[],
): Promise<void> {
  const R = oracleResource(r);
  const w = world.oracle;
  const fail = (what: string) => failures.push(`${caller.label} ${what}`);
  const url = `/api/${r.endpoint}`;
  const expected = new Set(visibleIds(w, caller, R, records));
  const hidden = restrictableFields(r).filter((f) => fieldLevel(w, caller, R, f) === 'hidden');
  const readOnly = restrictableFields(r).filter((f) => fieldLevel(w, caller, R, f) === 'read');
  const get = (path: string) => request('GET', path, caller.token, r.name);
  if (mayRead(w, caller, R)) {
    const p = (power[r.name] ??= { all: 0, some: 0, none: 0, restricted: 0 });
    p[expected.size === records.length ? 'all' : expected.size ? 'some' : 'none'] += 1;
    p.restricted += hidden.length + readOnly.length;
  }

  if (!mayRead(w, caller, R)) {
    const res = await get(url);
    if (res.status !== 403) fail(`list without the page: ${res.status}, expected 403`);
    return;
  }

  // List: one page of everything, its total; pages by number and by cursor.
  const listed = await get(`${url}?size=1000&orderBy=id&sortedBy=asc`);
  if (listed.status !== 200) {
    fail(`list: ${listed.status} ${listed.body.slice(0, 200)}`);
    return;
  }
  const page = listed.json.data as { data: Row[]; meta: { pagination: Pagination } };
  compareIds(
    fail,
    'list',
    page.data.map((x) => x.id),
    expected,
  );
  const p = page.meta.pagination;
  if (!p.total_is_estimate && !p.total_is_capped && p.total !== expected.size)
    fail(`list total ${p.total}, expected ${expected.size}`);
  for (const row of page.data) checkFields(fail, `list ${row.id}`, row, hidden, r);
  const second = await get(`${url}?size=2&page=2`);
  const secondCount = (second.json?.data as { data?: Row[] } | undefined)?.data?.length;
  if (second.status !== 200 || secondCount !== Math.min(2, Math.max(0, expected.size - 2)))
    fail(
      `page 2 of size 2: ${second.status}, ${secondCount} rows, expected ${Math.min(2, Math.max(0, expected.size - 2))}`,
    );
  const walked: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 500; i++) {
    const res = await get(`${url}?size=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (res.status !== 200) {
      fail(`cursor walk: ${res.status}`);
      break;
    }
    const body = res.json.data as { data: Row[]; meta: { pagination: Pagination } };
    walked.push(...body.data.map((x) => x.id));
    cursor = body.meta.pagination.next_cursor ?? null;
    if (!cursor) break;
  }
  compareIds(fail, 'cursor walk', walked, expected);

  // Reads, and id:in lists (what a reference input asks for its chosen ids).
  for (const rec of records) {
    const res = await get(`${url}/${rec.id}`);
    const want = expected.has(rec.id) ? 200 : 404;
    if (res.status !== want) fail(`read ${rec.id}: ${res.status}, expected ${want}`);
    else if (want === 200) checkFields(fail, `read ${rec.id}`, res.json.data as Row, hidden, r);
  }
  const ids = records.map((x) => x.id);
  if (ids.length) {
    const res = await get(
      `${url}?size=1000&search=${encodeURIComponent(`id:${ids.join(',')}`)}&searchFields=${encodeURIComponent('id:in')}`,
    );
    if (res.status !== 200) fail(`id:in: ${res.status}`);
    else
      compareIds(
        fail,
        'id:in',
        (res.json.data as { data: Row[] }).data.map((x) => x.id),
        expected,
      );
  }

  // Hidden fields cannot be searched or sorted: the answer to an unknown field.
  for (const f of hidden) {
    const meta = r.fields.find((x) => x.name === f)!.meta;
    const [condition] = searchConditions(meta);
    if (condition) {
      const res = await get(
        `${url}?search=${encodeURIComponent(`${f}:1`)}&searchFields=${encodeURIComponent(`${f}:${condition}`)}`,
      );
      if (res.status !== 422) fail(`search on hidden ${f}: ${res.status}, expected 422`);
    }
    if (meta.sort) {
      const res = await get(`${url}?orderBy=${f}&sortedBy=asc`);
      if (res.status !== 422) fail(`sort on hidden ${f}: ${res.status}, expected 422`);
    }
  }

  const inScope = records.filter((x) => expected.has(x.id));
  const outOfScope = records.filter((x) => !expected.has(x.id));
  const safe = safeField(r, (f) => fieldLevel(w, caller, R, f) === 'write');

  // Updates: 404 out of scope, 403 naming a hidden or read-only field, 422 for a move out of scope.
  if (hasOperation(r, 'update') && mayDo(w, caller, R, 'update')) {
    // A record the test made (the administrator's own user and staff record only an administrator edits);
    // of roles, one the role editor's rule lets this caller write (mayManageRole).
    const target = inScope.find(
      (x) =>
        world.authors.has(`${r.name}:${x.id}`) &&
        (r.name !== 'roles' ||
          mayManageRole(w, caller, roleOf(x.id, adminView.get(x.id)), pagesWithFields())),
    );
    if (target && safe) {
      const res = await request('PATCH', `${url}/${target.id}`, caller.token, r.name, {
        [safe]: adminView.get(target.id)?.[safe],
      });
      if (res.status !== 200) fail(`update ${target.id} (${safe}): ${res.status} ${res.body.slice(0, 200)}`);
    }
    for (const f of [...hidden, ...readOnly]) {
      const field = r.fields.find((x) => x.name === f)!;
      if (field.meta.readOnly || !target) continue;
      const res = await request('PATCH', `${url}/${target.id}`, caller.token, r.name, {
        [f]: adminView.get(target.id)?.[f] ?? null,
      });
      if (res.status !== 403 || !Object.keys(res.json?.errors ?? {}).includes(f))
        fail(
          `update ${fieldLevel(w, caller, R, f)} ${f}: ${res.status} ${res.body.slice(0, 200)}, expected 403 naming it`,
        );
    }
    for (const other of outOfScope.slice(0, 2)) {
      const res = await request(
        'PATCH',
        `${url}/${other.id}`,
        caller.token,
        r.name,
        safe ? { [safe]: adminView.get(other.id)?.[safe] } : {},
      );
      if (res.status !== 404) fail(`update out of scope ${other.id}: ${res.status}, expected 404`);
    }
    const column = R.scope?.department;
    if (target && column && column !== 'id' && fieldLevel(w, caller, R, column) === 'write') {
      const away = world.oracle.departments.find((d) => !sees(w, caller, R, { ...target, [column]: d.id }));
      if (away) {
        const res = await request('PATCH', `${url}/${target.id}`, caller.token, r.name, {
          [column]: away.id,
        });
        if (res.status !== 422 || !Object.keys(res.json?.errors ?? {}).includes(column))
          fail(
            `move ${target.id} to department ${away.id} out of scope: ${res.status}, expected 422 naming ${column}`,
          );
      }
    }
    // Bulk: one id out of scope makes it a 404 naming that id, and nothing is written.
    const other = outOfScope[0];
    if (target && other && safe) {
      const res = await request('PATCH', `${url}?ids=${target.id},${other.id}`, caller.token, r.name, {
        [safe]: adminView.get(target.id)?.[safe],
      });
      const named = (res.json?.errors as { ids?: unknown } | undefined)?.ids;
      if (
        res.status !== 404 ||
        !JSON.stringify(named ?? '').includes(other.id) ||
        JSON.stringify(named).includes(`"${target.id}"`)
      )
        fail(
          `bulk update with ${other.id} out of scope: ${res.status} ${res.body.slice(0, 200)}, expected 404 naming only it`,
        );
    }
  }

  // Deletes out of scope: 404, alone or in a bulk call, and the record stays.
  if (hasOperation(r, 'delete') && mayDo(w, caller, R, 'delete')) {
    const other = outOfScope[0];
    if (other) {
      const res = await request('DELETE', `${url}/${other.id}`, caller.token, r.name);
      if (res.status !== 404) fail(`delete out of scope ${other.id}: ${res.status}, expected 404`);
      const mine = inScope.find((x) => world.authors.has(`${r.name}:${x.id}`));
      const pair = mine ? `${mine.id},${other.id}` : other.id;
      const bulk = await request('DELETE', `${url}?ids=${pair}`, caller.token, r.name);
      if (bulk.status !== 404) fail(`bulk delete ${pair}: ${bulk.status}, expected 404`);
      for (const id of pair.split(',')) {
        const still = await request('GET', `${url}/${id}`, world.admin.token, r.name);
        if (still.status !== 200) fail(`record ${id} gone after a refused delete: ${still.status}`);
      }
    }
  }

  // CSV export: the caller's rows, no more.
  if (hasOperation(r, 'export')) {
    const res = await request('GET', `${url}/export`, caller.token, r.name, undefined, {
      'accept-language': 'en',
    });
    const want = mayDo(w, caller, R, 'export') ? 200 : 403;
    if (res.status !== want) fail(`export: ${res.status}, expected ${want}`);
    else if (want === 200) {
      const rows = parseCsv(res.body.replace(/^\uFEFF/, '')) as string[][];
      const idColumn = rows[0]?.indexOf('ID') ?? -1;
      if (idColumn >= 0)
        compareIds(
          fail,
          'export',
          rows.slice(1).map((x) => x[idColumn]!),
          expected,
        );
      else if (rows.length - 1 !== expected.size)
        fail(`export: ${rows.length - 1} rows, expected ${expected.size}`);
      checkExportColumns(fail, r, caller, rows[0] ?? [], hidden);
    }
  }

  // Import upsert=id of a row out of scope: refused, naming the row (or the restricted column first).
  if (hasOperation(r, 'import') && mayDo(w, caller, R, 'import') && outOfScope[0]) {
    const other = outOfScope[0];
    const file = await request(
      'GET',
      `${url}/export?search=${encodeURIComponent(`id:${other.id}`)}`,
      world.admin.token,
      r.name,
      undefined,
      { 'accept-language': 'en' },
    );
    const res = await t.request({
      method: 'POST',
      url: `${url}/import?upsert=id`,
      token: caller.token,
      headers: { 'content-type': 'multipart/form-data; boundary=accessgen', 'accept-language': 'en' },
      payload: Buffer.concat([
        Buffer.from(
          '--accessgen\r\nContent-Disposition: form-data; name="file"; filename="x.csv"\r\nContent-Type: text/csv\r\n\r\n',
        ),
        Buffer.from(file.body),
        Buffer.from('\r\n--accessgen--\r\n'),
      ]),
    });
    count(r.name);
    const restricted = [...hidden, ...readOnly].filter(
      (f) => !r.fields.find((x) => x.name === f)!.meta.readOnly,
    );
    const want = restricted.length ? 403 : 422;
    if (res.statusCode !== want)
      fail(
        `import upsert=id of ${other.id} out of scope: ${res.statusCode} ${res.body.slice(0, 200)}, expected ${want}`,
      );
  }

  // Includes: embedded records the caller may not see are left out, hidden fields of the target too.
  for (const f of r.fields) {
    const rel = f.meta.relation;
    // The fixture's resources are served by a module of their own, which embeds only its own records.
    const served = fixtureResources.includes(r) ? fixtureResources : world.resources;
    const target = rel && served.find((x) => x.name === rel.resource);
    if (!rel || !target || fieldLevel(w, caller, R, f.name) === 'hidden') continue;
    const include = rel.kind === 'belongsTo' ? f.name.replace(/_id$/, '') : f.name.replace(/_ids$/, 's');
    const T = oracleResource(target);
    const res = await get(`${url}?size=1000&include=${include}`);
    if (!mayRead(w, caller, T)) {
      if (res.status !== 403) fail(`include=${include} without ${target.name}: ${res.status}, expected 403`);
      continue;
    }
    if (res.status !== 200) {
      fail(`include=${include}: ${res.status} ${res.body.slice(0, 200)}`);
      continue;
    }
    const targets = new Set(visibleIds(w, caller, T, await oracleRecords(t, world, target)));
    const targetHidden = restrictableFields(target).filter((x) => fieldLevel(w, caller, T, x) === 'hidden');
    for (const row of (res.json.data as { data: Row[] }).data) {
      const stored = adminView.get(row.id)?.[f.name];
      const embedded = row[include];
      if (rel.kind === 'belongsTo') {
        if (stored === null || stored === undefined) continue;
        const want = targets.has(String(stored)) ? String(stored) : null;
        const got = embedded && typeof embedded === 'object' ? String((embedded as Row).id) : null;
        if (got !== want) fail(`include=${include} on ${row.id}: embedded ${got}, expected ${want}`);
        if (embedded && typeof embedded === 'object')
          checkFields(fail, `included ${include}`, embedded as Row, targetHidden, target);
      } else {
        const want = ((stored as string[] | undefined) ?? [])
          .map(String)
          .filter((x) => targets.has(x))
          .sort();
        const list = Array.isArray(embedded) ? (embedded as Row[]) : [];
        const got = list.map((x) => String(x.id)).sort();
        if (JSON.stringify(got) !== JSON.stringify(want))
          fail(`include=${include} on ${row.id}: ${got}, expected ${want}`);
        for (const e of list) checkFields(fail, `included ${include}`, e, targetHidden, target);
      }
    }
  }
}

/**
 * Creates: a hidden or read-only field is a 403 naming it, a department the caller cannot see a 422 naming
 * the column, and a plain create in scope is the caller's own record, which it then reads.
 */
async function checkCreates(r: Resource, caller: Caller, adminView: Map<string, Row>, failures: string[]) {
  const R = oracleResource(r);
  const w = world.oracle;
  if (!mayRead(w, caller, R) || !mayDo(w, caller, R, 'create')) return;
  const fail = (what: string) => failures.push(`${caller.label} ${what}`);
  const url = `/api/${r.endpoint}`;
  const field = (f: string) => r.fields.find((x) => x.name === f)!;
  const restricted = restrictableFields(r).filter(
    (f) => fieldLevel(w, caller, R, f) !== 'write' && !field(f).meta.readOnly,
  );
  const body = await world.randomBody(r);
  const some = [...adminView.values()].at(-1);
  for (const f of restricted.slice(0, 2)) {
    const res = await request('POST', url, caller.token, r.name, {
      ...body,
      [f]: body[f] ?? some?.[f] ?? null,
    });
    if (res.status !== 403 || !Object.keys(res.json?.errors ?? {}).includes(f))
      fail(
        `create with ${fieldLevel(w, caller, R, f)} ${f}: ${res.status} ${res.body.slice(0, 200)}, expected 403 naming it`,
      );
    if (res.status === 201) return;
  }
  if (restricted.some((f) => !field(f).schema.safeParse(undefined).success) || r.name === 'departments')
    return;
  const allowed = Object.fromEntries(Object.entries(body).filter(([k]) => !restricted.includes(k)));
  // A role the role editor's rule would refuse this caller (mayManageRole) is not tried as "in scope".
  if (r.name === 'roles' && !mayManageRole(w, caller, roleOf('new', allowed), pagesWithFields())) return;
  const column = R.scope?.department;
  const candidates: (string | null)[] = [null, ...w.departments.map((d) => d.id)];
  const wouldSee = (d: string | null) =>
    sees(w, caller, R, { id: '0', created_by: caller.userId, ...(column ? { [column]: d } : {}) });
  if (column && !restricted.includes(column)) {
    const away = candidates.find((d) => d !== null && !wouldSee(d));
    if (away) {
      const res = await request('POST', url, caller.token, r.name, { ...allowed, [column]: away });
      if (res.status !== 422 || !Object.keys(res.json?.errors ?? {}).includes(column))
        fail(
          `create in department ${away} out of scope: ${res.status} ${res.body.slice(0, 200)}, expected 422 naming ${column}`,
        );
      if (res.status === 201) return;
    }
  }
  // A record the caller would not see afterwards is not tried (without a department column there is no
  // field a refusal could name).
  const home = column && !restricted.includes(column) ? candidates.find(wouldSee) : undefined;
  if (home === undefined && !wouldSee(null)) return;
  const res = await request(
    'POST',
    url,
    caller.token,
    r.name,
    home === undefined ? allowed : { ...allowed, [column!]: home },
  );
  if (res.status !== 201) {
    fail(`create in scope: ${res.status} ${res.body.slice(0, 200)}`);
    return;
  }
  const id = String((res.json.data as Row).id);
  world.note(r.name, id, caller.userId, column ? (home ?? null) : undefined);
  const read = await request('GET', `${url}/${id}`, caller.token, r.name);
  if (read.status !== 200) fail(`read of its own new ${id}: ${read.status}`);
}

/** Every caller that may read the resource subscribes; the administrator touches every record. */
async function checkEvents(r: Resource, failures: string[]): Promise<void> {
  const R = oracleResource(r);
  const records = await oracleRecords(t, world, r);
  const adminView = await listEverything(t, world.admin.token, r);
  const safe = safeField(r, () => true);
  if (!safe) return;
  const readers = world.callers.filter((c) => mayRead(world.oracle, c, R));
  const open = await Promise.all(readers.map((c) => openSse(base, c.token)));
  streams.push(...open);
  await Promise.all(open.map((s) => s.connected()));
  for (const row of adminView) {
    const res = await request('PATCH', `/api/${r.endpoint}/${row.id}`, world.admin.token, r.name, {
      [safe]: row[safe],
    });
    if (res.status !== 200) failures.push(`admin touch ${row.id}: ${res.status} ${res.body.slice(0, 200)}`);
  }
  // The control event comes after every change: once a stream has it, any leaked change is there too.
  const marker = `access-${r.name}`;
  await publishEvent(t.db, { type: 'control', data: { marker }, permission: null });
  for (const [i, s] of open.entries()) {
    const caller = readers[i]!;
    await s.waitFor((e) => e.event === 'control' && (e.data as { marker?: string }).marker === marker);
    const got = s.events
      .filter((e) => e.event === 'record' && (e.data as { resource?: string }).resource === r.name)
      .map((e) => String((e.data as { id: string }).id));
    compareIds(
      (what) => failures.push(`${caller.label} ${what}`),
      'events',
      got,
      new Set(visibleIds(world.oracle, caller, R, records)),
    );
    s.close();
  }
}

// ------------------------------------------------------------------------------------------- helpers

interface Pagination {
  total: number;
  total_is_estimate?: boolean;
  total_is_capped?: boolean;
  next_cursor?: string | null;
}

async function request(
  method: 'GET' | 'PATCH' | 'DELETE' | 'POST',
  url: string,
  token: string,
  resource: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await t.request({
    method,
    url,
    token,
    headers,
    ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
  });
  count(resource);
  let json: { data: unknown; errors?: Record<string, unknown> } | null = null;
  try {
    json = res.json();
  } catch {
    // CSV
  }
  if (res.statusCode >= 500)
    throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  return { status: res.statusCode, json: json!, body: res.body };
}

function count(resource: string): void {
  cases[resource] = (cases[resource] ?? 0) + 1;
}

/** The same set of ids, each once. */
function compareIds(fail: (what: string) => void, what: string, got: string[], expected: Set<string>): void {
  const gotSet = new Set(got.map(String));
  if (gotSet.size !== got.length) fail(`${what}: duplicate ids ${got.join(',')}`);
  const extra = [...gotSet].filter((x) => !expected.has(x));
  const missing = [...expected].filter((x) => !gotSet.has(x));
  if (extra.length || missing.length)
    fail(
      `${what}: ${extra.length ? `out of scope ${extra.join(',')} ` : ''}${missing.length ? `missing ${missing.join(',')}` : ''}`,
    );
}

/**
 * The export's columns, by their English labels (from the catalogues, as a developer writes them): a hidden
 * field's column is absent, the others are there (except references to records the caller may not read,
 * which the default column set leaves out). Labels the administrator's own header does not hold exactly
 * once are not judged.
 */
function checkExportColumns(
  fail: (what: string) => void,
  r: Resource,
  caller: Caller,
  header: string[],
  hidden: string[],
): void {
  const adminHeader = adminHeaders.get(r.name) ?? [];
  const labels = ((catalogs.en.resources as Record<string, { fields?: Record<string, string> }>)[r.name]
    ?.fields ?? {}) as Record<string, string>;
  for (const f of restrictableFields(r)) {
    const label = labels[f];
    if (!label || adminHeader.filter((x) => x === label).length !== 1) continue;
    const rel = r.fields.find((x) => x.name === f)!.meta.relation;
    const target = rel && world.resources.find((x) => x.name === rel.resource);
    const readable = !target || mayRead(world.oracle, caller, oracleResource(target));
    if (hidden.includes(f) && header.includes(label)) fail(`export: hidden ${f} ("${label}") written`);
    if (!hidden.includes(f) && readable && !header.includes(label)) fail(`export: ${f} ("${label}") missing`);
  }
}

/** Hidden fields are absent; the other readable fields are there. */
function checkFields(
  fail: (what: string) => void,
  where: string,
  row: Row,
  hidden: string[],
  r: Resource,
): void {
  for (const f of restrictableFields(r)) {
    const isHidden = hidden.includes(f);
    if (isHidden && f in row) fail(`${where}: hidden ${r.name}.${f} answered`);
    if (!isHidden && !(f in row)) fail(`${where}: ${r.name}.${f} missing`);
  }
}

/**
 * A field to write its own current value into (a harmless update): plain, not unique, not a relation and
 * not one the people module guards.
 */
function safeField(r: Resource, allowed: (f: string) => boolean): string | null {
  const guarded = new Set(['departments.parent_id', 'roles.permissions', 'staff.is_admin', 'staff.role_ids']);
  const f = r.fields.find(
    (x) =>
      !x.meta.readOnly &&
      !x.meta.writeOnly &&
      !x.meta.unique &&
      !x.meta.relation &&
      !guarded.has(`${r.name}.${x.name}`) &&
      allowed(x.name),
  );
  return f?.name ?? null;
}

/** A role row's `permissions.menu_ids`. */
function menuIdsOf(row: Row | undefined): string[] {
  return ((row?.permissions as { menu_ids?: unknown[] } | undefined)?.menu_ids ?? []).map(String);
}

function sortKeys(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, (v as Record<string, unknown>)[k]]),
  );
}

/** A role as the role editor's rule reads it, from its wire form (a body or the administrator's view). */
function roleOf(id: string, row: Row | Record<string, unknown> | undefined) {
  const value = (row ?? {}) as Record<string, unknown>;
  return {
    id,
    permissions: menuIdsOf(value as Row),
    dataScope: (value.data_scope as DataScope | undefined) ?? 'all',
    departmentIds: ((value.data_scope_department_ids as unknown[] | undefined) ?? []).map(String),
    fieldAccess: (value.field_access as Record<string, 'hidden' | 'read'> | undefined) ?? {},
  };
}

/** Every registered resource with the fields a role may restrict, for the role editor's field rule. */
function pagesWithFields() {
  return world.resources.map((r) => ({ r: oracleResource(r), fields: restrictableFields(r) }));
}
