import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// Issue 12, item 8: an upload is stored and served under a name ending in the sniffed type's extension,
// without bidi or other control characters, whatever name the client sent.
const BASE = '/api/v1/resources/assets';
const BOUNDARY = '----security-uploads-boundary';
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('png'),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('jpeg body')]);
const TEXT = Buffer.from('plain notes\n');

let t: TestApp;
let admin: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'security-uploads-'));
  t = await createTestApp({ dataDir });
  admin = await t.adminToken();
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A multipart upload with the file name sent as raw UTF-8, as browsers do. */
function upload(name: string, content: Buffer) {
  const payload = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n`,
      'utf8',
    ),
    Buffer.from('Content-Type: application/octet-stream\r\n\r\n'),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  return t.request({
    method: 'POST',
    url: BASE,
    token: admin,
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  });
}

/** The file name a download is served under (the RFC 5987 UTF-8 form). */
async function servedName(id: string): Promise<string> {
  const res = await t.request({ url: `${BASE}/${id}/download`, token: admin });
  expect(res.statusCode).toBe(200);
  const disposition = String(res.headers['content-disposition']);
  return decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(disposition)![1]!);
}

describe('upload names', () => {
  it.each([
    ['PNG bytes named report.html', 'report.html', PNG, 'report.html.png'],
    ['a bidi override hiding .exe', 'invoice\u202egnp.exe', PNG, 'invoicegnp.exe.png'],
    ['isolates and zero-width characters', 'a\u2066b\u2069c\u200b.png', PNG, 'abc.png'],
    ['a line separator', 'two\u2028lines.png', PNG, 'twolines.png'],
    ['no extension', 'scan', PNG, 'scan.png'],
    ['a trailing dot', 'scan.', PNG, 'scan.png'],
    ['only control characters', '\u202e\u200f', PNG, 'file.png'],
    ['an accepted spelling of the type', 'photo.JPEG', JPEG, 'photo.JPEG'],
    ['text under a text extension', 'notes.md', TEXT, 'notes.md'],
    ['text under a script extension', 'run.sh', TEXT, 'run.sh.txt'],
  ])('%s: stored and served as %s', async (_, name, content, expected) => {
    const res = await upload(name, content);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.name).toBe(expected);
    const { rows } = await t.db.query<{ name: string }>('SELECT name FROM assets WHERE id = $1', [
      res.json().data.id,
    ]);
    expect(rows[0]!.name).toBe(expected);
    expect(await servedName(res.json().data.id)).toBe(expected);
  });

  it('a long name keeps its extension', async () => {
    const res = await upload(`${'x'.repeat(300)}.html`, PNG);
    const name = res.json().data.name as string;
    expect(name).toHaveLength(200);
    expect(name.endsWith('.html.png')).toBe(true);
  });

  it('a row stored before the fix is served under a safe name', async () => {
    const res = await upload('legacy.png', PNG);
    const id = res.json().data.id as string;
    await t.db.query(`UPDATE assets SET name = $2 WHERE id = $1`, [id, 'old\u202eftp.html']);
    expect(await servedName(id)).toBe('oldftp.html.png');
  });
});
