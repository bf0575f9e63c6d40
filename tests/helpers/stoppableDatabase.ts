import { afterAll, beforeAll } from 'vitest';
import { startPgCluster, type PgCluster } from '../../scripts/lib/pg-cluster.ts';
import { startServerProcess, type ServerProcess } from './serverProcess.ts';

/** True under `npm run test:pg`: a test that stops its database runs only there. */
export const onPostgres = Boolean(process.env.DATABASE_URL);

/** What such a test's title says on PGlite, where it is skipped. */
export const STOPPABLE_DATABASE_REASON =
  'needs a real PostgreSQL cluster to stop and start (runs under npm run test:pg); PGlite runs inside ' +
  'the server process and cannot become unreachable';

/** The administrator of the server below. */
const ADMIN = { username: 'admin', password: 'stoppable database password' };

export interface ServerOnStoppableDatabase {
  /** The cluster: `stop()` it (fast shutdown, every connection cut) and `start()` it again. */
  readonly cluster: PgCluster;
  readonly server: ServerProcess;
  /** A JSON call to `/api/<path>` in English, as `token`'s bearer when given. */
  call(method: string, path: string, token?: string, payload?: unknown): Promise<Response>;
  /** Signs the administrator in; resolves to its access token. */
  signIn(): Promise<string>;
}

/**
 * A throwaway PostgreSQL cluster a test may stop and start, and a real server process on it (`env` on top
 * of the administrator's), started before the describe's tests and removed after them. Call it inside a
 * `describe.skipIf(!onPostgres)`. Example:
 * `const db = serverOnStoppableDatabase({ JOBS: '0' }); ... db.cluster.stop(); await db.call('GET', path, token)`.
 */
export function serverOnStoppableDatabase(env: Record<string, string> = {}): ServerOnStoppableDatabase {
  let cluster: PgCluster | undefined;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    cluster = await startPgCluster({ log: () => {} });
    server = await startServerProcess({
      DATABASE_URL: cluster.url,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ...env,
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    cluster?.destroy();
  });
  const call = (method: string, path: string, token?: string, payload?: unknown) =>
    fetch(`${server!.baseURL}/api/${path}`, {
      method,
      headers: {
        'accept-language': 'en',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(payload ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload ? { body: JSON.stringify(payload) } : {}),
    });
  return {
    get cluster() {
      return cluster!;
    },
    get server() {
      return server!;
    },
    call,
    async signIn() {
      const login = await call('POST', 'v1/user/login', undefined, { ...ADMIN, remember: false });
      if (login.status !== 200) throw new Error(`sign-in answered ${login.status}`);
      return ((await login.json()) as { data: { access_token: string } }).data.access_token;
    },
  };
}
