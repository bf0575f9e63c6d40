import net from 'node:net';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import { resolveDeliveryHost, UNSAFE_SMTP_PARAMS } from '../core/delivery-guard.ts';
import { getSettings } from '../core/settings.ts';
import type { Queryable } from '../db/index.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail; resolved per send so a settings change applies without a restart. */
export interface Mailer {
  from: string;
  send(message: MailMessage): Promise<void>;
}

const transports = new Map<string, Transporter>();

/**
 * The configured mailer (SMTP URL from the `message` settings group, else SMTP_URL), or null when email is not
 * set up. Example: `const mailer = await resolveMailer({ db, config }); await mailer?.send({ to, subject, text })`.
 * A host from the settings is resolved and checked on every send (server/core/delivery-guard.ts) and the
 * connection goes to the checked address; SMTP_URL is the operator's and is used as it is.
 */
export async function resolveMailer({
  db,
  config,
}: {
  db: Queryable;
  config: Pick<Config, 'smtpUrl' | 'deliveryAllowPrivate' | 'deliveryAllowedHosts'>;
}): Promise<Mailer | null> {
  const settings = await getSettings(db, 'message');
  const url = settings.smtp_url || config.smtpUrl;
  if (!url) return null;
  const fromSettings = Boolean(settings.smtp_url);
  const from = settings.mail_from || defaultFrom(url);
  return {
    from,
    async send({ to, subject, text }) {
      const transport = fromSettings ? await checkedTransport(config, url) : await transportFor(url);
      await transport.sendMail({ from, to, subject, text });
    },
  };
}

/** The transport for a settings URL, connecting to the address its host resolves to now, once checked. */
async function checkedTransport(
  policy: Pick<Config, 'deliveryAllowPrivate' | 'deliveryAllowedHosts'>,
  url: string,
): Promise<Transporter> {
  const parsed = new URL(url);
  const host = parsed.hostname;
  if (!host) throw new Error('the SMTP URL names no host');
  const address = await resolveDeliveryHost(policy, host);
  for (const key of UNSAFE_SMTP_PARAMS) parsed.searchParams.delete(key);
  parsed.hostname = address.includes(':') ? `[${address}]` : address;
  // TLS still checks the certificate against the name (servername), not the address.
  const name = host.replace(/^\[(.*)\]$/, '$1');
  return transportFor(parsed.toString(), net.isIP(name) ? undefined : name);
}

/** True when an SMTP URL is known, without opening a connection. */
export async function isMailConfigured({
  db,
  config,
}: {
  db: Queryable;
  config: Pick<Config, 'smtpUrl'>;
}): Promise<boolean> {
  const settings = await getSettings(db, 'message');
  return Boolean(settings.smtp_url || config.smtpUrl);
}

/** Closes pooled SMTP connections (tests and shutdown). */
export function closeMailTransports(): void {
  for (const transport of transports.values()) transport.close();
  transports.clear();
}

/** nodemailer is loaded on the first mail, not when the server starts (a faster start). */
async function transportFor(url: string, servername?: string): Promise<Transporter> {
  const key = servername ? `${url} ${servername}` : url;
  let transport = transports.get(key);
  if (!transport) {
    const { default: nodemailer } = await import('nodemailer');
    // Another mail may have created it while nodemailer loaded.
    const created = transports.get(key);
    if (created) return created;
    // Bounded waits: a dead SMTP host must not hold requests or sockets for minutes.
    transport = nodemailer.createTransport(servername ? { url, tls: { servername } } : url, {
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    } as Parameters<typeof nodemailer.createTransport>[1]);
    transports.set(key, transport);
  }
  return transport;
}

function defaultFrom(url: string): string {
  try {
    const host = new URL(url).hostname || 'localhost';
    return `no-reply@${host}`;
  } catch {
    return 'no-reply@localhost';
  }
}
