import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app.ts';

/**
 * A third-party client as docs/api.md tells one to build it (issue 33): types generated with
 * openapi-typescript from the document the running server serves (`GET /api/docs/json`), a small client
 * compiled by tsc with `strict` and `noUncheckedIndexedAccess` (no casts, no `?.` on keys the document
 * guarantees), then run against the same server: it signs in, lists with paging and an include, creates,
 * updates and deletes a record of every resource, writes and reads a settings group and pages the activity
 * log. A key the document leaves optional where the server always answers it, or a name it gets wrong,
 * fails the compile; an answer that is not what the types say fails the run.
 *
 * openapi-typescript is a devDependency this file needs (`openapi-typescript@7.13.0`, peer `typescript ^5`):
 * without it the file skips itself and says so.
 */
const REPO = path.resolve(import.meta.dirname, '../..');
const GENERATOR = path.join(REPO, 'node_modules', '.bin', 'openapi-typescript');
const TSC = path.join(REPO, 'node_modules', '.bin', 'tsc');
const TSX = path.join(REPO, 'node_modules', '.bin', 'tsx');
const hasGenerator = fs.existsSync(GENERATOR);
if (!hasGenerator)
  console.warn(
    '[api-typed-client] skipped: openapi-typescript is not installed (npm i -D openapi-typescript@7.13.0)',
  );

let t: TestApp;
let base: string;
let dir: string;

describe.skipIf(!hasGenerator)('a client generated with openapi-typescript', () => {
  beforeAll(async () => {
    t = await createTestApp();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'typed-client-'));
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('compiles strictly from the served document and runs against the server', async () => {
    const started = Date.now();
    const res = await fetch(`${base}/api/docs/json`);
    expect(res.status).toBe(200);
    fs.writeFileSync(path.join(dir, 'openapi.json'), await res.text());
    const generated = spawnSync(
      GENERATOR,
      ['openapi.json', '-o', 'api.ts', '--default-non-nullable', 'false'],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(generated.status, generated.stderr).toBe(0);
    fs.writeFileSync(path.join(dir, 'client.mts'), CLIENT);
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const compiled = spawnSync(TSC, ['-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
    expect(compiled.status, compiled.stdout + compiled.stderr).toBe(0);
    // Asynchronously: the server answering the client runs in this process.
    const ran = await run(TSX, ['client.mts'], {
      API_BASE: base,
      API_USER: ADMIN.username,
      API_PASSWORD: ADMIN.password,
    });
    expect(ran.status, ran.stdout + ran.stderr).toBe(0);
    const steps = ran.stdout.trim().split('\n');
    console.info(
      `[api-typed-client] ${steps.length} steps in ${((Date.now() - started) / 1000).toFixed(1)}s: ${steps.join('; ')}`,
    );
    expect(steps).toEqual(expect.arrayContaining(['signed in', 'settings site', 'activity log paged']));
  }, 300_000);
});

/** A child process's exit code and output, without blocking this process's event loop. */
function run(
  file: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: dir, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: false,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    types: ['node'],
    typeRoots: [path.join(REPO, 'node_modules', '@types')],
    lib: ['es2022', 'dom'],
  },
  files: ['client.mts'],
};

/** The client of docs/api.md "A typed client", as a script would write it. */
const CLIENT = String.raw`
import type { components, paths } from './api.ts';

type Schemas = components['schemas'];
type Method = 'get' | 'post' | 'patch' | 'delete';
/** The JSON a path answers with a status, as the document says. */
type Answer<P extends keyof paths, M extends Method, S extends number> = paths[P][M] extends {
  responses: { [K in S]: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;

const BASE = process.env.API_BASE ?? 'http://127.0.0.1:3000';
let token = '';

async function call<T>(method: string, url: string, body?: unknown): Promise<{ status: number; json: T }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token) headers.authorization = 'Bearer ' + token;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(BASE + url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json: T = await res.json();
  if (res.status >= 300) throw new Error(method + ' ' + url + ' -> ' + res.status + ' ' + JSON.stringify(json));
  return { status: res.status, json };
}
const step = (text: string) => console.log(text);

// Sign in: a bearer token (no cookie, so the XSRF rule does not apply).
const login = await call<Answer<'/api/v1/user/login', 'post', 200>>('POST', '/api/v1/user/login', {
  username: process.env.API_USER,
  password: process.env.API_PASSWORD,
});
if (!('access_token' in login.json.data)) throw new Error('second factor asked');
token = login.json.data.access_token;
step('signed in');

// Departments: create, list with paging and an include, update, delete.
const deptBody: Schemas['DepartmentsCreate'] = { name: 'Typed client', parent_id: '0' };
const dept = await call<Answer<'/api/v1/user/departments', 'post', 201>>('POST', '/api/v1/user/departments', deptBody);
const deptId: string = dept.json.data.id;
const page = await call<Answer<'/api/v1/user/departments', 'get', 200>>('GET', '/api/v1/user/departments?page=1&size=2');
const total: number = page.json.data.meta.pagination.total;
for (const row of page.json.data.data) if (typeof row.name !== 'string') throw new Error('name');
const next = page.json.data.meta.pagination.next_cursor;
if (next !== null && next !== undefined)
  await call<Answer<'/api/v1/user/departments', 'get', 200>>('GET', '/api/v1/user/departments?size=2&cursor=' + encodeURIComponent(next));
const deptPatch: Schemas['DepartmentsUpdate'] = { name: 'Typed client 2', state: 1 };
const updated = await call<Answer<'/api/v1/user/departments/{id}', 'patch', 200>>('PATCH', '/api/v1/user/departments/' + deptId, deptPatch);
if (updated.json.data.name !== 'Typed client 2' || updated.json.data.state !== true) throw new Error('update');
step('departments ' + total);

// Roles.
const roleBody: Schemas['RolesCreate'] = { name: 'Typed role', permissions: { menu_ids: [] } };
const role = await call<Answer<'/api/v1/user/roles', 'post', 201>>('POST', '/api/v1/user/roles', roleBody);
const rolePatch: Schemas['RolesUpdate'] = { intro: 'from a script' };
await call<Answer<'/api/v1/user/roles/{id}', 'patch', 200>>('PATCH', '/api/v1/user/roles/' + role.json.data.id, rolePatch);
step('roles');

// Staff, with the role and the department, read back with includes.
const staffBody: Schemas['StaffCreate'] = { name: 'Typed member', department_id: deptId, role_ids: [role.json.data.id] };
const member = await call<Answer<'/api/v1/user/staff', 'post', 201>>('POST', '/api/v1/user/staff', staffBody);
const invitation: string = member.json.data.invitation_url;
const staffList = await call<Answer<'/api/v1/user/staff', 'get', 200>>('GET', '/api/v1/user/staff?include=department,roles&size=5');
for (const row of staffList.json.data.data) {
  const registered: boolean = row.registered;
  const department = row.department;
  if (department !== undefined && department !== null && typeof department.name !== 'string') throw new Error('include');
  if (!registered && row.user_id !== null) throw new Error('registered');
}
const staffPatch: Schemas['StaffUpdate'] = { gender: 'female', role_ids: [] };
await call<Answer<'/api/v1/user/staff/{id}', 'patch', 200>>('PATCH', '/api/v1/user/staff/' + member.json.data.id, staffPatch);
await call<Answer<'/api/v1/user/staff/{id}', 'delete', 200>>('DELETE', '/api/v1/user/staff/' + member.json.data.id);
step('staff ' + invitation.length);

// Users.
const userBody: Schemas['UsersCreate'] = { username: 'typed_client', password: 'Typed-client-pass-9' };
const user = await call<Answer<'/api/v1/user/users', 'post', 201>>('POST', '/api/v1/user/users', userBody);
await call<Answer<'/api/v1/user/users/{id}', 'patch', 200>>('PATCH', '/api/v1/user/users/' + user.json.data.id, { name: 'Typed' });
await call<Answer<'/api/v1/user/users/{id}', 'delete', 200>>('DELETE', '/api/v1/user/users/' + user.json.data.id);
step('users');

// Dictionaries: an entry without a memo.
const dictBody: Schemas['DictionariesCreate'] = { name: 'Typed colours', slug: 'typed_colours', data: [{ label: 'Red', value: 'red' }] };
const dict = await call<Answer<'/api/v1/dictionary/types', 'post', 201>>('POST', '/api/v1/dictionary/types', dictBody);
for (const entry of dict.json.data.data) if (typeof entry.memo !== 'string') throw new Error('memo');
await call<Answer<'/api/v1/dictionary/types/{id}', 'patch', 200>>('PATCH', '/api/v1/dictionary/types/' + dict.json.data.id, { name: 'Typed colours 2' });
await call<Answer<'/api/v1/dictionary/types/{id}', 'delete', 200>>('DELETE', '/api/v1/dictionary/types/' + dict.json.data.id);
step('dictionaries');

// Files: an upload (multipart), then delete.
const form = new FormData();
form.append('file', new Blob(['typed client'], { type: 'text/plain' }), 'typed.txt');
const uploaded = await fetch(BASE + '/api/v1/resources/assets', { method: 'POST', headers: { authorization: 'Bearer ' + token }, body: form });
const asset: Answer<'/api/v1/resources/assets', 'post', 201> = await uploaded.json();
await call<Answer<'/api/v1/resources/assets/{id}', 'delete', 200>>('DELETE', '/api/v1/resources/assets/' + asset.data.id);
step('assets');

// Cleanup of the department and role (the member is gone).
await call<Answer<'/api/v1/user/roles/{id}', 'delete', 200>>('DELETE', '/api/v1/user/roles/' + role.json.data.id);
await call<Answer<'/api/v1/user/departments/{id}', 'delete', 200>>('DELETE', '/api/v1/user/departments/' + deptId);

// A settings group: its own body and answer.
const site: Schemas['SettingsSiteBody'] = { site_name: 'Typed admin' };
const saved = await call<Answer<'/api/v1/settings/site', 'post', 200>>('POST', '/api/v1/settings/site', site);
const read = await call<Answer<'/api/v1/settings/site', 'get', 200>>('GET', '/api/v1/settings/site');
if (saved.json.data.site_name !== read.json.data.site_name) throw new Error('settings');
step('settings site');

// The activity log, page by page (it pages by number: no cursor).
let pageNo = 1;
let lastPage = 1;
while (pageNo <= Math.min(lastPage, 5)) {
  const logs: { status: number; json: Answer<'/api/v1/user/logs', 'get', 200> } = await call('GET', '/api/v1/user/logs?size=5&page=' + pageNo);
  for (const row of logs.json.data.data) if (typeof row.action !== 'string') throw new Error('action');
  lastPage = logs.json.data.meta.pagination.total_pages;
  pageNo++;
}
step('activity log paged');
`;
