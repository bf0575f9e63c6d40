import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import system from '../../locales/zh-CN/system.json';
import systemEn from '../../locales/en/system.json';
import { adminCredentials, launchBrowser, newContext, signIn } from './helpers/browser.ts';

// Issue 6, scheduled tasks in the browser: an administrator runs a built-in task now (after confirming)
// and watches its run appear in the history, succeeded, without reloading. The run goes through pg-boss
// on the server under test (JOBS is on by default): queued, picked up by a worker, recorded. Issue 34: the
// built-in tasks, the queues and their states are named in the interface language, and a run's result is
// labelled figures, not JSON.
const PURGE = system.tasks.builtin.auth_purge;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser);
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await signIn(page, adminCredentials());
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('scheduled tasks', () => {
  test('run a task now and watch its history row appear', async () => {
    await page.goto('/settings/tasks');
    const tasks = page.getByRole('table', { name: system.tasks.title });
    const row = tasks.getByRole('row').filter({ hasText: PURGE });
    await row.waitFor();
    await row.getByRole('button', { name: system.tasks.actions.history }).click();
    const history = page.getByRole('heading', { name: new RegExp(system.tasks.runs.title) });
    await history.waitFor();
    const succeeded = () =>
      page
        .getByRole('table', { name: system.tasks.runs.title })
        .getByRole('row')
        .filter({ hasText: system.tasks.trigger.manual })
        .filter({ hasText: system.tasks.status.succeeded });
    const before = await succeeded().count();

    await row.getByRole('button', { name: system.tasks.actions.run_now }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: system.tasks.actions.run_now }).click();
    await page.getByText(system.tasks.run_started).waitFor();

    await expect.poll(() => succeeded().count(), { timeout: 20_000, interval: 250 }).toBe(before + 1);
    const cells = (await succeeded().first().getByRole('cell').allTextContents()).join(' ');
    expect(cells).toContain(system.tasks.result.tokens);
    expect(cells).not.toMatch(/[{}"]|tokens|rateLimits/);
  });

  test("the job queues page names a task's queue after the task", async () => {
    await page.goto('/settings/jobs');
    const queues = page.getByRole('table', { name: system.jobs.queues });
    const button = queues.getByRole('button', { name: PURGE });
    await button.waitFor();
    expect(await queues.getByRole('button', { name: /^task-\d+$/ }).count()).toBe(0);
    await button.click();
    await page.getByRole('heading', { name: PURGE, level: 2 }).waitFor();
  });

  test('in English the same pages name the tasks, queues and states in English', async () => {
    await page.evaluate(() => localStorage.setItem('locale', 'en'));
    try {
      await page.goto('/settings/tasks');
      const tasks = page.getByRole('table', { name: systemEn.tasks.title });
      await tasks.getByRole('row').filter({ hasText: systemEn.tasks.builtin.database_backup }).waitFor();
      await page.goto('/settings/jobs');
      const queues = page.getByRole('table', { name: systemEn.jobs.queues });
      await queues.getByRole('button', { name: systemEn.tasks.builtin.auth_purge }).waitFor();
      expect(await queues.getByRole('columnheader', { name: systemEn.jobs.states.completed }).count()).toBe(
        1,
      );
    } finally {
      await page.evaluate(() => localStorage.setItem('locale', 'zh-CN'));
    }
  });

  test("the monitor's queue card names queues and states in the interface language", async () => {
    await page.goto('/settings/monitor');
    const card = page.getByRole('heading', { name: system.monitor.queues, level: 2 }).locator('xpath=..');
    await card.getByRole('rowheader').first().waitFor();
    const text = await card.innerText();
    expect(text).not.toMatch(/\btask-\d+|\bcreated:|\bcompleted:|\bactive:/);
    expect(text).toMatch(new RegExp(`${system.jobs.task_queue.replace(' #{{id}}', '')} #\\d+|${PURGE}`));
    expect(text).toContain(`${system.jobs.states.completed}:`);
  });
});
