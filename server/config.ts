import path from 'node:path';
import { STORAGE_DRIVERS, type StorageConfig, type StorageDriver } from './storage/types.ts';

/** Runtime configuration, read once from the environment (see .env.example). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  adminUsername: string;
  adminPassword: string | null;
  smtpUrl: string | null;
  logLevel: string;
  /** Log to DATA_DIR/logs as well as stdout. Tests turn the file off unless they need it. */
  logToFile: boolean;
  trustProxy: string | boolean;
  /** Directory holding the built SPA (index.html + assets). */
  distDir: string;
  bodyLimit: number;
  publicOrigin: string | null;
  /**
   * COOKIE_DOMAIN: where the front end keeps its token cookie. `parent` (default, the spec: the parent
   * domain, shared with sibling apps), `host` (this host only), or a domain such as `example.com`.
   */
  cookieDomain: string;
  /** HSTS max-age in seconds, sent on every response served over TLS (0 turns HSTS off). */
  hstsMaxAge: number;
  /** ALLOWED_HOSTS: more Host names the server answers (comma list; `name`, `name:port` or `.suffix`). */
  allowedHosts: string[];
  wechatOpenBase: string;
  wechatApiBase: string;
  smsEndpoint: string | null;
  /**
   * DELIVERY_ALLOW_PRIVATE=1: the SMTP host and SMS endpoint stored in the settings may be loopback, link-local
   * or private addresses (server/core/delivery-guard.ts); refused by default.
   */
  deliveryAllowPrivate: boolean;
  /** DELIVERY_ALLOWED_HOSTS: when set, the only SMTP / SMS hosts the settings may name (comma list; `.suffix`). */
  deliveryAllowedHosts: string[];
  /** Run pg-boss (jobs and scheduled tasks) in this process. Tests turn it on only where they need it. */
  jobs: boolean;
  /** How often workers poll for jobs, and pg-boss's cron check interval (1-45 s); tests shorten both. */
  jobsPollSeconds: number;
  jobsCronSeconds: number;
  /**
   * Length of a cron minute for pg-boss's schedules (JOBS_TICK_SECONDS, a divisor of 60; 60 in production).
   * Shorter runs the schedules' clock faster (server/jobs/tick.ts), for tests and demos.
   */
  jobsTickSeconds: number;
  /** CSV exports and imports of more rows than this run as background jobs (while jobs run here). */
  csvJobRows: number;
  /**
   * On PostgreSQL an export job of at least `csvExportPartRows` rows runs its COPY as this many parts on as
   * many connections sharing one snapshot (csv/export.ts); 1 (the default: no gain measured yet on a
   * loaded 2-core machine, docs/operations.md) turns it off.
   */
  csvExportParts: number;
  csvExportPartRows: number;
  /** Where assets and backups live (server/storage): driver and its settings. */
  storage: StorageConfig;
  /** Seconds between heartbeats of this node (cluster_nodes); a node silent for 3 of them is gone. */
  heartbeatSeconds: number;
  /**
   * SHUTDOWN_GRACE_SECONDS: how long a SIGTERM / SIGINT waits for the requests already received before it
   * cuts them and closes (server/main.ts); under the 30 s a container platform usually waits before SIGKILL.
   */
  shutdownGraceSeconds: number;
}

/** Reads the configuration from an env-like object. Example: `loadConfig(process.env)`. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  return {
    port: toInt(env.PORT, 3000),
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    adminUsername: env.ADMIN_USERNAME || 'admin',
    adminPassword: env.ADMIN_PASSWORD || null,
    smtpUrl: env.SMTP_URL || null,
    logLevel: env.LOG_LEVEL || 'info',
    logToFile: env.LOG_TO_FILE !== '0',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    distDir: path.resolve(env.DIST_DIR || './dist'),
    bodyLimit: toInt(env.BODY_LIMIT, 1024 * 1024),
    publicOrigin: env.PUBLIC_ORIGIN || null,
    cookieDomain: (env.COOKIE_DOMAIN || 'parent').trim().toLowerCase(),
    hstsMaxAge: Math.max(0, toInt(env.HSTS_MAX_AGE, 15_552_000)),
    allowedHosts: (env.ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    wechatOpenBase: env.WECHAT_OPEN_BASE || 'https://open.weixin.qq.com',
    wechatApiBase: env.WECHAT_API_BASE || 'https://api.weixin.qq.com',
    smsEndpoint: env.SMS_ENDPOINT || null,
    deliveryAllowPrivate: env.DELIVERY_ALLOW_PRIVATE === '1' || env.DELIVERY_ALLOW_PRIVATE === 'true',
    deliveryAllowedHosts: (env.DELIVERY_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    jobs: env.JOBS !== '0',
    jobsPollSeconds: Math.max(0.5, Number(env.JOBS_POLL_SECONDS) || 2),
    jobsCronSeconds: Math.min(45, Math.max(1, toInt(env.JOBS_CRON_SECONDS, 30))),
    jobsTickSeconds: tickSeconds(env.JOBS_TICK_SECONDS),
    csvJobRows: Math.max(1, toInt(env.CSV_JOB_ROWS, 50_000)),
    csvExportParts: Math.min(8, Math.max(1, toInt(env.CSV_EXPORT_PARTS, 1))),
    csvExportPartRows: Math.max(1, toInt(env.CSV_EXPORT_PART_ROWS, 200_000)),
    storage: {
      driver: parseDriver(env.STORAGE),
      localDir: env.STORAGE_DIR ? path.resolve(env.STORAGE_DIR) : null,
      s3: {
        bucket: env.S3_BUCKET || null,
        region: env.S3_REGION || 'us-east-1',
        endpoint: env.S3_ENDPOINT || null,
        accessKeyId: env.S3_ACCESS_KEY_ID || null,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY || null,
        forcePathStyle: env.S3_FORCE_PATH_STYLE === '1' || env.S3_FORCE_PATH_STYLE === 'true',
        prefix: env.S3_PREFIX ? env.S3_PREFIX.replace(/^\/+/, '').replace(/\/*$/, '/') : '',
      },
    },
    heartbeatSeconds: Math.min(300, Math.max(1, toInt(env.HEARTBEAT_SECONDS, 10))),
    shutdownGraceSeconds: Math.min(3600, Math.max(1, toInt(env.SHUTDOWN_GRACE_SECONDS, 25))),
  };
}

/** JOBS_TICK_SECONDS: a divisor of 60 (so ticks line up with pg-boss's slots), else 60. */
function tickSeconds(value: string | undefined): number {
  const n = toInt(value, 60);
  return n >= 1 && n <= 60 && 60 % n === 0 ? n : 60;
}

function toInt(value: string | undefined, fallback: number): number {
  const n = value ? Number.parseInt(value, 10) : Number.NaN;
  return Number.isFinite(n) ? n : fallback;
}

function parseDriver(value: string | undefined): StorageDriver {
  if (!value) return 'local';
  if ((STORAGE_DRIVERS as readonly string[]).includes(value)) return value as StorageDriver;
  throw new Error(`STORAGE must be one of ${STORAGE_DRIVERS.join(', ')} (got "${value}")`);
}

function parseTrustProxy(value: string | undefined): string | boolean {
  if (!value) return false;
  if (value === 'true' || value === '1') return true;
  return value;
}
