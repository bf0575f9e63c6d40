import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeIdempotencyKeys } from '../../server/core/idempotency.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * `Idempotency-Key` on creates (issue 28: the soak's one duplicate, a create whose COMMIT reached the disk
 * while PostgreSQL stopped, answered 503 and was created again by the client's retry). A retry with the same
 * key answers the record the first attempt made, for every engine resource and for uploads; concurrent
 * attempts make one record; keys are per user; a bad or reused key is a 422 that writes nothing.
 */
let t: TestApp;
let admin: string;
let clerk: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  clerk = await createUser(t.db, {
    staff: { permissions: ['system.users.departments', 'system.users.departments.create'] },
  });
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, key: string | null, token = admin) =>
  t.request({
    method: 'POST',
    url,
    token,
    payload: payload as object,
    headers: { 'accept-language': 'en', ...(key === null ? {} : { 'idempotency-key': key }) },
  });

async function count(table: string, where: string, params: unknown[]): Promise<number> {
  const { rows } = await t.db.query<{ n: string }>(
    `SELECT count(*) AS n FROM ${table} WHERE ${where}`,
    params,
  );
  return Number(rows[0]!.n);
}

const DEPARTMENTS = '/api/v1/user/departments';
const ROLES = '/api/v1/user/roles';

describe('a create sent again with the same Idempotency-Key', () => {
  it('answers the first record and creates nothing more', async () => {
    const first = await post(DEPARTMENTS, { name: 'idem once' }, 'key-dept-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post(DEPARTMENTS, { name: 'idem once' }, 'key-dept-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.id).toBe(first.json().data.id);
    expect(await count('departments', 'name = $1', ['idem once'])).toBe(1);
    expect(
      await count('activity_logs', "action = 'departments.create' AND subject_id = $1", [
        first.json().data.id,
      ]),
    ).toBe(1);
  });

  it('replays a create whose unique value its first attempt took, instead of a 409', async () => {
    const first = await post(ROLES, { name: 'idem role' }, 'key-role-1');
    expect(first.statusCode).toBe(201);
    const again = await post(ROLES, { name: 'idem role' }, 'key-role-1');
    expect(again.statusCode).toBe(201);
    expect(again.json().data.id).toBe(first.json().data.id);
    // Without the key the same body is an ordinary second create: the unique name refuses it.
    expect((await post(ROLES, { name: 'idem role' }, null)).statusCode).toBe(409);
  });

  it('makes one record when the attempts arrive at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => post(DEPARTMENTS, { name: 'idem concurrent' }, 'key-concurrent')),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((a) => a.json().data.id)).size).toBe(1);
    expect(await count('departments', 'name = $1', ['idem concurrent'])).toBe(1);
  });

  it('keeps keys per user: another user with the same key creates its own record', async () => {
    const mine = await post(DEPARTMENTS, { name: 'idem per user' }, 'shared-key');
    const theirs = await post(DEPARTMENTS, { name: 'idem per user' }, 'shared-key', clerk.token);
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
    expect(theirs.json().data.id).not.toBe(mine.json().data.id);
    expect(await count('departments', 'name = $1', ['idem per user'])).toBe(2);
  });

  it('refuses a key reused for another kind of create, and a malformed key, writing nothing', async () => {
    expect((await post(DEPARTMENTS, { name: 'idem kind' }, 'key-kind')).statusCode).toBe(201);
    const reused = await post(ROLES, { name: 'idem kind role' }, 'key-kind');
    expect(reused.statusCode).toBe(422);
    expect(reused.json().errors.idempotency_key[0]).toMatch(/different kind/);
    expect(await count('roles', 'name = $1', ['idem kind role'])).toBe(0);
    for (const bad of ['', 'x'.repeat(256), 'tab\there', 'ключ']) {
      const answer = await post(DEPARTMENTS, { name: 'idem bad key' }, bad);
      expect(answer.statusCode, JSON.stringify(bad)).toBe(422);
      expect(answer.json().errors.idempotency_key).toHaveLength(1);
    }
    expect(await count('departments', 'name = $1', ['idem bad key'])).toBe(0);
  });

  it('stores keys hashed and forgets them after a day', async () => {
    expect((await post(DEPARTMENTS, { name: 'idem old' }, 'key-old-plain-text')).statusCode).toBe(201);
    expect(await count('idempotency_keys', 'key_hash = $1', ['key-old-plain-text'])).toBe(0);
    await t.db.query("UPDATE idempotency_keys SET created_at = now() - interval '25 hours'");
    expect(await purgeIdempotencyKeys(t.db)).toBeGreaterThan(0);
    expect(await count('idempotency_keys', 'true', [])).toBe(0);
    // Forgotten: the same key now creates again.
    expect((await post(DEPARTMENTS, { name: 'idem old' }, 'key-old-plain-text')).statusCode).toBe(201);
    expect(await count('departments', 'name = $1', ['idem old'])).toBe(2);
  });
});

describe('an upload sent again with the same Idempotency-Key', () => {
  const BOUNDARY = '----idem-boundary';
  const upload = (key: string) =>
    t.request({
      method: 'POST',
      url: '/api/v1/resources/assets',
      token: admin,
      payload: Buffer.concat([
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="idem.pdf"\r\n` +
            'Content-Type: application/pdf\r\n\r\n%PDF-1.4\n% idempotent\n',
        ),
        Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
      ]),
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'idempotency-key': key },
    });

  it('answers the first file and keeps one stored copy', async () => {
    const first = await upload('key-upload-1');
    expect(first.statusCode).toBe(201);
    const again = await upload('key-upload-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data).toEqual(first.json().data);
    expect(await count('assets', 'name = $1', ['idem.pdf'])).toBe(1);
    const download = await t.request({
      url: `/api/v1/resources/assets/${first.json().data.id}/download`,
      token: admin,
    });
    expect(download.statusCode).toBe(200);
    expect(download.body).toContain('% idempotent');
  });
});
