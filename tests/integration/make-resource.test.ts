import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Resource } from '../../resources/define.ts';
import { settingsMenu, grantablePermissionNames } from '../../schemas/permissions.ts';

/**
 * `npm run make:resource` (issue 15 item 2), run as a developer would in a copy of the project: it writes the
 * resource file, both languages' labels, the registry line and the first migration, and prints next steps.
 */
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let copy: string;
let output: string;

beforeAll(async () => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), 'make-resource-'));
  for (const entry of [
    'resources',
    'locales',
    'schemas',
    'server',
    'package.json',
    'tsconfig.json',
    '.prettierrc.json',
  ])
    fs.cpSync(path.join(repo, entry), path.join(copy, entry), { recursive: true });
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(copy, 'node_modules'));
  const tsx = path.join(repo, 'node_modules', '.bin', 'tsx');
  const run = await promisify(execFile)(tsx, ['server/cli/make-resource.ts', 'products'], { cwd: copy });
  output = run.stdout;
}, 120_000);
afterAll(() => fs.rmSync(copy, { recursive: true, force: true }));

const read = (file: string) => fs.readFileSync(path.join(copy, file), 'utf8');

describe('make:resource', () => {
  it('writes the resource, its labels, its registry line and its first migration, and prints next steps', async () => {
    expect(output).toContain('resources/products.ts');
    expect(output).toContain('Next steps:');
    expect(read('resources/products.ts')).toContain("permission: 'content.products'");
    // Every field kind is shown, commented out.
    for (const kind of ['money(', 'image(', 'dictionary(', 'reference(', 'references(', "input: 'markdown'"])
      expect(read('resources/products.ts')).toContain(kind);
    expect(read('resources/index.ts')).toMatch(/import \{ products \} from '\.\/products\.ts';/);
    const en = JSON.parse(read('locales/en/resources.json')).products;
    const zh = JSON.parse(read('locales/zh-CN/resources.json')).products;
    expect(Object.keys(zh)).toEqual(Object.keys(en));
    expect(en).toMatchObject({ name_one: 'Product', name_other: 'Products', fields: { name: 'Name' } });
    expect(JSON.parse(read('locales/en/app.json')).menu.content).toBe('Content');
    const sql = fs.readdirSync(path.join(copy, 'server/migrations')).find((f) => f.endsWith('_products.sql'));
    expect(sql && read(`server/migrations/${sql}`)).toContain('CREATE TABLE "products"');
    expect(fs.existsSync(path.join(copy, 'server/migrations/snapshots/products.json'))).toBe(true);
  });

  it('the new resource is a menu page whose names are grantable, with no other edit', async () => {
    const { resources } = (await import(pathToFileURL(path.join(copy, 'resources/index.ts')).href)) as {
      resources: Resource[];
    };
    const menu = settingsMenu(resources);
    const group = menu.find((g) => g.name === 'content');
    expect(group?.title).toBe('app.menu.content');
    expect(group?.children?.[0]).toMatchObject({
      name: 'content.products',
      title: 'resources.products.name_other',
      path: '/settings/products',
    });
    expect(grantablePermissionNames(menu).has('content.products.import')).toBe(true);
  });

  it('--group shop writes a marked zh-CN placeholder for the new group and names, and says what to translate', async () => {
    const tsx = path.join(repo, 'node_modules', '.bin', 'tsx');
    const run = await promisify(execFile)(tsx, ['server/cli/make-resource.ts', 'crates', '--group', 'shop'], {
      cwd: copy,
    });
    expect(JSON.parse(read('locales/en/app.json')).menu.shop).toBe('Shop');
    expect(JSON.parse(read('locales/zh-CN/app.json')).menu.shop).toBe('Shop（待翻译）');
    const zh = JSON.parse(read('locales/zh-CN/resources.json')).crates;
    expect(zh).toMatchObject({ name_one: 'Crates（待翻译）', name_other: 'Crates（待翻译）' });
    expect(run.stdout).toContain('To translate (zh-CN placeholders written):');
    expect(run.stdout).toContain('locales/zh-CN/app.json  menu.shop: "Shop（待翻译）"');
    expect(run.stdout).toContain('locales/zh-CN/resources.json  crates.name_other: "Crates（待翻译）"');
  }, 60_000);

  it('refuses a resource that exists', async () => {
    const tsx = path.join(repo, 'node_modules', '.bin', 'tsx');
    await expect(
      promisify(execFile)(tsx, ['server/cli/make-resource.ts', 'products'], { cwd: copy }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('already exists') });
  }, 60_000);
});
