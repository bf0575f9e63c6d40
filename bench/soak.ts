/**
 * `npx tsx bench/soak.ts [--duration 10m] [--workers 12] [--seed 1]` (or SOAK_DURATION, SOAK_WORKERS,
 * SOAK_SEED; a bare number of minutes, or `120s` / `2m`): the bounded soak of issue 28, printed as figures
 * (no assertions; the exit code is 0 unless the bench itself breaks).
 *
 * A throwaway PostgreSQL 15 cluster (scripts/lib/pg-cluster.ts) and two server processes on it (`node
 * --import tsx server/main.ts`, each its own DATA_DIR and fixed port, one shared STORAGE=local directory,
 * CSV_JOB_ROWS=300 so large exports become jobs). `workers` clients (half on each server, moving to the
 * other one after a connection failure) drive mixed writes: creates, updates and deletes of departments,
 * roles and dictionaries, file uploads and deletes, CSV exports (streamed or queued), and some reads. The run
 * is cut into six phases of equal length (a phase lasts at least as long as its fault plus 10 s), each with
 * one fault injected 20% into it:
 *   1 steady      nothing
 *   2 pg-stop     PostgreSQL stopped (pg_ctl -m fast) for 20 s, then started
 *   3 sigkill     server B SIGKILLed and restarted
 *   4 sigterm     server A sent SIGTERM under load, restarted once it has exited (SIGKILL after 30 s)
 *   5 burst       200 requests at once (100 creates, 100 lists) over both servers
 *   6 cool-down   nothing
 * A server that exits on its own is counted and restarted (as a supervisor would).
 *
 * A write is acknowledged when it answers 2xx. A write that got no answer, a 5xx or a timeout is retried
 * (up to 40 s, the same body; a create's name carries a unique tag, also sent as its `Idempotency-Key`, so
 * a retry of a create that was applied answers that record) and, until acknowledged, either
 * outcome is accepted. The ledger keeps every acknowledged write (id, expected content, an upload's
 * sha256). At the end of each phase the workers pause, both servers are made ready, and the ledger is
 * checked against the database through the API (lists by tag, each upload downloaded):
 * - lost: an acknowledged record missing or not holding its last acknowledged content, an acknowledged
 *   delete whose record is back, an upload missing or not byte-identical;
 * - duplicated: more than one record holding one create's tag (a retried create stored twice).
 * Per phase it prints acknowledged writes, lost and duplicated (found at that check), 503 and other 5xx
 * answers, requests that got no answer, unexpected server exits and export jobs by state; then each
 * server's RSS over time. Non-zero lost, duplicated or non-503 5xx figures are flagged with `<<`.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, startPgCluster, type PgCluster } from '../scripts/lib/pg-cluster.ts';
import { repoRoot } from '../scripts/lib/frontend.ts';
import { startServerProcess, type RunningServer } from './lib/serverProcess.ts';
import { median } from './lib/stats.ts';

const { values: flags } = parseArgs({
  options: { duration: { type: 'string' }, workers: { type: 'string' }, seed: { type: 'string' } },
});
const DURATION_MS = parseDuration(flags.duration ?? process.env.SOAK_DURATION ?? '10');
const WORKERS = Number(flags.workers ?? process.env.SOAK_WORKERS ?? 12);
const SEED = Number(flags.seed ?? process.env.SOAK_SEED ?? 1);
const PASSWORD = 'soak-admin-password-1';
const OUTAGE_MS = 20_000;
const BURST = 200;
const RETRY_MS = 40_000;
const REQUEST_MS = 30_000;

const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const t0 = performance.now();
const clock = () => `${((performance.now() - t0) / 1000).toFixed(0).padStart(4)}s`;
const log = (line: string) => say(`[${clock()}] ${line}`);

// ---------------------------------------------------------------------------------------------------------
// Phases and their figures

const PHASES = ['steady', 'pg-stop', 'sigkill', 'sigterm', 'burst', 'cool-down'] as const;
type PhaseName = (typeof PHASES)[number];
interface Figures {
  requests: number;
  acked: number;
  lost: number;
  duplicated: number;
  s503: number;
  s5xx: number;
  /** Connection refused: no server listening (nothing was sent). */
  refused: number;
  /** Sent, then reset, closed or timed out without an answer; by call and error code. */
  noAnswer: number;
  dropped: Map<string, number>;
  exits: number;
  statuses: Map<number, number>;
  exportsStreamed: number;
}
const figures: Figures[] = PHASES.map(() => ({
  requests: 0,
  acked: 0,
  lost: 0,
  duplicated: 0,
  s503: 0,
  s5xx: 0,
  refused: 0,
  noAnswer: 0,
  dropped: new Map(),
  exits: 0,
  statuses: new Map(),
  exportsStreamed: 0,
}));
let phase = 0;
const now = () => figures[phase]!;
/** Descriptions of what the checks found (first few of each kind are printed). */
const findings: string[] = [];
const finding = (line: string) => {
  findings.push(`[${PHASES[phase]}] ${line}`);
};

// ---------------------------------------------------------------------------------------------------------
// Seeded randomness (mulberry32)

let rngState = SEED >>> 0 || 1;
function rand(): number {
  rngState = (rngState + 0x6d2b79f5) >>> 0;
  let t = rngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (n: number) => Math.floor(rand() * n);
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
function seededBytes(size: number): Buffer {
  const out = Buffer.alloc(Math.ceil(size / 4) * 4);
  for (let i = 0; i < out.length; i += 4) out.writeUInt32LE(Math.floor(rand() * 4294967296), i);
  return out.subarray(0, size);
}

// ---------------------------------------------------------------------------------------------------------
// Servers

class Node {
  server: RunningServer | null = null;
  /** Set while we stop it ourselves, so its exit is not counted as unexpected. */
  stopping = false;
  starting: Promise<void> | null = null;
  rssSamples: number[][] = PHASES.map(() => []);
  /** Error-level (or unparsable) log lines, and lines carrying a stack trace, by message. */
  errorLines = new Map<string, number>();
  stackLines = new Map<string, number>();
  /** Each run's output, written to the log directory at the end. */
  outputs: string[] = [];
  exitsSeen: string[] = [];
  constructor(
    readonly name: string,
    readonly port: number,
    readonly env: NodeJS.ProcessEnv,
  ) {}
  get baseURL() {
    return `http://127.0.0.1:${this.port}`;
  }
  get pid(): number | null {
    const child = this.server?.child;
    return child && child.exitCode === null && child.signalCode === null ? (child.pid ?? null) : null;
  }
  rss(): number | null {
    const pid = this.pid;
    if (!pid) return null;
    try {
      const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(text)?.[1] ?? 0);
      return kb ? kb * 1024 : null;
    } catch {
      return null;
    }
  }
  /** Starts it, and keeps trying (every 2 s) while it exits during start-up; resolves once it is up. */
  start(): Promise<void> {
    this.starting ??= (async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          const server = await startServerProcess({
            command: process.execPath,
            args: ['--import', 'tsx', 'server/main.ts'],
            cwd: repoRoot,
            env: this.env,
            port: this.port,
            every: 100,
          });
          this.server = server;
          this.stopping = false;
          server.child.once('exit', (code, signal) => this.exited(server, code, signal));
          log(`server ${this.name} up (pid ${server.child.pid}, ${(server.wallMs / 1000).toFixed(1)} s)`);
          return;
        } catch (error) {
          const tail = String((error as Error).message)
            .split('\n')
            .slice(-6)
            .join(' | ');
          log(`server ${this.name} failed to start (attempt ${attempt}): ${tail.slice(0, 400)}`);
          await sleep(2000);
        }
      }
    })().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }
  private exited(server: RunningServer, code: number | null, signal: NodeJS.Signals | null) {
    this.scan(server.output());
    this.outputs.push(server.output());
    if (this.stopping) return;
    now().exits++;
    const tail = server
      .output()
      .trim()
      .split('\n')
      .slice(-8)
      .map((l) => `    ${l.slice(0, 300)}`)
      .join('\n');
    const what = `server ${this.name} exited on its own (code ${code}, signal ${signal})`;
    this.exitsSeen.push(`[${PHASES[phase]}] ${what}\n${tail}`);
    log(`${what}; restarting`);
    void this.start();
  }
  /** Counts its error-level log lines, and the lines that carry a stack trace, by message. */
  private scan(output: string) {
    for (const line of output.split('\n')) {
      if (!line.trim()) continue;
      const entry = parseLine(line);
      const what = entry ? String(entry.msg ?? '(no msg)') : `(not JSON) ${line.trim().slice(0, 80)}`;
      if (!entry || ['error', 'fatal', 50, 60].includes(entry.level as string))
        this.errorLines.set(what, (this.errorLines.get(what) ?? 0) + 1);
      const stack = entry ? entry.err?.stack : line;
      if (typeof stack === 'string' && /(^|\n)\s+at .+:\d+:\d+/.test(stack))
        this.stackLines.set(what, (this.stackLines.get(what) ?? 0) + 1);
    }
  }
  async kill(signal: 'SIGKILL' | 'SIGTERM', graceMs = 30_000): Promise<number> {
    const server = this.server;
    if (!server || this.pid === null) return 0;
    this.stopping = true;
    const started = performance.now();
    const exited = new Promise<void>((r) => server.child.once('exit', () => r()));
    server.child.kill(signal);
    const force = setTimeout(() => server.child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(force);
    return performance.now() - started;
  }
  async finish() {
    if (this.server && this.pid !== null) {
      await this.kill('SIGTERM');
    }
  }
  async ready(deadlineMs = 120_000): Promise<boolean> {
    const deadline = Date.now() + deadlineMs;
    while (Date.now() < deadline) {
      if (this.starting) await this.starting;
      const status = await fetch(`${this.baseURL}/api/health/ready`, { signal: AbortSignal.timeout(5000) })
        .then((r) => r.status)
        .catch(() => 0);
      if (status === 200) return true;
      await sleep(250);
    }
    return false;
  }
}

// ---------------------------------------------------------------------------------------------------------
// HTTP

let token = '';
interface Answer {
  status: number; // 0: no answer (refused, reset, timeout)
  body: unknown;
  headers: Headers | null;
  text?: string;
}

async function send(
  node: Node,
  method: string,
  url: string,
  body?: unknown,
  options: { multipart?: { name: string; bytes: Buffer }; raw?: boolean; idempotencyKey?: string } = {},
): Promise<Answer> {
  const f = now();
  f.requests++;
  let payload: BodyInit | undefined;
  const headers: Record<string, string> = { 'accept-language': 'en' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  if (options.multipart) {
    const boundary = `----soak${randomBytes(8).toString('hex')}`;
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${options.multipart.name}"\r\n` +
          'Content-Type: application/pdf\r\n\r\n',
      ),
      options.multipart.bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  try {
    const res = await fetch(`${node.baseURL}/api/${url}`, {
      method,
      headers,
      body: payload,
      signal: AbortSignal.timeout(REQUEST_MS),
    });
    const fig = now();
    fig.statuses.set(res.status, (fig.statuses.get(res.status) ?? 0) + 1);
    if (res.status === 503) fig.s503++;
    else if (res.status >= 500) fig.s5xx++;
    if (options.raw && res.status === 200) {
      const bytes = Buffer.from(await res.arrayBuffer());
      return { status: res.status, body: bytes, headers: res.headers };
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    if (res.status >= 500 && res.status !== 503)
      finding(`${res.status} on ${method} ${url}: ${text.slice(0, 200)}`);
    return { status: res.status, body: parsed, headers: res.headers, text };
  } catch (error) {
    const code = String((error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name);
    if (code === 'ECONNREFUSED') now().refused++;
    else {
      const fig = now();
      const call = `${method} ${url.replace(/\/\d+/g, '/:id').replace(/\?.*/, '')} ${code}`;
      fig.noAnswer++;
      fig.dropped.set(call, (fig.dropped.get(call) ?? 0) + 1);
    }
    return { status: 0, body: null, headers: null };
  }
}

const dataOf = (a: Answer) => (a.body as { data?: unknown } | null)?.data as Record<string, unknown>;

async function signIn(node: Node): Promise<void> {
  for (;;) {
    const res = await send(node, 'POST', 'v1/user/login', {
      username: 'admin',
      password: PASSWORD,
      remember: false,
    });
    if (res.status === 200) {
      token = String(dataOf(res).access_token);
      return;
    }
    await sleep(1000);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The ledger

type Kind = 'departments' | 'roles' | 'dictionaries' | 'assets';
const ENDPOINT: Record<Kind, string> = {
  departments: 'v1/user/departments',
  roles: 'v1/user/roles',
  dictionaries: 'v1/dictionary/types',
  assets: 'v1/resources/assets',
};
type Content = Record<string, unknown>;
interface Entry {
  kind: Kind;
  tag: string;
  id: string | null;
  /** Acknowledged: the create answered 2xx (else the record may or may not exist). */
  acked: boolean;
  /** The last acknowledged content; null once a delete is acknowledged. */
  expected: Content | null;
  /** Contents written since without an acknowledgement (null: a delete); any of them is acceptable. */
  maybe: (Content | null)[];
  sha?: string;
  /** An upload whose bytes a check has downloaded and found identical (later checks look again at the end). */
  verified?: boolean;
  version: number;
  flagged: boolean;
}
const ledger: Entry[] = [];
const tagOf = (worker: number, n: number) => `s${SEED}w${worker}n${n}x`;
const TAG = new RegExp(`s${SEED}w\\d+n\\d+x`);

/** The fields a check compares, as the API answers them. */
function comparable(kind: Kind, record: Content): string {
  switch (kind) {
    case 'departments':
      return JSON.stringify([record.name, Number(record.sort)]);
    case 'roles':
      return JSON.stringify([record.name, record.intro, Number(record.sort)]);
    case 'dictionaries':
      return JSON.stringify([
        record.name,
        record.slug,
        ((record.data as { label: string; value: string }[]) ?? []).map((e) => [e.label, e.value]),
      ]);
    case 'assets':
      return JSON.stringify([record.name]);
  }
}

function contentFor(kind: Kind, tag: string, version: number): Content {
  switch (kind) {
    case 'departments':
      return { name: `${tag} v${version}`, sort: int(1_000_000) };
    case 'roles':
      return { name: tag, intro: `intro ${version} ${int(1e9)}`, sort: int(1_000_000) };
    case 'dictionaries':
      return {
        name: `${tag} v${version}`,
        slug: tag,
        data: Array.from({ length: 1 + int(4) }, (_, i) => ({ label: `L${version}.${i}`, value: `v${i}` })),
      };
    case 'assets':
      return { name: `${tag}.pdf` };
  }
}

/**
 * One write with retries: on no answer or a 5xx it waits (Retry-After, at most 5 s) and tries again, on the
 * other server after a connection failure, for up to 40 s. Returns the final answer and whether any earlier
 * attempt may have been applied.
 */
async function write(
  home: Node,
  other: Node,
  method: string,
  url: string,
  body: unknown,
  options: { multipart?: { name: string; bytes: Buffer }; idempotencyKey?: string } = {},
): Promise<{ answer: Answer; retried: boolean }> {
  const deadline = Date.now() + RETRY_MS;
  let node = home;
  let retried = false;
  for (;;) {
    const answer = await send(node, method, url, body, options);
    if (answer.status === 401 && token) {
      await signIn(node === home ? other : home);
      continue;
    }
    const ambiguous = answer.status === 0 || answer.status >= 500;
    if (!ambiguous || Date.now() > deadline) return { answer, retried };
    retried = true;
    if (answer.status === 0) node = node === home ? other : home;
    const after = Number(answer.headers?.get('retry-after') ?? 1);
    await sleep(Math.min(5, Math.max(0.2, after || 1)) * 1000 * (0.5 + rand()));
  }
}

async function create(w: Client, kind: Kind): Promise<void> {
  const tag = tagOf(w.index, w.counter++);
  const entry: Entry = {
    kind,
    tag,
    id: null,
    acked: false,
    expected: contentFor(kind, tag, 1),
    maybe: [],
    version: 1,
    flagged: false,
  };
  ledger.push(entry);
  let multipart: { name: string; bytes: Buffer } | undefined;
  if (kind === 'assets') {
    const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), seededBytes(1024 + int(256 * 1024))]);
    multipart = { name: `${tag}.pdf`, bytes };
    entry.sha = createHash('sha256').update(bytes).digest('hex');
  }
  const { answer } = await write(
    w.home,
    w.other,
    'POST',
    ENDPOINT[kind],
    multipart ? undefined : entry.expected,
    // Every attempt of one create carries the same key: a retry of an applied create answers that record.
    { ...(multipart ? { multipart } : {}), idempotencyKey: tag },
  );
  if (answer.status === 200 || answer.status === 201) {
    entry.id = String(dataOf(answer).id);
    entry.acked = true;
    now().acked++;
    w.mine.push(entry);
  }
  // Anything else (a 409 after a retry, a 503 past the deadline): not acknowledged; the check adopts it
  // if it exists and counts it as duplicated if it exists twice.
}

async function update(w: Client, entry: Entry): Promise<void> {
  const next = contentFor(entry.kind, entry.tag, entry.version + 1);
  const { answer, retried } = await write(
    w.home,
    w.other,
    'PATCH',
    `${ENDPOINT[entry.kind]}/${entry.id}`,
    next,
  );
  entry.version++;
  if (answer.status === 200) {
    entry.expected = next;
    entry.maybe = [];
    now().acked++;
  } else if (answer.status === 404 && !retried && entry.maybe.length === 0) {
    lose(entry, `update of acknowledged ${entry.kind} ${entry.id} answered 404`);
  } else {
    entry.maybe.push(next);
  }
}

async function remove(w: Client, entry: Entry): Promise<void> {
  const { answer, retried } = await write(
    w.home,
    w.other,
    'DELETE',
    `${ENDPOINT[entry.kind]}/${entry.id}`,
    undefined,
  );
  if (answer.status === 200 || answer.status === 204 || (answer.status === 404 && retried)) {
    entry.expected = null;
    entry.maybe = [];
    now().acked++;
  } else if (answer.status === 404 && entry.maybe.length === 0) {
    lose(entry, `delete of acknowledged ${entry.kind} ${entry.id} answered 404`);
    entry.expected = null;
  } else {
    entry.maybe.push(null);
  }
  w.mine.splice(w.mine.indexOf(entry), 1);
}

function lose(entry: Entry, why: string) {
  if (entry.flagged) return;
  entry.flagged = true;
  now().lost++;
  finding(`lost: ${why} (${entry.tag})`);
}

// ---------------------------------------------------------------------------------------------------------
// Exports

interface ExportJob {
  id: string;
  endpoint: string;
  state: string;
  downloads: string;
}
const exportJobs: ExportJob[] = [];

async function exportOnce(w: Client): Promise<void> {
  const endpoint = pick([ENDPOINT.departments, ENDPOINT.roles, ENDPOINT.dictionaries]);
  const answer = await send(w.home, 'GET', `${endpoint}/export`, undefined);
  if (answer.status === 202) {
    exportJobs.push({
      id: String(dataOf(answer).job_id ?? dataOf(answer).id),
      endpoint,
      state: 'created',
      downloads: '',
    });
  } else if (answer.status === 200) {
    now().exportsStreamed++;
  }
}

/** Asks for every unfinished export job's state; downloads each newly completed one through both servers. */
async function checkExports(nodes: Node[]): Promise<void> {
  const open = exportJobs.filter((j) => !['completed', 'failed', 'cancelled'].includes(j.state));
  for (const job of open) {
    const answer = await send(nodes[0]!, 'GET', `${job.endpoint}/export/${job.id}`);
    if (answer.status !== 200) continue;
    job.state = String(dataOf(answer).state);
    if (job.state === 'completed') {
      const codes = [];
      for (const node of nodes) {
        codes.push(
          (await send(node, 'GET', `${job.endpoint}/export/${job.id}/download`, undefined, { raw: true }))
            .status,
        );
      }
      job.downloads = codes.join('/');
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Workers

class Client {
  counter = 0;
  mine: Entry[] = [];
  busy: Promise<void> = Promise.resolve();
  constructor(
    readonly index: number,
    readonly home: Node,
    readonly other: Node,
  ) {}
  async step(): Promise<void> {
    const r = rand();
    const owned = (kind: Kind) => this.mine.filter((e) => e.kind === kind);
    const some = (kind: Kind) => {
      const list = owned(kind);
      return list.length ? pick(list) : null;
    };
    const kind: Kind = pick(['departments', 'departments', 'roles', 'dictionaries']);
    if (r < 0.3) return create(this, kind);
    if (r < 0.5) {
      const entry = some(kind);
      return entry ? update(this, entry) : create(this, kind);
    }
    if (r < 0.6) {
      const entry = some(kind);
      return entry ? remove(this, entry) : create(this, kind);
    }
    if (r < 0.72) return create(this, 'assets');
    if (r < 0.75) {
      const entry = some('assets');
      if (entry) return remove(this, entry);
      return;
    }
    if (r < 0.8) return exportOnce(this);
    await send(this.home, 'GET', `${ENDPOINT[kind]}?size=20&orderBy=id&sortedBy=desc`);
  }
}

let paused: Promise<void> | null = null;
let stopAll = false;
/** A fault of the bench itself (not of the servers): ends the run, after cleaning up, with exit code 1. */
let benchError: unknown = null;
async function runWorker(w: Client): Promise<void> {
  while (!stopAll) {
    if (paused) {
      await paused;
      continue;
    }
    w.busy = w.step().catch((error: unknown) => {
      benchError ??= error;
      stopAll = true;
    });
    await w.busy;
  }
}

/** Sleeps `ms`, or throws as soon as a worker has broken. */
async function wait(ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (benchError) throw benchError;
    await sleep(Math.min(500, until - Date.now()));
  }
  if (benchError) throw benchError;
}

// ---------------------------------------------------------------------------------------------------------
// The check: the ledger against the database, through the API

/**
 * Every record of a kind the soak wrote, page after page by `next_cursor`: a filtered list's total stops at
 * the count cap (10,000, `total_is_capped`), so paging by `total_pages` would stop short of the newest rows.
 */
async function listAll(node: Node, kind: Kind): Promise<Content[] | null> {
  const out: Content[] = [];
  const base = `${ENDPOINT[kind]}?size=1000&search=name:s${SEED}w&searchFields=name:like&orderBy=id&sortedBy=asc`;
  for (let cursor: string | null = null; ;) {
    const url: string = cursor ? `${base}&cursor=${encodeURIComponent(cursor)}` : base;
    let answer: Answer | null = null;
    for (let attempt = 0; attempt < 10; attempt++) {
      answer = await send(node, 'GET', url);
      if (answer.status === 200) break;
      await sleep(1000);
    }
    if (answer?.status !== 200) return null;
    const data = dataOf(answer) as { data: Content[]; meta: { pagination: { next_cursor: string | null } } };
    out.push(...data.data);
    cursor = data.meta.pagination.next_cursor;
    if (!cursor) return out;
  }
}

async function check(nodes: Node[], final: boolean): Promise<void> {
  const node = nodes[phase % 2]!;
  for (const kind of ['departments', 'roles', 'dictionaries', 'assets'] as const) {
    const records = await listAll(node, kind);
    if (!records) {
      finding(`check: could not list ${kind}`);
      continue;
    }
    const byId = new Map(records.map((r) => [String(r.id), r]));
    const byTag = new Map<string, Content[]>();
    for (const r of records) {
      const tag = TAG.exec(String(r.name))?.[0];
      if (tag) byTag.set(tag, [...(byTag.get(tag) ?? []), r]);
    }
    for (const entry of ledger.filter((e) => e.kind === kind)) {
      const found = byTag.get(entry.tag) ?? [];
      if (found.length > 1 && !entry.flagged) {
        entry.flagged = true;
        now().duplicated += found.length - 1;
        finding(
          `duplicated: ${kind} ${entry.tag} stored ${found.length} times (ids ${found.map((r) => r.id).join(', ')})`,
        );
      }
      // Not acknowledged: whether it exists or not is acceptable (once).
      if (!entry.acked || entry.flagged) continue;
      const record = byId.get(entry.id!);
      const options = [entry.expected, ...entry.maybe];
      if (kind === 'assets' && record && (!entry.verified || final)) {
        const bytes = await send(node, 'GET', `${ENDPOINT.assets}/${entry.id}/download`, undefined, {
          raw: true,
        });
        const sha =
          bytes.status === 200
            ? createHash('sha256')
                .update(bytes.body as Buffer)
                .digest('hex')
            : '';
        if (sha !== entry.sha && options.some((o) => o !== null)) {
          lose(
            entry,
            `upload ${entry.id} downloads ${bytes.status === 200 ? 'different bytes' : `as ${bytes.status}`}`,
          );
          continue;
        }
        entry.verified = true;
      }
      if (!record) {
        if (options.includes(null)) {
          entry.expected = null;
          entry.maybe = [];
        } else lose(entry, `acknowledged ${kind} ${entry.id} is missing`);
        continue;
      }
      const match = options.find((o) => o !== null && comparable(kind, o) === comparable(kind, record));
      if (match) {
        entry.expected = match;
        entry.maybe = [];
      } else if (options.every((o) => o === null)) {
        lose(entry, `acknowledged delete of ${kind} ${entry.id} did not hold`);
      } else {
        lose(
          entry,
          `${kind} ${entry.id} holds ${comparable(kind, record)}, expected ${comparable(kind, entry.expected ?? {})}`,
        );
      }
    }
  }
  await checkExports(nodes);
}

// ---------------------------------------------------------------------------------------------------------
// Faults

async function burst(nodes: Node[]): Promise<void> {
  const started = performance.now();
  const calls = Array.from({ length: BURST }, (_, i) => {
    // The burst's creates are tagged as one more client's (index WORKERS), never updated afterwards.
    const client = new Client(WORKERS, nodes[i % 2]!, nodes[(i + 1) % 2]!);
    client.counter = i;
    if (i % 2 === 0) return create(client, 'departments');
    return send(client.home, 'GET', `${ENDPOINT.departments}?size=100`).then(() => {});
  });
  await Promise.all(calls);
  log(`burst of ${BURST} answered in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function inject(name: PhaseName, nodes: Node[], cluster: PgCluster): Promise<number> {
  const [a, b] = nodes as [Node, Node];
  switch (name) {
    case 'pg-stop': {
      log('PostgreSQL: stop');
      cluster.stop();
      await sleep(OUTAGE_MS);
      cluster.start();
      log('PostgreSQL: started');
      return OUTAGE_MS;
    }
    case 'sigkill': {
      log('server B: SIGKILL');
      await b.kill('SIGKILL');
      await b.start();
      return 0;
    }
    case 'sigterm': {
      log('server A: SIGTERM under load');
      const ms = await a.kill('SIGTERM');
      log(`server A exited ${(ms / 1000).toFixed(1)} s after SIGTERM`);
      await a.start();
      return 0;
    }
    case 'burst':
      await burst(nodes);
      return 0;
    default:
      return 0;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Main

const cluster = await startPgCluster({ log: (line) => log(line) });
const storageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-soak-storage-'));
/** The servers' output, kept after the run. */
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-soak-logs-'));
const dataDirs: string[] = [];
const nodes: Node[] = [];
const rssTimeline: { t: number; phase: PhaseName; rss: (number | null)[] }[] = [];
let sampler: NodeJS.Timeout | null = null;
try {
  for (const name of ['A', 'B']) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `admin-soak-${name}-`));
    dataDirs.push(dataDir);
    const port = await freePort();
    nodes.push(
      new Node(name, port, {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_TO_FILE: '0',
        LOG_LEVEL: 'warn',
        DIST_DIR: '/nonexistent-dist',
        DATABASE_URL: cluster.url,
        STORAGE: 'local',
        STORAGE_DIR: storageDir,
        ADMIN_USERNAME: 'admin',
        ADMIN_PASSWORD: PASSWORD,
        CSV_JOB_ROWS: '300',
      }),
    );
  }
  // A first (it migrates and creates the administrator), then B.
  for (const node of nodes) {
    await node.start();
    await node.ready();
  }
  await signIn(nodes[0]!);
  say(
    `soak: ${(DURATION_MS / 60_000).toFixed(1)} min, ${WORKERS} workers, seed ${SEED}; servers ` +
      `${nodes.map((n) => `${n.name} ${n.baseURL}`).join(', ')}; storage ${storageDir}`,
  );
  sampler = setInterval(() => {
    const rss = nodes.map((n) => n.rss());
    rss.forEach((value, i) => value !== null && nodes[i]!.rssSamples[phase]!.push(value));
    rssTimeline.push({ t: (performance.now() - t0) / 1000, phase: PHASES[phase]!, rss });
  }, 2000);

  const workers = Array.from(
    { length: WORKERS },
    (_, i) => new Client(i, nodes[i % 2]!, nodes[(i + 1) % 2]!),
  );
  const running = workers.map((w) => runWorker(w));
  const phaseMs = DURATION_MS / PHASES.length;
  for (let p = 0; p < PHASES.length; p++) {
    phase = p;
    const name = PHASES[p]!;
    const started = Date.now();
    log(`phase ${p + 1} ${name}`);
    await wait(phaseMs * 0.2);
    const faultMs = await inject(name, nodes, cluster);
    const end = started + Math.max(phaseMs, phaseMs * 0.2 + faultMs + 10_000);
    await wait(Math.max(0, end - Date.now()));
    // Pause the workers, let every server come back, check.
    let resume!: () => void;
    paused = new Promise<void>((r) => (resume = r));
    await Promise.all(workers.map((w) => w.busy));
    for (const node of nodes) await node.ready();
    if (p === PHASES.length - 1) {
      // Let queued exports finish (bounded) before the last count.
      const deadline = Date.now() + 90_000;
      do {
        await checkExports(nodes);
        if (exportJobs.every((j) => ['completed', 'failed', 'cancelled'].includes(j.state))) break;
        await sleep(2000);
      } while (Date.now() < deadline);
    }
    const checkStarted = performance.now();
    await check(nodes, p === PHASES.length - 1);
    log(`phase ${p + 1} ${name} checked in ${((performance.now() - checkStarted) / 1000).toFixed(1)} s`);
    paused = null;
    resume();
  }
  stopAll = true;
  await Promise.all(running);
  if (benchError) throw benchError;
} finally {
  if (sampler) clearInterval(sampler);
  for (const node of nodes) {
    await node.finish().catch(() => {});
    node.outputs.forEach((out, i) => fs.writeFileSync(path.join(logDir, `${node.name}-${i + 1}.log`), out));
  }
  cluster.destroy();
  for (const dir of [storageDir, ...dataDirs]) fs.rmSync(dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------------------
// Report

const pad = (value: unknown, width: number) => String(value).padStart(width);
const flag = (n: number) => (n ? `${n} <<` : '0');
say('\nper phase (lost and duplicated are what the check at the end of the phase found)');
const COLUMNS: [string, (f: Figures) => number, boolean][] = [
  ['requests', (f) => f.requests, false],
  ['acked', (f) => f.acked, false],
  ['lost', (f) => f.lost, true],
  ['dupl.', (f) => f.duplicated, true],
  ['503', (f) => f.s503, false],
  ['5xx', (f) => f.s5xx, true],
  ['refused', (f) => f.refused, false],
  ['dropped', (f) => f.noAnswer, false],
  ['exits', (f) => f.exits, true],
  ['csv', (f) => f.exportsStreamed, false],
];
const row = (label: string, values: number[]) =>
  `${label.padEnd(10)} ${values.map((v, i) => pad(COLUMNS[i]![2] ? flag(v) : v, 9)).join(' ')}`;
say(`${'phase'.padEnd(10)} ${COLUMNS.map(([name]) => pad(name, 9)).join(' ')}`);
PHASES.forEach((name, i) =>
  say(
    row(
      name,
      COLUMNS.map(([, get]) => get(figures[i]!)),
    ),
  ),
);
const totals = COLUMNS.map(([, get]) => figures.reduce((sum, f) => sum + get(f), 0));
say(row('total', totals));
const total = { lost: totals[2]!, duplicated: totals[3]!, s5xx: totals[5]!, exits: totals[8]! };
say('  acked: writes answered 2xx; 5xx: answers >= 500 other than 503; refused: no server listening;');
say('  dropped: sent, then reset, closed or 30 s without an answer; exits: a server ended on its own;');
say('  csv: exports streamed at once. Dropped requests by call and error:');
PHASES.forEach((name, i) => {
  const dropped = [...figures[i]!.dropped].sort((x, y) => y[1] - x[1]);
  if (dropped.length) say(`  ${name}: ${dropped.map(([call, n]) => `${call} x${n}`).join(', ')}`);
});
const statusLine = PHASES.map(
  (name, i) =>
    `${name}: ${[...figures[i]!.statuses.entries()]
      .sort((x, y) => x[0] - y[0])
      .map(([s, n]) => `${s}x${n}`)
      .join(' ')}`,
);
say(`statuses:\n  ${statusLine.join('\n  ')}`);

const ackedEntries = ledger.filter((e) => e.acked);
const uploads = ackedEntries.filter((e) => e.kind === 'assets');
say(
  `ledger: ${ledger.length} creates tried, ${ackedEntries.length} acknowledged ` +
    `(${['departments', 'roles', 'dictionaries', 'assets'].map((k) => `${k} ${ackedEntries.filter((e) => e.kind === k).length}`).join(', ')}); ` +
    `${uploads.filter((e) => !e.flagged && e.expected !== null).length} uploads held byte-identical at the end`,
);
const byState = new Map<string, number>();
for (const job of exportJobs) byState.set(job.state, (byState.get(job.state) ?? 0) + 1);
const downloads = new Map<string, number>();
for (const job of exportJobs.filter((j) => j.downloads))
  downloads.set(job.downloads, (downloads.get(job.downloads) ?? 0) + 1);
say(
  `export jobs: ${exportJobs.length} queued; by state at the end: ${[...byState].map(([s, n]) => `${s} ${n}`).join(', ') || 'none'}` +
    (downloads.size
      ? `; downloads through A/B: ${[...downloads].map(([codes, n]) => `${codes} x${n}`).join(', ')}`
      : ''),
);
for (const node of nodes) {
  const list = (counts: Map<string, number>) =>
    [...counts]
      .sort((x, y) => y[1] - x[1])
      .map(([msg, n]) => `${msg} x${n}`)
      .join(', ') || 'none';
  say(`server ${node.name}: ${node.outputs.length} runs; error-level log lines: ${list(node.errorLines)}`);
  if (node.stackLines.size) say(`  log lines with a stack trace <<: ${list(node.stackLines)}`);
  for (const exit of node.exitsSeen) say(`  ${exit}`);
}
say(`servers' output: ${logDir}`);
if (findings.length) {
  say(`findings (${findings.length}; first 20):`);
  for (const line of findings.slice(0, 20)) say(`  ${line}`);
}

say('\nRSS (MB) per phase: min / median / max');
say(`${'phase'.padEnd(10)} ${nodes.map((n) => pad(`server ${n.name}`, 16)).join(' ')}`);
PHASES.forEach((name, i) => {
  const cells = nodes.map((n) => {
    const s = n.rssSamples[i]!;
    return pad(s.length ? `${mb(Math.min(...s))} / ${mb(median(s))} / ${mb(Math.max(...s))}` : '-', 16);
  });
  say(`${name.padEnd(10)} ${cells.join(' ')}`);
});
say('\nRSS (MB) over time');
say(`${pad('t', 6)} ${'phase'.padEnd(10)} ${nodes.map((n) => pad(n.name, 5)).join(' ')}`);
const every = Math.max(1, Math.ceil(rssTimeline.length / 24));
rssTimeline
  .filter((_, i) => i % every === 0 || i === rssTimeline.length - 1)
  .forEach((row) =>
    say(
      `${pad(`${row.t.toFixed(0)}s`, 6)} ${row.phase.padEnd(10)} ${row.rss.map((v) => pad(v === null ? 'down' : mb(v), 5)).join(' ')}`,
    ),
  );
const stacks = nodes.reduce((n, node) => n + [...node.stackLines.values()].reduce((a, b) => a + b, 0), 0);
if (total.lost || total.duplicated || total.s5xx || total.exits || stacks)
  say(
    `\nNOTE: lost ${total.lost}, duplicated ${total.duplicated}, 5xx other than 503 ${total.s5xx}, ` +
      `unexpected exits ${total.exits}, log lines with a stack trace ${stacks} (see above)`,
  );
process.exit(0);

/** A pino JSON log line, or null. */
function parseLine(line: string): { level?: unknown; msg?: unknown; err?: { stack?: unknown } } | null {
  try {
    return JSON.parse(line) as { level?: unknown; msg?: unknown; err?: { stack?: unknown } };
  } catch {
    return null;
  }
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(0);
}

function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|min)?$/.exec(text.trim());
  if (!match) throw new Error(`duration: "${text}" is not minutes (10), "120s" or "2m"`);
  return Number(match[1]) * (match[2] === 's' ? 1000 : 60_000);
}
