import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { getSettings } from '../core/settings.ts';
import type { Queryable } from '../db/index.ts';

export interface SmsMessage {
  to: string;
  /** Gateway template id or, for the log driver, a human text. */
  template: string;
  params: Record<string, string>;
  text: string;
}

/** One SMS gateway. Drivers: `log` (development) and `http` (a generic JSON gateway). */
export interface SmsProvider {
  name: 'log' | 'http';
  send(message: SmsMessage): Promise<void>;
}

/**
 * The SMS provider the `sms` settings group selects (SMS_ENDPOINT alone selects `http`), or null when SMS is not
 * set up. Example: `const sms = await resolveSmsProvider({ db, config, log }); await sms?.send(message)`.
 */
export async function resolveSmsProvider({
  db,
  config,
  log,
}: {
  db: Queryable;
  config: Pick<Config, 'smsEndpoint' | 'dataDir'>;
  log: Logger;
}): Promise<SmsProvider | null> {
  const settings = await getSettings(db, 'sms');
  const provider = settings.provider || (config.smsEndpoint ? 'http' : '');
  if (provider === 'log')
    return createLogSmsProvider({ outboxDir: path.join(config.dataDir, 'outbox'), log });
  if (provider === 'http') {
    const endpoint = settings.endpoint || config.smsEndpoint;
    if (!endpoint) return null;
    return createHttpSmsProvider({
      endpoint,
      accessKeyId: settings.access_key_id,
      accessKeySecret: settings.access_key_secret,
      signName: settings.sign_name,
      template: settings.template,
    });
  }
  return null;
}

/**
 * Development driver. The server log gets a masked notice only (the product promises that no code reaches a log
 * line, and the system-logs page shows the log to staff); the full text goes to DATA_DIR/outbox/sms.log, a
 * file readable only by the server's user, which is where a developer reads the code.
 */
export function createLogSmsProvider({ outboxDir, log }: { outboxDir: string; log: Logger }): SmsProvider {
  return {
    name: 'log',
    async send(message) {
      await fs.promises.mkdir(outboxDir, { recursive: true, mode: 0o700 });
      const line = JSON.stringify({ time: new Date().toISOString(), to: message.to, text: message.text });
      await fs.promises.appendFile(path.join(outboxDir, 'sms.log'), line + '\n', { mode: 0o600 });
      log.info(
        { sms: { to: maskPhone(message.to), driver: 'log', outbox: 'outbox/sms.log' } },
        'sms written to outbox',
      );
    },
  };
}

/**
 * Generic HTTP gateway: POSTs `{ to, sign_name, template, params }` as JSON, signed with HMAC-SHA256 over
 * `timestamp + "\n" + body` using the access key secret (headers X-Access-Key, X-Timestamp, X-Signature).
 * Any non-2xx answer is a failure.
 */
export function createHttpSmsProvider({
  endpoint,
  accessKeyId,
  accessKeySecret,
  signName,
  template,
}: {
  endpoint: string;
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  template: string;
}): SmsProvider {
  return {
    name: 'http',
    async send(message) {
      const body = JSON.stringify({
        to: message.to,
        sign_name: signName,
        template: template || message.template,
        params: message.params,
      });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = crypto
        .createHmac('sha256', accessKeySecret)
        .update(`${timestamp}\n${body}`)
        .digest('hex');
      const res = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-access-key': accessKeyId,
          'x-timestamp': timestamp,
          'x-signature': signature,
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) throw new Error(`sms gateway answered ${res.status}`);
    },
  };
}

/** 13812345678 -> 138****5678, as the spec's masking helper does. */
export function maskPhone(phone: string): string {
  return phone.length > 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : '****';
}
