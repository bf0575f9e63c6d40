import crypto from 'node:crypto';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { tagStatement } from './statement.ts';
import type { CopyOutStream, Db, QueryResult, Queryable, StatementOptions } from './types.ts';

/** Connects a pool to a real PostgreSQL server. Example: `await openPostgres(process.env.DATABASE_URL!)`. */
export async function openPostgres(url: string, { max = 10 }: { max?: number } = {}): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const wrap = (q: pg.PoolClient): Queryable => ({
    async query<T>(
      sql: string,
      params: readonly unknown[] = [],
      options?: StatementOptions,
    ): Promise<QueryResult<T>> {
      try {
        const res = options?.name
          ? await q.query({ name: options.name, text: sql, values: params as unknown[] })
          : await q.query(sql, params as unknown[]);
        return { rows: res.rows as T[], rowCount: res.rowCount ?? res.rows.length };
      } catch (error) {
        throw tagStatement(error, sql);
      }
    },
    async exec(sql: string) {
      await q.query(sql);
    },
  });
  let listener: pg.Client | null = null;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const deliver = (msg: pg.Notification) => {
    for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
  };
  // The LISTEN connection is reconnected with a backoff when it breaks (PostgreSQL restarting): every channel
  // is listened to again, then each `onGap` runs, since notifications sent meanwhile were lost.
  const gaps = new Set<() => void>();
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  let delay = RECONNECT_MIN_MS;
  /** The connection attempt under way, shared by whoever asks meanwhile. */
  let connecting: Promise<void> | null = null;
  const connectListener = async () => {
    const client = new pg.Client({ connectionString: url });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (listener === client) listener = null;
      client.end().catch(() => {});
      scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', deliver);
    try {
      await client.connect();
      for (const channel of handlers.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
    } catch (error) {
      lost = true;
      client.end().catch(() => {});
      throw error;
    }
    if (closed) {
      await client.end().catch(() => {});
      return;
    }
    listener = client;
  };
  /** One connection attempt at a time, whoever asks (listen, the reconnect). */
  const connectOnce = () =>
    (connecting ??= connectListener().finally(() => {
      connecting = null;
    }));
  const scheduleReconnect = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = null;
      if (closed) return;
      connectOnce().then(
        () => {
          delay = RECONNECT_MIN_MS;
          for (const fn of gaps) {
            try {
              fn();
            } catch {
              // One failing handler must not keep the others from hearing of the gap.
            }
          }
        },
        () => {
          delay = Math.min(delay * 2, RECONNECT_MAX_MS);
          scheduleReconnect();
        },
      );
    }, delay);
    retry.unref();
  };
  // Channels every pooled connection listens on (listen's everyConnection): a connection LISTENs before its
  // next statement, so the NOTIFY of a commit it makes arrives before that commit's query resolves. The
  // LISTEN is awaited before the statement is sent (pg 8 deprecates queueing a query behind another).
  const everywhere = new Set<string>();
  const listening = new WeakMap<pg.PoolClient, Set<string>>();
  const guarded = new WeakSet<pg.PoolClient>();
  const take = async (): Promise<pg.PoolClient> => {
    const client = await pool.connect();
    // The pool only watches idle clients: a connection cut while checked out (PostgreSQL restarting) must
    // not crash the process; its statement fails, and the client is discarded on release.
    if (!guarded.has(client)) {
      guarded.add(client);
      client.on('error', () => {});
    }
    if (everywhere.size === 0) return client;
    let done = listening.get(client);
    if (!done) {
      listening.set(client, (done = new Set()));
      client.on('notification', (msg) => {
        if (everywhere.has(msg.channel)) deliver(msg);
      });
    }
    try {
      for (const channel of everywhere) {
        if (done.has(channel)) continue;
        await client.query(`LISTEN ${quoteIdent(channel)}`);
        done.add(channel);
      }
    } catch (error) {
      client.release(true);
      throw error;
    }
    return client;
  };
  // One statement on a pooled connection that listens first when a channel asks every connection to. Not the
  // pool's own query: it closes the connection on any error, even one the server answered (a constraint, a
  // missing table), and the reconnection costs a backend and may be refused under a connection limit.
  const onListening = async <R>(fn: (client: pg.PoolClient) => Promise<R>): Promise<R> => {
    const client = await take();
    let broken = false;
    try {
      return await fn(client);
    } catch (error) {
      // An error the server answered (a constraint, a bad value) leaves the connection usable; one that ends
      // the session (FATAL: the backend terminated, the server shutting down) does not.
      broken =
        !(error instanceof pg.DatabaseError) ||
        error.severity === 'FATAL' ||
        error.severity === 'PANIC' ||
        /^(08|57P)/.test(error.code ?? '');
      throw error;
    } finally {
      client.release(broken || undefined);
    }
  };
  const base: Queryable = {
    query: (sql, params, options) => onListening((c) => wrap(c).query(sql, params, options)),
    exec: (sql) => onListening((c) => wrap(c).exec(sql)),
  };
  return {
    kind: 'postgres',
    query: base.query,
    async transaction(fn) {
      const client = await take();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    exec: base.exec,
    async copyOut(sql, params, settings = {}, { snapshot } = {}) {
      const client = await take();
      let isReleased = false;
      const release = (broken: boolean) => {
        if (isReleased) return;
        isReleased = true;
        // A broken connection is closed, not reused: the server stops a COPY whose client went away.
        client.release(broken || undefined);
      };
      try {
        if (snapshot === undefined) await client.query('BEGIN READ ONLY');
        else {
          // The id comes from pg_export_snapshot() (hex digits and dashes); SET TRANSACTION SNAPSHOT takes
          // no parameter, so it is checked, and it must precede every query of the transaction.
          if (!/^[0-9A-F-]+$/i.test(snapshot)) throw new Error('copyOut: bad snapshot id');
          await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
          await client.query(`SET TRANSACTION SNAPSHOT '${snapshot}'`);
        }
        const text = await bindForCopy(client, sql, params, settings);
        const stream = client.query(copyTo(`COPY (${text}) TO STDOUT WITH (FORMAT csv)`)) as CopyOutStream;
        stream.on('end', () => {
          client.query('COMMIT').then(
            () => release(false),
            () => release(true),
          );
        });
        stream.on('error', () => release(true));
        stream.on('close', () => {
          if (!stream.readableEnded) release(true);
        });
        return stream;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        release(false);
        throw error;
      }
    },
    async listen(channel, onPayload, options = {}) {
      if (options.everyConnection) everywhere.add(channel);
      if (options.onGap) gaps.add(options.onGap);
      // Registered first: a (re)connection listens on every channel `handlers` names.
      let set = handlers.get(channel);
      const isNew = !set;
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
      }
      set.add(onPayload);
      // A database that went away between the start's migrations and here (or that is away now) does not
      // fail the caller: the connection is retried with the reconnect's backoff, which listens on this
      // channel too and then runs `onGap`, as after any gap. While a retry is pending it does the work.
      if (!retry) {
        try {
          if (!listener) await connectOnce();
          // Again after a connection made meanwhile: it may have begun before this channel was registered.
          if (isNew && listener) await listener.query(`LISTEN ${quoteIdent(channel)}`);
        } catch {
          // A listener whose LISTEN failed is dropped: the reconnect makes a new one.
          const stale = listener;
          listener = null;
          stale?.end().catch(() => {});
          scheduleReconnect();
        }
      }
      const onGap = options.onGap;
      return async () => {
        set.delete(onPayload);
        if (onGap) gaps.delete(onGap);
      };
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      await listener?.end().catch(() => {});
      await pool.end();
    },
  };
}

/**
 * COPY takes no bind parameters, so each $n is handed over as a transaction-local setting and read back with
 * `current_setting()`, cast to the type PostgreSQL infers for $n (asked through PREPARE). Values travel as
 * bound parameters of `set_config`; the SQL text keeps only setting names and type names.
 */
async function bindForCopy(
  client: pg.PoolClient,
  sql: string,
  params: readonly unknown[],
  settings: Readonly<Record<string, string>>,
): Promise<string> {
  let types: string[] = [];
  if (params.length > 0) {
    const name = `copy_${crypto.randomBytes(6).toString('hex')}`;
    await client.query(`PREPARE ${name} AS ${sql}`);
    const { rows } = await client.query<{ types: string[] }>(
      'SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = $1',
      [name],
    );
    await client.query(`DEALLOCATE ${name}`);
    types = rows[0]!.types;
  }
  const pairs: [string, unknown][] = [
    ...Object.entries(settings),
    ...params.map((value, i): [string, unknown] => [`copy_param.p${i + 1}`, value]),
  ];
  if (pairs.length > 0) {
    const calls = pairs.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}::text, true)`);
    await client.query(`SELECT ${calls.join(', ')}`, pairs.flat() as unknown[]);
  }
  return replacePlaceholders(sql, (n) => {
    const type = types[n - 1];
    if (!type || !/^[\w\s".,()[\]]+$/.test(type)) throw new Error(`copyOut: no type for parameter $${n}`);
    return `(current_setting('copy_param.p${n}')::${type})`;
  });
}

/** Replaces $n outside quoted literals and identifiers. */
export function replacePlaceholders(sql: string, fn: (n: number) => string): string {
  let out = '';
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (quote) {
      out += c;
      if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    const digits = c === '$' ? /^\d+/.exec(sql.slice(i + 1, i + 8)) : null;
    if (digits) {
      out += fn(Number(digits[0]));
      i += digits[0].length;
      continue;
    }
    out += c;
  }
  return out;
}

const RECONNECT_MIN_MS = 200;
const RECONNECT_MAX_MS = 5_000;

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
