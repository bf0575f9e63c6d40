import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import settings from '../../locales/zh-CN/settings.json';
import { adminCredentials, launchBrowser, newContext, signIn } from './helpers/browser.ts';

// Issue 5, files, in the browser: an administrator uploads two files at once through the file input, sees
// both listed (the image with a thumbnail fetched with the Bearer token), and downloads one.
let browser: Browser;
let context: BrowserContext;
let page: Page;

/** A real 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const NOTES = Buffer.from('Quarterly notes\nline two\n');

beforeAll(async () => {
  browser = await launchBrowser();
  context = await newContext(browser);
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await signIn(page, adminCredentials());
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('files', () => {
  test('uploads two files through the file input, lists them, downloads one', async () => {
    await page.goto('/settings/resources');
    const stamp = Date.now();
    const image = `pixel-${stamp}.png`;
    const notes = `notes-${stamp}.txt`;
    await page.locator('input[type="file"]').setInputFiles([
      { name: image, mimeType: 'image/png', buffer: PNG },
      { name: notes, mimeType: 'text/plain', buffer: NOTES },
    ]);
    await page.getByText(settings.files.uploaded).first().waitFor();
    const nameCell = (name: string) => page.locator('td.column-name').filter({ hasText: name });
    await nameCell(image).waitFor();
    await nameCell(notes).waitFor();
    // The thumbnail is an object URL of bytes fetched with the token (an <img src> could not send it).
    const thumbnail = page.getByRole('img', { name: image });
    await expect.poll(() => thumbnail.getAttribute('src')).toMatch(/^blob:/);
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);

    const row = page.getByRole('row').filter({ has: nameCell(notes) });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('button', { name: settings.files.download }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(notes);
    const file = await download.path();
    expect(fs.readFileSync(file).equals(NOTES)).toBe(true);
    await page.getByText(settings.files.downloaded).first().waitFor();
  });
});
