import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { resolveDeliveryHost, type DeliveryPolicy } from '../core/delivery-guard.ts';
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
  config: Pick<Config, 'smsEndpoint' | 'dataDir'> & DeliveryPolicy;
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
      // An endpoint from the settings is checked on every send; SMS_ENDPOINT is the operator's own.
      policy: settings.endpoint ? config : null,
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
 * Any non-2xx answer is a failure. With a `policy` the endpoint's host is resolved and checked on every send
 * and the request goes to the checked address (server/core/delivery-guard.ts).
 */
export function createHttpSmsProvider({
  endpoint,
  accessKeyId,
  accessKeySecret,
  signName,
  template,
  policy = null,
}: {
  endpoint: string;
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  template: string;
  policy?: DeliveryPolicy | null;
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
      const headers = {
        'content-type': 'application/json',
        'x-access-key': accessKeyId,
        'x-timestamp': timestamp,
        'x-signature': signature,
      };
      const status = policy
        ? await postChecked({ endpoint, headers, body, policy })
        : (
            await fetch(endpoint, {
              method: 'POST',
              headers,
              body,
              signal: AbortSignal.timeout(10_000),
            })
          ).status;
      if (status < 200 || status > 299) throw new Error(`sms gateway answered ${status}`);
    },
  };
}

/** POSTs `body` to the address `endpoint`'s host resolves to now, once checked; answers the status. */
async function postChecked({
  endpoint,
  headers,
  body,
  policy,
}: {
  endpoint: string;
  headers: Record<string, string>;
  body: string;
  policy: DeliveryPolicy;
}): Promise<number> {
  const url = new URL(endpoint);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error('the SMS endpoint is not http(s)');
  const name = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const address = await resolveDeliveryHost(policy, name);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<number>((resolve, reject) => {
    const req = client.request(
      {
        host: address,
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        // The name, not the address, for the virtual host and the certificate check.
        headers: { ...headers, host: url.host, 'content-length': String(Buffer.byteLength(body)) },
        ...(net.isIP(name) ? {} : { servername: name }),
        timeout: 10_000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('sms gateway timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

/** 13812345678 -> 138****5678, as the spec's masking helper does. */
export function maskPhone(phone: string): string {
  return phone.length > 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : '****';
}
