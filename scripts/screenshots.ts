/**
 * `npm run screenshots`: PNGs of the main pages, so anyone can look at the product without clicking through it.
 *
 * Builds the front end when stale, starts the real server on a free port with a throwaway PGlite DATA_DIR (as the
 * browser tests do), seeds a few records through the API (departments, roles, staff, dictionaries), signs in
 * through the sign-in page with headless Chromium (playwright-core, like tests/e2e) and writes
 * `<page>-<desk|phone>-<light|dark>.png` (desk 1440x900, phone 390x844, zh-CN) into `screenshots/` (git-ignored;
 * `SCREENSHOTS_DIR` overrides). The server and its data directory are removed afterwards.
 *
 * @example
 * npm run screenshots            # every page, both sizes, both themes
 * npm run screenshots -- staff   # only pages whose name contains "staff"
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import auth from '../locales/zh-CN/auth.json';
import system from '../locales/zh-CN/system.json';
import { GROUPS } from '../src/pages/settings/general/groupFields.ts';
import { E2E_ADMIN, startServer } from '../tests/e2e/helpers/server.ts';
import { ensureFrontendBuilt, repoRoot } from './lib/frontend.ts';

const say = (line: string): void => void process.stdout.write(`[screenshots] ${line}\n`);

/** The pages, by file name. Public pages are taken signed out. */
const PAGES: {
  name: string;
  route: string;
  signedIn: boolean;
  /** What to do on the page before the picture (e.g. open a panel). */
  then?: (page: Page) => Promise<void>;
}[] = [
  { name: 'login', route: '/login', signedIn: false },
  { name: 'register', route: '/register', signedIn: false },
  { name: 'dashboard', route: '/dashboard', signedIn: true },
  { name: 'profile', route: '/account/profile', signedIn: true },
  { name: 'account-security', route: '/account/security', signedIn: true },
  { name: 'account-sessions', route: '/account/sessions', signedIn: true },
  { name: 'account-tokens', route: '/account/tokens', signedIn: true },
  { name: 'settings-general', route: '/settings', signedIn: true },
  { name: 'staff', route: '/settings/staff', signedIn: true },
  { name: 'staff-create', route: '/settings/staff/create', signedIn: true },
  { name: 'roles', route: '/settings/roles', signedIn: true },
  { name: 'departments', route: '/settings/departments', signedIn: true },
  { name: 'dictionaries', route: '/settings/dictionaries', signedIn: true },
  { name: 'dictionary', route: '/settings/dictionaries/2', signedIn: true },
  { name: 'users', route: '/settings/users', signedIn: true },
  { name: 'files', route: '/settings/resources', signedIn: true },
  { name: 'activities', route: '/settings/activities', signedIn: true },
  { name: 'modules', route: '/settings/modules', signedIn: true },
  { name: 'monitor', route: '/settings/monitor', signedIn: true },
  { name: 'tasks', route: '/settings/tasks', signedIn: true },
  {
    name: 'tasks-history',
    route: '/settings/tasks',
    signedIn: true,
    // The run the seed started, its result as labelled figures.
    then: async (page) => {
      await page.getByRole('button', { name: system.tasks.actions.history }).first().click();
      await page.getByRole('table', { name: system.tasks.runs.title }).waitFor();
      await page.getByRole('heading', { name: new RegExp(system.tasks.runs.title) }).scrollIntoViewIfNeeded();
    },
  },
  { name: 'jobs', route: '/settings/jobs', signedIn: true },
  {
    name: 'jobs-queue',
    route: '/settings/jobs',
    signedIn: true,
    then: async (page) => {
      await page.getByRole('table', { name: system.jobs.queues }).getByRole('button').first().click();
      await page.getByRole('table', { name: system.jobs.title }).waitFor();
    },
  },
  { name: 'logs', route: '/settings/logs', signedIn: true },
  // Every tab of the general settings page (the first is `settings-general`), e.g. the mail templates.
  ...GROUPS.slice(1).map((group) => ({
    name: `settings-${group}`,
    route: '/settings',
    signedIn: true,
    then: async (page: Page) => {
      const tab = page.locator(`#settings-tab-${group}`);
      await tab.scrollIntoViewIfNeeded();
      await tab.click();
      await page.locator(`#settings-panel-${group}`).waitFor();
    },
  })),
];
const SIZES = {
  desk: { viewport: { width: 1440, height: 900 }, isMobile: false },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true },
} as const;
const THEMES = ['light', 'dark'] as const;
/** The same flags as the browser tests (tests/e2e/helpers/browser.ts): quiet on a closed network, as root. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function findChromium(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
      const file = path.join(dir, name);
      if (fs.existsSync(file)) return file;
    }
  }
  throw new Error('Chromium not found on PATH: `apt-get install -y chromium`, or set CHROMIUM_PATH.');
}

/** A few records, so lists and the dashboard show something. Failures are reported, not fatal. */
async function seed(baseURL: string): Promise<void> {
  const login = await fetch(`${baseURL}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...E2E_ADMIN, remember: false }),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  const post = async (endpoint: string, body: unknown): Promise<string | undefined> => {
    const res = await fetch(`${baseURL}/api/${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { data?: { id?: string }; message?: string };
    if (!res.ok) say(`seed: POST ${endpoint} answered ${res.status} ${json.message ?? ''}`);
    return json.data?.id;
  };
  const head = await post('v1/user/departments', { name: '总部', sort: 0 });
  const sales = await post('v1/user/departments', { name: '销售部', parent_id: head, sort: 1 });
  await post('v1/user/departments', { name: '研发部', parent_id: head, sort: 2 });
  const role = await post('v1/user/roles', {
    name: '销售专员',
    intro: '查看员工与部门',
    permissions: { menu_ids: ['system.users.staff', 'system.users.departments'] },
  });
  await post('v1/user/roles', { name: '审计员', intro: '只读查看操作日志', permissions: { menu_ids: [] } });
  const people = [
    ['李雷', '13812345678', 'male'],
    ['韩梅梅', '13987654321', 'female'],
    ['王芳', '13700001111', 'female'],
  ];
  // Staff members are invited: the create answers an invitation link, no account fields are sent.
  for (const [name, phone, gender] of people) {
    await post('v1/user/staff', { name, phone, gender, department_id: sales, role_ids: role ? [role] : [] });
  }
  await post('v1/dictionary/types', {
    name: '客户等级',
    slug: 'customer_level',
    data: [
      { label: '普通', value: 'normal', state: true, memo: '' },
      { label: '重要', value: 'vip', state: true, memo: '' },
    ],
  });
  // One run of the first built-in task, so the tasks' history and the job queues have something to show.
  await post('v1/system/tasks/1/run', {});
}

async function signIn(page: Page): Promise<void> {
  await page.goto('/login');
  await page.getByRole('textbox', { name: auth.fields.account }).fill(E2E_ADMIN.username);
  await page.getByLabel(auth.fields.password, { exact: false }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: auth.login.submit, exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard');
}

/** Waits until the page has settled: no progress indicator left, fonts loaded, animations over. */
async function settle(page: Page): Promise<void> {
  await page.locator('main, h1').first().waitFor({ timeout: 20_000 });
  await page
    .getByRole('progressbar')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
  await page.evaluate(async () => {
    await document.fonts.ready;
    await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined)));
  });
}

async function shoot(browser: Browser, baseURL: string, outDir: string, only: string | undefined) {
  const pages = PAGES.filter((p) => !only || p.name.includes(only));
  let count = 0;
  for (const [size, options] of Object.entries(SIZES)) {
    for (const theme of THEMES) {
      const context = await browser.newContext({ ...options, baseURL, locale: 'zh-CN' });
      await context.addInitScript((mode: string) => localStorage.setItem('theme', mode), theme);
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      for (const [signedIn, group] of [false, true].map(
        (s) => [s, pages.filter((p) => p.signedIn === s)] as const,
      )) {
        if (!group.length) continue;
        if (signedIn) await signIn(page);
        for (const { name, route, then } of group) {
          await page.goto(route);
          await settle(page);
          if (then) {
            await then(page);
            await settle(page);
          }
          const file = path.join(outDir, `${name}-${size}-${theme}.png`);
          await page.screenshot({ path: file, fullPage: false });
          count += 1;
        }
      }
      await context.close();
    }
  }
  return count;
}

const only = process.argv[2];
const outDir = path.resolve(repoRoot, process.env.SCREENSHOTS_DIR || 'screenshots');
fs.mkdirSync(outDir, { recursive: true });
warnWithoutCjkFont();
await ensureFrontendBuilt({ root: repoRoot, distDir: path.join(repoRoot, 'dist'), log: say });
// A busy machine may need minutes to start the server and migrate its database.
const server = await startServer({ log: say, readyTimeoutMs: 300_000 });
let browser: Browser | undefined;
try {
  await seed(server.baseURL);
  browser = await chromium.launch({ executablePath: findChromium(), headless: true, args: CHROMIUM_ARGS });
  const started = Date.now();
  const count = await shoot(browser, server.baseURL, outDir, only);
  say(
    `${count} screenshots in ${path.relative(process.cwd(), outDir) || outDir}/ (${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
} catch (err) {
  process.exitCode = 1;
  say(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
} finally {
  await browser?.close();
  await server.stop();
}

/**
 * The pages are in Chinese: without a CJK font Chromium draws the text as boxes. Asks fontconfig
 * (`fc-list :lang=zh`) and only warns, since the screenshots are still taken.
 */
function warnWithoutCjkFont(): void {
  const fonts = spawnSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' });
  if (fonts.error) {
    say('warning: fc-list not found, cannot tell whether a CJK font is installed (Debian: fonts-noto-cjk)');
  } else if (!fonts.stdout.trim()) {
    say('warning: no CJK font installed: Chinese text will be drawn as boxes.');
    say('         Debian/Ubuntu: sudo apt-get install fonts-noto-cjk');
  }
}
