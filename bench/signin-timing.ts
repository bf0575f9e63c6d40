/**
 * `npx tsx bench/signin-timing.ts [rounds]`: does a sign-in step answer a known account as fast as an unknown
 * one? (issue 31, item 7). For each pair it sends the two requests alternately over real HTTP on loopback and
 * prints the median and the 90th percentile of each and their difference: the password step (unknown account,
 * known account with a wrong password, disabled account, account without a password), the second step (an
 * unknown mfa_token, a live one with a wrong code), the reset (an unknown address, a known one), passkey sign-in
 * options, and the OpenID ticket (unknown, spent). Figures only; never fails on time. In-memory PGlite, or
 * PostgreSQL when DATABASE_URL is set; each request claims its own address (X-Forwarded-For, TRUST_PROXY on)
 * so the per-address windows do not throttle it, and each password account is a new one so no account window
 * fills.
 */
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { hashPassword } from '../server/credentials/password.ts';
import { randomToken, sha256 } from '../server/credentials/tokens.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { migrate } from '../server/db/migrate.ts';
import { openDatabase } from '../server/db/index.ts';
import { openPglite } from '../server/db/pglite.ts';

const rounds = Number(process.argv[2] ?? 40);
const password = 'bench-horse-battery-staple';

const db = process.env.DATABASE_URL
  ? await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: '/tmp' })
  : await openPglite(null);
await migrate(db);
const hash = await hashPassword(password);
await db.query(`INSERT INTO settings (name, value) VALUES ('sms', '{"provider": "log"}')
                ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`);
const config = { ...loadConfig({ DATA_DIR: '/tmp/admin-bench-timing' }), logToFile: false, trustProxy: true };
const app = await buildApp({ db, config, logger: pino({ level: 'silent' }) });
const address = await app.listen({ port: 0, host: '127.0.0.1' });

let seq = 0;
async function post(path: string, body: unknown): Promise<{ ms: number; status: number; json: unknown }> {
  const n = ++seq;
  const started = performance.now();
  const res = await fetch(`${address}/api/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
    },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as unknown;
  return { ms: performance.now() - started, status: res.status, json };
}

async function user(name: string, { state = true, withPassword = true } = {}): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO users (username, name, state, password_hash, phone) VALUES ($1, $1, $2, $3, $4) RETURNING id`,
    [name, state, withPassword ? hash : null, null],
  );
  return rows[0]!.id;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/** Runs `a` and `b` alternately `rounds` times and prints their medians. */
async function compare(name: string, a: [string, () => Promise<number>], b: [string, () => Promise<number>]) {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < 3; i++) await Promise.all([a[1](), b[1]()]); // warm-up
  // Alternating which goes first, so neither always follows the other's background work.
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? ([0, 1] as const) : ([1, 0] as const);
    for (const side of order) times[side].push(await [a, b][side]![1]());
  }
  const [ma, mb] = times.map((t) => percentile(t, 50));
  const [pa, pb] = times.map((t) => percentile(t, 90));
  console.log(
    `${name.padEnd(16)} ${a[0].padEnd(22)} p50 ${ma!.toFixed(1).padStart(6)} ms p90 ${pa!.toFixed(1).padStart(6)} ms | ` +
      `${b[0].padEnd(24)} p50 ${mb!.toFixed(1).padStart(6)} ms p90 ${pb!.toFixed(1).padStart(6)} ms | ` +
      `diff p50 ${(mb! - ma!).toFixed(1)} ms`,
  );
}

let n = 0;
const fresh = (opts?: { state?: boolean; withPassword?: boolean }) => user(`bt_${Date.now()}_${++n}`, opts);
const login = async (username: string, pw = password) =>
  (await post('v1/user/login', { username, password: pw, remember: false })).ms;

await compare(
  'password',
  ['unknown account', () => login(`nobody_${++n}`)],
  ['known, wrong password', async () => login((await userName(await fresh())) ?? '', 'wrong-password-x')],
);
await compare(
  'password',
  ['unknown account', () => login(`nobody_${++n}`)],
  ['disabled, right password', async () => login((await userName(await fresh({ state: false }))) ?? '')],
);
await compare(
  'password',
  ['unknown account', () => login(`nobody_${++n}`)],
  ['no password (OpenID)', async () => login((await userName(await fresh({ withPassword: false }))) ?? '')],
);

// The second step: a live mfa_token (inserted as the first step would) with a wrong code, and an unknown one.
await db
  .query(
    `INSERT INTO user_totp (user_id, secret, confirmed_at) SELECT id, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', now()
                FROM users WHERE username = 'admin'`,
  )
  .catch(() => undefined);
const totpUser = await fresh();
await db.query(
  `INSERT INTO user_totp (user_id, secret, confirmed_at) VALUES ($1, 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', now())`,
  [totpUser],
);
async function liveMfaToken(): Promise<string> {
  const token = randomToken();
  await db.query(
    `INSERT INTO mfa_tokens (token_hash, user_id, expires_at) VALUES ($1, $2, now() + interval '5 minutes')`,
    [sha256(token), totpUser],
  );
  return token;
}
await compare(
  'second step',
  [
    'unknown mfa_token',
    async () => (await post('v1/user/login/2fa', { mfa_token: randomToken(), code: '123456' })).ms,
  ],
  [
    'live token, wrong code',
    async () => {
      // A fresh account window each time: the bench measures the check, not the 429.
      await db.query('DELETE FROM rate_limits').catch(() => undefined);
      return (await post('v1/user/login/2fa', { mfa_token: await liveMfaToken(), code: '000000' })).ms;
    },
  ],
);

// Each side asks for a destination that has had no code yet (a repeated one has earlier codes to replace).
let phoneSeq = 0;
const nextPhone = () => `137${String(++phoneSeq).padStart(8, '0')}`;
await compare(
  'reset code',
  [
    'unknown address',
    async () => (await post('v1/user/captcha', { channel: 'sms', to: nextPhone(), scene: 'reset' })).ms,
  ],
  [
    'known address',
    async () => {
      const phone = nextPhone();
      await db.query('UPDATE users SET phone = $2 WHERE id = $1', [await fresh(), phone]);
      return (await post('v1/user/captcha', { channel: 'sms', to: phone, scene: 'reset' })).ms;
    },
  ],
);
await compare(
  'passkey options',
  ['no token', async () => (await post('v1/user/login/passkey/options', {})).ms],
  [
    'unknown mfa_token',
    async () => (await post('v1/user/login/passkey/options', { mfa_token: randomToken() })).ms,
  ],
);
async function spentTicket(): Promise<string> {
  const ticket = randomToken();
  await db.query(
    `INSERT INTO oidc_tickets (ticket_hash, user_id, provider_id, expires_at, consumed_at)
     VALUES ($1, $2, 'corp', now() + interval '2 minutes', now())`,
    [sha256(ticket), totpUser],
  );
  return ticket;
}
await compare(
  'OpenID ticket',
  ['unknown ticket', async () => (await post('v1/oidc/login', { ticket: randomToken() })).ms],
  ['spent ticket', async () => (await post('v1/oidc/login', { ticket: await spentTicket() })).ms],
);

await app.close();
await db.close();

async function userName(id: string): Promise<string | undefined> {
  const { rows } = await db.query<{ username: string }>('SELECT username FROM users WHERE id = $1', [id]);
  return rows[0]?.username;
}
