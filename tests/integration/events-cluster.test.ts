import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import type { Db } from '../../server/db/index.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { publishEvent } from '../../server/events/hub.ts';
import type { FastifyInstance } from 'fastify';
import { PERMISSION } from '../../schemas/permissions.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { openSse, type SseStream } from '../helpers/sse.ts';
import { createUser } from '../helpers/users.ts';

/**
 * Two servers, one PostgreSQL: an event raised on one reaches a stream opened on the other through
 * LISTEN/NOTIFY. PGlite is one process's embedded database, so there is no second server to reach: this
 * file runs under `npm run test:pg` only.
 */
describe.skipIf(!process.env.DATABASE_URL)('live events across two servers (PostgreSQL)', () => {
  let first: TestApp;
  let secondDb: Db;
  let second: FastifyInstance;
  let firstBase: string;
  let secondBase: string;
  const open: SseStream[] = [];

  beforeAll(async () => {
    first = await createTestApp();
    firstBase = await first.app.listen({ port: 0, host: '127.0.0.1' });
    secondDb = await openPostgres(first.dbUrl!, { max: 3 });
    second = await buildApp({ db: secondDb, config: first.config, logger: pino({ level: 'silent' }) });
    secondBase = await second.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await second?.close();
    await secondDb?.close();
    await first?.close();
  });

  const stream = async (base: string, token: string) => {
    const s = await openSse(base, token);
    open.push(s);
    await s.connected();
    return s;
  };

  it('a record changed through server A reaches a stream opened on server B', async () => {
    const admin = await first.adminToken();
    const onB = await stream(secondBase, admin);
    const res = await first.request({
      method: 'POST',
      url: '/api/v1/user/departments',
      token: admin,
      payload: { name: 'Across servers' },
    });
    expect(res.statusCode).toBe(201);
    const id = (res.json() as { data: { id: string } }).data.id;
    const seen = await onB.waitFor((e) => e.event === 'record' && (e.data as { id: string }).id === id);
    expect(seen.data).toMatchObject({ resource: 'departments', action: 'create' });
  });

  it('filters by permission on the receiving server too, and carries job progress', async () => {
    const jobsClerk = await createUser(first.db, { staff: { permissions: [PERMISSION.systemJobs] } });
    const other = await createUser(first.db, { staff: { permissions: [PERMISSION.usersStaff] } });
    const [sJobs, sOther] = await Promise.all([
      stream(firstBase, jobsClerk.token),
      stream(secondBase, other.token),
    ]);
    const onBJobs = await stream(secondBase, jobsClerk.token);
    await publishEvent(secondDb, {
      type: 'job',
      data: { queue: 'exports', id: 'j1', progress: 40 },
      permission: PERMISSION.systemJobs,
    });
    await sJobs.waitFor((e) => e.event === 'job');
    await onBJobs.waitFor((e) => e.event === 'job');
    // The control event: raised after the job's, for every signed-in stream. Events reach a stream in the
    // order they were raised, so once server B's stream has it, a leaked job event would already be there.
    await publishEvent(secondDb, { type: 'control', data: { after: 'j1' }, permission: null });
    await sOther.waitFor((e) => e.event === 'control');
    expect(sOther.events.some((e) => e.event === 'job')).toBe(false);
  });

  it("signing out on server A ends that token's streams on server B at once (issue 27, item 7)", async () => {
    const user = await createUser(first.db);
    const onB = await stream(secondBase, user.token);
    const onA = await stream(firstBase, user.token);
    const res = await first.request({ method: 'POST', url: '/api/v1/user/logout', token: user.token });
    expect(res.statusCode).toBe(200);
    // Well before the 15 s heartbeat would notice.
    await Promise.all([onB.ended(3_000), onA.ended(3_000)]);
  });

  it('a module disabled on server A answers 404 on server B at once', async () => {
    const admin = await first.adminToken();
    const before = await second.inject({
      url: '/api/v1/dictionary/types',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(before.statusCode).toBe(200);
    const off = await first.request({
      method: 'POST',
      url: '/api/v1/system/modules/dictionaries/disable',
      token: admin,
    });
    expect(off.statusCode).toBe(200);
    // The other server hears of it through the database's notification.
    await expect
      .poll(
        async () =>
          (
            await second.inject({
              url: '/api/v1/dictionary/types',
              headers: { authorization: `Bearer ${admin}` },
            })
          ).statusCode,
        { timeout: 10_000, interval: 20 },
      )
      .toBe(404);
    await first.request({ method: 'POST', url: '/api/v1/system/modules/dictionaries/enable', token: admin });
  });
});
