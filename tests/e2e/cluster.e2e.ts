import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import system from '../../locales/zh-CN/system.json';
import { startPgCluster, type PgCluster } from '../../scripts/lib/pg-cluster.ts';
import { E2E_ADMIN, startServer, type E2eServer } from './helpers/server.ts';
import { launchBrowser, newContext, signIn } from './helpers/browser.ts';

// Issue 18, every node visible: two real servers on one PostgreSQL (a throwaway cluster) with files in
// the database (STORAGE=postgres); the monitor page of either lists both with their figures, and the
// system logs page offers both servers.
let cluster: PgCluster;
let servers: E2eServer[] = [];
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  const say = (line: string) => process.stdout.write(`[cluster.e2e] ${line}\n`);
  cluster = await startPgCluster({ log: say });
  const extraEnv = { DATABASE_URL: cluster.url, STORAGE: 'postgres', HEARTBEAT_SECONDS: '1' };
  servers = await Promise.all([startServer({ extraEnv, log: say }), startServer({ extraEnv, log: say })]);
  browser = await launchBrowser();
  context = await newContext(browser, { baseURL: servers[0]!.baseURL });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await signIn(page, E2E_ADMIN);
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await Promise.all(servers.map((s) => s.stop()));
  cluster?.destroy();
});

describe('two servers, one database', () => {
  test('the monitor page lists both nodes as live, this one marked', async () => {
    await page.goto('/settings/monitor');
    const table = page.getByRole('table', { name: system.monitor.nodes_title });
    const live = table.getByRole('row').filter({ hasText: system.monitor.node_live });
    await expect.poll(() => live.count(), { timeout: 20_000 }).toBe(2);
    await expect
      .poll(() => table.getByRole('row').filter({ hasText: system.monitor.node_self }).count())
      .toBe(1);
  });

  test('the system logs page offers both servers', async () => {
    await page.goto('/settings/logs');
    await page.getByRole('combobox', { name: system.logs.node }).click();
    await expect.poll(() => page.getByRole('option').count()).toBe(2);
    await page.getByRole('option').filter({ hasNotText: '本服务器' }).click();
    await page.getByText(/正在显示 .*发布到数据库/).waitFor();
  });
});
