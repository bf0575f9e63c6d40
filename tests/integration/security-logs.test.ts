import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, logFileFor } from '../../server/core/logger.ts';
import { scrubLine } from '../../server/modules/system-tools/logs.ts';
import type { AppModule } from '../../server/core/app-module.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// Issue 12, item 6: sensitive query values are redacted when the request line is written to DATA_DIR/logs,
// not only when the logs page reads it. The app's own file logger, read back from disk.
const INVITATION = 'inv_Zx9kQ2mP7vL4rT8wY1nB6cD3fG5hJ0sA';
let t: TestApp;
let dataDir: string;

const otpModule: AppModule = {
  name: 'otp-test',
  sensitiveQuery: ['otp'],
  register(app) {
    app.get('/api/test/otp', async () => ({ code: 200, data: null }));
  },
};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-redact-'));
  const logger = createLogger({ level: 'info', logDir: path.join(dataDir, 'logs'), stdout: false });
  t = await createTestApp({ dataDir }, { logger, extraModules: [otpModule] });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** The request URLs the server wrote to today's log file. */
async function loggedUrls(): Promise<string[]> {
  const file = logFileFor(path.join(dataDir, 'logs'), new Date());
  await expect.poll(() => fs.existsSync(file)).toBe(true);
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { req?: { url?: string } })
    .flatMap((entry) => (entry.req?.url ? [entry.req.url] : []));
}

describe('request lines in the log file', () => {
  it.each([
    [`/register?invitation=${INVITATION}`, '/register?invitation=[redacted]'],
    [`/api/v1/user/staff?Invitation=${INVITATION}&page=2`, '/api/v1/user/staff?Invitation=[redacted]&page=2'],
    [
      `/api/v1/wechat/officialaccount/auth?code=${INVITATION}&state=${INVITATION}&href=%2Fdashboard`,
      '/api/v1/wechat/officialaccount/auth?code=[redacted]&state=[redacted]&href=%2Fdashboard',
    ],
    [
      `/api/v1/system/jobs/1/download?ticket=${INVITATION}`,
      '/api/v1/system/jobs/1/download?ticket=[redacted]',
    ],
    [`/api/x?token=${INVITATION}`, '/api/x?token=[redacted]'],
    [`/api/test/otp?otp=${INVITATION}`, '/api/test/otp?otp=[redacted]'],
    // Issue 27, item 9: array and object notations name the same parameter.
    [`/api/x?code[]=${INVITATION}&page=1`, '/api/x?code[]=[redacted]&page=1'],
    [`/api/x?token[0]=${INVITATION}`, '/api/x?token[0]=[redacted]'],
    [`/api/x?Password[new]=${INVITATION}`, '/api/x?Password[new]=[redacted]'],
    [`/api/x?code%5B%5D=${INVITATION}`, '/api/x?code%5B%5D=[redacted]'],
    [`/api/x?invitation[a][b]=${INVITATION}`, '/api/x?invitation[a][b]=[redacted]'],
  ])('%s is written as %s', async (url, expected) => {
    await t.request({ url });
    await expect.poll(async () => (await loggedUrls()).includes(expected)).toBe(true);
  });

  it('no line of the file holds a secret value', async () => {
    const text = fs.readFileSync(logFileFor(path.join(dataDir, 'logs'), new Date()), 'utf8');
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(INVITATION);
  });

  it('keeps harmless query values as they are', async () => {
    await t.request({ url: '/api/v1/user/staff?page=3&search=name:li' });
    await expect
      .poll(async () => (await loggedUrls()).includes('/api/v1/user/staff?page=3&search=name:li'))
      .toBe(true);
  });
});

describe('the logs page scrubs bracketed parameter names too', () => {
  it.each([
    ['/x?code[]=a1b2c3&page=1', '/x?code[]=[redacted]&page=1'],
    ['/x?token[0]=a1b2c3', '/x?token[0]=[redacted]'],
    ['/x?code%5B%5D=a1b2c3', '/x?code%5B%5D=[redacted]'],
    ['/x?page[size]=20', '/x?page[size]=20'],
  ])('%s reads as %s', (line, expected) => {
    expect(scrubLine(line)).toBe(expected);
  });
});
