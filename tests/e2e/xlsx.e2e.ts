import fs from 'node:fs';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import engine from '../../locales/zh-CN/engine.json';
import { FIXTURE_LABELS } from '../fixtures/registry.ts';
import { apiData, apiSignIn } from './helpers/api.ts';
import { launchBrowser, signIn } from './helpers/browser.ts';
import { startFixtureServer } from './helpers/fixture-server.ts';
import { E2E_ADMIN } from './helpers/server.ts';
import type { E2eServer } from './helpers/server.ts';
import { seriousViolations } from './helpers/axe.ts';

// Issue 32 item 4 in the browser, on the gadgets fixture: the list's export menu gives an .xlsx (a download),
// one cell is edited in it with exceljs and its header renamed, and it comes back through the import dialog's
// mapping step (the renamed column mapped to its field), the dry run, and the import; the list shows the
// change. axe finds nothing serious with the export menu open and on the mapping step, at desk and phone size.
// Texts from the zh-CN catalogues, the app's default language.
const F = (FIXTURE_LABELS['zh-CN'].gadgets as { fields: Record<string, string> }).fields;
const t = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key]));

let server: E2eServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startFixtureServer();
  const token = await apiSignIn(server.baseURL, E2E_ADMIN.username, E2E_ADMIN.password);
  for (const [name, sku] of [
    ['XLSX 一', 'XL-1'],
    ['XLSX 二', 'XL-2'],
  ]) {
    const res = await apiData(server.baseURL, 'POST', 'v1/test/gadgets', {
      token,
      body: { name, sku, price: 3, color: 'red' },
    });
    expect(res.status).toBe(201);
  }
  browser = await launchBrowser();
  context = await browser.newContext({ baseURL: server.baseURL, locale: 'en-US', acceptDownloads: true });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await signIn(page, E2E_ADMIN);
}, 900_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

describe('XLSX', () => {
  test('export Excel, edit a cell, import it back through the mapping step', async () => {
    await page.goto('/settings/gadgets');
    await page.getByRole('cell', { name: 'XLSX 二' }).waitFor();
    await page.getByRole('button', { name: engine.action.export }).click();
    await page.getByRole('menuitem', { name: engine.xlsx.export_xlsx }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('menuitem', { name: engine.xlsx.export_xlsx }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^gadgets-\d{8}-\d{6}\.xlsx$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(fs.readFileSync(await download.path()) as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    const nameColumn = header.indexOf(F.name!);
    expect(nameColumn).toBeGreaterThan(0);
    let edited = 0;
    sheet.eachRow((row, n) => {
      if (n > 1 && row.getCell(nameColumn).value === 'XLSX 二') {
        row.getCell(nameColumn).value = 'XLSX 二 改';
        edited++;
      }
    });
    expect(edited).toBe(1);
    // A header the list does not know: the mapping step names its field.
    sheet.getRow(1).getCell(nameColumn).value = 'Product';
    const file = Buffer.from(await book.xlsx.writeBuffer());

    await page.getByRole('button', { name: engine.action.import }).click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('input[type=file]').setInputFiles({
      name: 'gadgets.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: file,
    });
    const mappingOf = dialog.getByRole('combobox', { name: t(engine.xlsx.field_for, { column: 'Product' }) });
    await mappingOf.waitFor();
    await expect.poll(() => mappingOf.textContent()).toContain(engine.xlsx.leave_out);
    expect(await seriousViolations(page)).toEqual([]);
    await mappingOf.click();
    await page.getByRole('option', { name: F.name!, exact: true }).click();
    await dialog.getByRole('button', { name: engine.xlsx.check }).click();
    await dialog.getByText(engine.import.no_errors).waitFor();
    const total = sheet.actualRowCount - 1;
    await dialog.getByText(t(engine.import.summary, { total, valid: total })).waitFor();
    await dialog.getByRole('button', { name: engine.import.confirm }).click();
    await page
      .getByText(t(engine.import_counts.done, { created: 0, updated: 1, unchanged: total - 1 }))
      .waitFor();
    await page.getByRole('cell', { name: 'XLSX 二 改' }).waitFor();

    // The list remembers the mapping: the same file is pre-filled next time.
    await page.getByRole('button', { name: engine.action.import }).click();
    await page.getByRole('dialog').locator('input[type=file]').setInputFiles({
      name: 'gadgets.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: file,
    });
    const again = page
      .getByRole('dialog')
      .getByRole('combobox', { name: t(engine.xlsx.field_for, { column: 'Product' }) });
    await expect.poll(() => again.textContent()).toBe(F.name);
  });

  test('axe on the export menu and the mapping step at phone size', async () => {
    const phone = await browser.newContext({
      baseURL: server.baseURL,
      locale: 'en-US',
      viewport: { width: 390, height: 844 },
      isMobile: true,
    });
    try {
      await phone.addCookies(await context.cookies());
      const small = await phone.newPage();
      small.setDefaultTimeout(20_000);
      await small.goto('/settings/gadgets');
      await small.getByText('XLSX 一').first().waitFor();
      await small.getByRole('button', { name: engine.action.export }).click();
      await small.getByRole('menuitem', { name: engine.xlsx.export_xlsx }).waitFor();
      expect(await seriousViolations(small)).toEqual([]);
      await small.keyboard.press('Escape');
      await small.getByRole('menuitem', { name: engine.xlsx.export_xlsx }).waitFor({ state: 'detached' });

      // A file whose header the list does not know: the mapping step.
      const book = new ExcelJS.Workbook();
      const sheet = book.addWorksheet('gadgets');
      sheet.addRow([F.sku!, 'Product']);
      sheet.addRow(['XL-1', 'XLSX 一']);
      await small.getByRole('button', { name: engine.action.import }).click();
      const dialog = small.getByRole('dialog');
      await dialog.locator('input[type=file]').setInputFiles({
        name: 'phone.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: Buffer.from(await book.xlsx.writeBuffer()),
      });
      await dialog.getByRole('combobox', { name: t(engine.xlsx.field_for, { column: 'Product' }) }).waitFor();
      expect(await seriousViolations(small)).toEqual([]);
      expect(await small.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await phone.close();
    }
  });
});
