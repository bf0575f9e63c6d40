import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../helpers/pgDatabase.ts';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';
import { startSmtp, type ReceivedMail, type TestSmtp } from '../helpers/smtp.ts';

/**
 * Issue 15's "done when": docs/adding-a-resource.md followed in a temporary copy of the project, with the
 * doc's own blocks. Each fenced block carries an info string saying what is done with it (see the doc's
 * walk-through): make:resource, the resource files and labels, make:migration, the app started (a server
 * process, PGlite or a scratch PostgreSQL database), its menu, a role granted only the new resource, the doc's
 * API script (upload for the image field, create with inline lines, edit, export, re-import), the hook, the
 * rename migration keeping the data, and the doc's own test run with vitest in the copy. Issue 35's extension
 * points are exercised as the doc's products declare them: the computed columns (the SQL one sorted), the
 * cross-field rule, the row action with its input and the bulk action, the hook's mail sent after commit
 * (caught by an SMTP sink) and the custom page in the menu.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const doc = fs.readFileSync(path.join(repo, 'docs/adding-a-resource.md'), 'utf8');
const exec = promisify(execFile);

interface Block {
  lang: string;
  action: string;
  arg: string;
  body: string;
}
const blocks: Block[] = [...doc.matchAll(/^```(\w*)([^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => {
  const tag = /doc:(\w+)(?:=(\S+))?/.exec(m[2]!);
  return { lang: m[1]!, action: tag?.[1] ?? '', arg: tag?.[2] ?? '', body: m[3]! };
});
const of = (action: string) => blocks.filter((b) => b.action === action);

let copy: string;
let dataDir: string;
let env: NodeJS.ProcessEnv;
let scratch: { url: string; drop(): Promise<void> } | null = null;
let server: ServerProcess | null = null;
let smtp: TestSmtp | null = null;
/** Every mail the sink received, in order. */
const received: ReceivedMail[] = [];
const ADMIN_PASSWORD = 'doc walk-through password';

/** Runs a doc:run block's commands in the copy, one line at a time (comments after `#` dropped). */
async function runCommands(block: Block): Promise<string> {
  let out = '';
  for (const line of block.body.split('\n')) {
    const command = line.replace(/#.*/, '').trim();
    if (!command) continue;
    const run = await exec('sh', ['-c', command], { cwd: copy, env }).catch(
      (error: { stdout?: string; stderr?: string }) => {
        throw new Error(`${command}\n${error.stdout ?? ''}${error.stderr ?? ''}`);
      },
    );
    out += run.stdout;
  }
  return out;
}

async function start(): Promise<ServerProcess> {
  await server?.stop();
  server = await startServerProcess(
    {
      DATA_DIR: dataDir,
      TMPDIR: env.TMPDIR!,
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD,
      SMTP_URL: smtp!.url,
      JOBS_POLL_SECONDS: '0.5',
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    },
    // A first start in a fresh copy transpiles the whole server: slow on a loaded 2-core machine.
    { cwd: copy, readyMs: 240_000 },
  );
  return server;
}

/** The fields of the answers this test reads. */
type WireData = Record<string, unknown> & {
  id: string;
  access_token: string;
  invitation_url: string;
  photo_id: string;
  lines: { name: string }[];
};

async function call(method: string, url: string, token?: string, payload?: unknown) {
  const res = await fetch(`${server!.baseURL}/api/${url}`, {
    method,
    headers: {
      'accept-language': 'en',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(payload ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload ? { body: JSON.stringify(payload) } : {}),
  });
  const body = (await res.json()) as { data: WireData; errors?: Record<string, string[]> };
  return { status: res.status, ...body };
}
const signIn = async (username: string, password: string) =>
  (await call('POST', 'v1/user/login', undefined, { username, password, remember: false })).data
    .access_token as string;

// The walk-through is the newcomer's path, `npm start` on PGlite; its PostgreSQL half (a scratch database)
// works but is left out of `npm run test:pg`, where it would add minutes to CI for what every other suite
// already proves on PostgreSQL. Run it there by hand with FOLLOW_THE_DOC_ON_PG=1.
const skipOnPg = Boolean(process.env.DATABASE_URL) && !process.env.FOLLOW_THE_DOC_ON_PG;

beforeAll(async () => {
  if (skipOnPg) return;
  copy = fs.mkdtempSync(path.join(os.tmpdir(), 'follow-the-doc-'));
  // The developer's own DATA_DIR, in the project (TMPDIR points elsewhere, for the servers' own temp files).
  dataDir = path.join(copy, 'data');
  for (const entry of [
    'resources',
    'locales',
    'schemas',
    'server',
    'scripts',
    'tests/helpers',
    'tests/fixtures',
    'tests/setup',
    'package.json',
    'tsconfig.json',
    'vitest.config.ts',
    '.prettierrc.json',
  ])
    fs.cpSync(path.join(repo, entry), path.join(copy, entry), { recursive: true });
  fs.rmSync(path.join(copy, 'server/migrations/snapshots/.pending.json'), { force: true });
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(copy, 'node_modules'));
  if (process.env.DATABASE_URL) scratch = await createScratchDatabase();
  smtp = await startSmtp({ onMail: (mail) => received.push(mail) });
  fs.mkdirSync(path.join(copy, '.tmp'));
  env = {
    ...process.env,
    PATH: `${path.join(repo, 'node_modules/.bin')}:${process.env.PATH}`,
    TMPDIR: path.join(copy, '.tmp'),
  };
  delete env.DATABASE_URL;
  if (scratch) env.DATABASE_URL = scratch.url;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await scratch?.drop();
  await smtp?.close();
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

describe.skipIf(skipOnPg)('docs/adding-a-resource.md, followed', () => {
  it('every code block says what exercises it, and the standalone ones hold', async () => {
    expect(blocks.length).toBeGreaterThan(10);
    for (const block of blocks)
      expect(
        ['run', 'file', 'labels', 'edit', 'wire', 'script', 'check', 'excerpt', 'npm', 'json'],
        block.body,
      ).toContain(block.action);
    const scripts = (
      JSON.parse(fs.readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: object }
    ).scripts;
    for (const block of [...of('npm'), ...of('run')])
      for (const [, name] of block.body.matchAll(/npm run ([\w:-]+)/g))
        expect(Object.keys(scripts)).toContain(name);
    for (const block of of('json')) expect(() => JSON.parse(block.body)).not.toThrow();
    // doc:check blocks are modules of resources/: each is evaluated as written.
    for (const [i, block] of of('check').entries()) {
      const file = path.join(copy, 'resources', `doc_check_${i}.ts`);
      fs.writeFileSync(file, block.body);
      await exec(process.execPath, ['--import', 'tsx', file], { cwd: copy, env });
      fs.rmSync(file);
    }
  }, 60_000);

  it('scaffolds, declares, labels and migrates products with inline lines', async () => {
    const [scaffold, migrate] = of('run');
    expect(await runCommands(scaffold!)).toContain('Next steps:');
    for (const block of of('file')) {
      fs.mkdirSync(path.dirname(path.join(copy, block.arg)), { recursive: true });
      fs.writeFileSync(path.join(copy, block.arg), block.body);
    }
    for (const block of of('labels')) {
      const file = path.join(copy, 'locales', block.arg, 'resources.json');
      const labels = { ...JSON.parse(fs.readFileSync(file, 'utf8')), ...JSON.parse(block.body) };
      fs.writeFileSync(file, `${JSON.stringify(labels, null, 2)}\n`);
    }
    // doc:wire blocks: their imports go on top of the file, an `export const` line replaces the same one.
    for (const block of of('wire')) {
      const file = path.join(copy, block.arg);
      let source = fs.readFileSync(file, 'utf8');
      const lines = block.body.trimEnd().split('\n');
      for (const line of lines.filter((l) => l.startsWith('export const '))) {
        const name = /^export const (\w+)/.exec(line)![1]!;
        const declared = new RegExp(`^export const ${name}\\b.*$`, 'm');
        expect(source, `${block.arg} declares ${name}`).toMatch(declared);
        source = source.replace(declared, line);
      }
      const imports = lines.filter((l) => l.startsWith('import '));
      fs.writeFileSync(file, `${imports.join('\n')}\n${source}`);
    }
    await runCommands(migrate!);
    const sql = fs
      .readdirSync(path.join(copy, 'server/migrations'))
      .filter((f) => /_products(_change)?\.sql$/.test(f))
      .map((f) => fs.readFileSync(path.join(copy, 'server/migrations', f), 'utf8'))
      .join('\n');
    expect(sql).toContain('CREATE TABLE "products"');
    expect(sql).toMatch(/"price" integer NOT NULL/);
    expect(sql).toContain("'product_category'");
  }, 300_000);

  it('starts with the menu entry; a role granted only products works through the doc script', async () => {
    await start();
    const admin = await signIn('admin', ADMIN_PASSWORD);
    const menus = await call('GET', 'v1/system/menus', admin);
    const flat = JSON.stringify(menus.data);
    expect(flat).toContain('"shop.products"');
    expect(flat).toContain('/settings/products');
    expect(flat).not.toContain('/settings/product_lines');
    // The doc's custom page ("Custom pages"): in the administrator's menu, in the shop group.
    expect(flat).toContain('"shop.sales_report"');
    expect(flat).toContain('/settings/sales-report');

    const department = await call('POST', 'v1/user/departments', admin, {
      name: 'Shop floor',
      parent_id: '0',
    });
    expect(department.status, JSON.stringify(department)).toBe(201);
    // The group's name and the page's (as the role editor checks them), the lines' read permission (a product's
    // lines are embedded with it) and the actions the clerk needs.
    const grant = [
      'shop',
      'shop.products',
      'shop.product_lines',
      'shop.products.create',
      'shop.products.update',
      'shop.products.export',
      'shop.products.import',
    ];
    const role = await call('POST', 'v1/user/roles', admin, {
      name: 'Clerk',
      permissions: { menu_ids: grant },
    });
    expect(role.status, JSON.stringify(role)).toBe(201);
    const user = await call('POST', 'v1/user/users', admin, {
      username: 'clerk',
      name: 'Clerk',
      password: 'Clerk-pass-123',
    });
    expect(user.status, JSON.stringify(user)).toBe(201);
    const staff = await call('POST', 'v1/user/staff', admin, { name: 'Clerk', role_ids: [role.data.id] });
    const clerk = await signIn('clerk', 'Clerk-pass-123');
    const invitation = new URL(staff.data.invitation_url).searchParams.get('invitation');
    expect((await call('POST', 'v1/user/join', clerk, { invitation })).status).toBe(200);

    // The clerk's menu is Products alone; other pages stay closed.
    const own = JSON.stringify((await call('GET', 'v1/system/menus', clerk)).data);
    expect(own).toContain('/settings/products');
    expect(own).not.toContain('/settings/staff');
    expect(own).not.toContain('/settings/sales-report');
    expect((await call('GET', 'v1/user/users', clerk)).status).toBe(403);

    const [script] = of('script');
    const file = path.join(copy, 'try-products.ts');
    fs.writeFileSync(file, script!.body);
    const run = await exec(process.execPath, ['--import', 'tsx', file], {
      cwd: copy,
      env: {
        ...env,
        BASE: server!.baseURL,
        USERNAME: 'clerk',
        PASSWORD: 'Clerk-pass-123',
        DEPARTMENT_ID: department.data.id,
        OWNER_ID: user.data.id,
      },
    });
    const result = JSON.parse(run.stdout) as {
      id: string;
      lines: number;
      price: number;
      csv: string;
      imported: Record<string, unknown>;
    };
    expect(result).toMatchObject({ lines: 2, price: 2999 });
    const rows = result.csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(rows[0]).toContain('Price');
    expect(rows[1]).toContain('29.99');
    expect(rows[1]).toContain('Tools');
    expect(result.imported).toMatchObject({ total: 1, valid: 1, created: 0 });
    const product = await call('GET', `v1/shop/products/${result.id}?include=lines`, clerk);
    expect(product.data).toMatchObject({ price: 2999, category: 'tools', description: '**Steel** head' });
    expect(product.data.lines.map((l: { name: string }) => l.name).sort()).toEqual(['Handle', 'Head']);
    // The image is served to the clerk through its field.
    const photo = await fetch(
      `${server!.baseURL}/api/v1/resources/assets/${product.data.photo_id}/download?field=products.photo_id`,
      { headers: { authorization: `Bearer ${clerk}` } },
    );
    expect(photo.status).toBe(200);

    // The doc's hook refuses a priced discontinued product.
    const refused = await call('POST', 'v1/shop/products', clerk, {
      name: 'Old',
      sku: 'OLD-X',
      price: 100,
      category: 'tools',
      department_id: department.data.id,
      owner_id: user.data.id,
    });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.errors ?? {})).toEqual(['price']);
    await server!.stop();
    server = null;
  }, 420_000);

  it("the doc's extension points: computed columns, cross-field rule, actions, mail after commit", async () => {
    await start();
    const admin = await signIn('admin', ADMIN_PASSWORD);
    // The hook's mail for the clerk's HAM-1 (the script above), sent by the outbox job after the commit.
    const first = await smtp!.nextMail('shop@example.com', 120_000);
    expect(first.subject).toBe('New product HAM-1');
    const [hammer] = (
      (await call('GET', 'v1/shop/products?search=sku:HAM-1', admin)).data as unknown as {
        data: WireData[];
      }
    ).data;
    const owner = String(hammer!.owner_id);
    const cheap = await call('POST', 'v1/shop/products', admin, {
      name: 'Nail',
      sku: 'NAI-1',
      price: 100,
      category: 'tools',
      department_id: String(hammer!.department_id),
      owner_id: owner,
    });
    expect(cheap.status, JSON.stringify(cheap)).toBe(201);
    expect((await smtp!.nextMail('shop@example.com', 120_000)).subject).toBe('New product NAI-1');
    // The refused OLD-X of the walk-through rolled back: no mail for it, and one per created product.
    expect(received.map((m) => m.subject).sort()).toEqual(['New product HAM-1', 'New product NAI-1']);

    // Computed: the SQL one answered and sorted (through its generated index), the function one answered.
    const sorted = (await call('GET', 'v1/shop/products?orderBy=price_with_tax&sortedBy=desc', admin))
      .data as unknown as { data: WireData[] };
    expect(sorted.data.map((r) => [r.sku, r.price_with_tax, r.summary])).toEqual([
      ['HAM-1', 3298, 'HAM-1: Hammer'],
      ['NAI-1', 110, 'NAI-1: Nail'],
    ]);
    const migrations = fs
      .readdirSync(path.join(copy, 'server/migrations'))
      .filter((f) => /_products\.sql$/.test(f))
      .map((f) => fs.readFileSync(path.join(copy, 'server/migrations', f), 'utf8'))
      .join('\n');
    expect(migrations).toContain(
      '"products_price_with_tax_sort" ON "products" (("products"."price" * 110 / 100), "id")',
    );

    // The cross-field rule: a 422 under the field it names.
    const same = await call('POST', 'v1/shop/products', admin, {
      name: 'Same',
      sku: 'SAME',
      price: 1,
      category: 'tools',
      department_id: String(hammer!.department_id),
      owner_id: owner,
    });
    expect(same.status).toBe(422);
    expect(Object.keys(same.errors ?? {})).toEqual(['sku']);

    // The row action with its input (validated by the action's schema), then the bulk action.
    const version = Number(hammer!.version);
    const bad = await call('POST', `v1/shop/products/${hammer!.id}/actions/discount`, admin, {
      version,
      input: { amount: 0 },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.errors ?? {})).toEqual(['amount']);
    const discounted = await call('POST', `v1/shop/products/${hammer!.id}/actions/discount`, admin, {
      version,
      input: { amount: 499 },
    });
    expect(discounted.status, JSON.stringify(discounted)).toBe(200);
    expect(discounted.data).toMatchObject({ price: 2500, price_with_tax: 2750, version: version + 1 });
    const ids = `${hammer!.id},${cheap.data.id}`;
    const cleared = await call('POST', `v1/shop/products/actions/clear_price?ids=${ids}`, admin, {});
    expect(cleared.status, JSON.stringify(cleared)).toBe(200);
    for (const id of [hammer!.id, cheap.data.id])
      expect((await call('GET', `v1/shop/products/${id}`, admin)).data).toMatchObject({ price: 0 });
    // Each action is a permission name a role may hold.
    const role = await call('POST', 'v1/user/roles', admin, {
      name: 'Pricing',
      permissions: {
        menu_ids: ['shop', 'shop.products', 'shop.products.discount', 'shop.products.clear_price'],
      },
    });
    expect(role.status, JSON.stringify(role)).toBe(201);
    await server!.stop();
    server = null;
  }, 420_000);

  it('a declared rename migrates with the data kept', async () => {
    const [edit] = of('edit');
    const file = path.join(copy, edit!.arg);
    const line = edit!.body.trimEnd();
    const source = fs.readFileSync(file, 'utf8');
    const renamed = source.replace(/^ {4}description: .*$/m, line);
    expect(renamed).not.toBe(source);
    fs.writeFileSync(file, renamed);
    await runCommands(of('run')[2]!);
    const change = fs
      .readdirSync(path.join(copy, 'server/migrations'))
      .filter((f) => f.endsWith('_products_change.sql'))
      .map((f) => fs.readFileSync(path.join(copy, 'server/migrations', f), 'utf8'))
      .join('\n');
    expect(change, fs.readdirSync(path.join(copy, 'server/migrations')).join(' ')).toContain(
      'RENAME COLUMN "description" TO "details"',
    );
    expect(change).not.toContain('DROP COLUMN');
    await start();
    const admin = await signIn('admin', ADMIN_PASSWORD);
    const list = await call('GET', 'v1/shop/products?search=sku:HAM-1', admin);
    expect((list.data as unknown as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ sku: 'HAM-1', details: '**Steel** head' }),
    ]);
    await server!.stop();
    server = null;
  }, 300_000);

  it("the doc's own test passes in the copy, and its excerpts match the code", async () => {
    for (const block of of('excerpt')) {
      const inCopy = path.join(copy, block.arg);
      const text = fs.readFileSync(fs.existsSync(inCopy) ? inCopy : path.join(repo, block.arg), 'utf8');
      for (const line of block.body.split('\n').map((l) => l.trim()))
        if (line && !line.startsWith('//')) expect(text, block.arg).toContain(line);
    }
    const [test] = of('file').filter((b) => b.arg.startsWith('tests/'));
    const run = await exec(
      path.join(repo, 'node_modules/.bin/vitest'),
      ['run', '--project', 'server', test!.arg],
      { cwd: copy, env },
    ).catch((error: { stdout?: string; stderr?: string }) => {
      throw new Error(`${error.stdout ?? ''}${error.stderr ?? ''}`);
    });
    expect(run.stdout).toMatch(/1 passed/);
  }, 420_000);
});
