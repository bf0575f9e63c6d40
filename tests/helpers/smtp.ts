import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The decoded body text. */
  text: string;
}

export interface TestSmtp {
  url: string;
  mails: ReceivedMail[];
  /** Resolves with the next mail to `to` (or the one already received and not yet taken). */
  nextMail(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** The 6-digit code of the next mail to `to`. */
  nextCode(to: string, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps every message it receives, for tests
 * that read a code from the mail. Example: `const smtp = await startSmtp(); createTestApp({ smtpUrl: smtp.url })`.
 */
export async function startSmtp({
  port: listenPort = 0,
  onMail,
  refuse,
}: {
  /** 0: a free port. */
  port?: number;
  /** Also called with every mail as it arrives (scripts/mail-sink.ts prints them). */
  onMail?: (mail: ReceivedMail) => void;
  /** Answers a temporary failure (451) for a mail to these recipients while it returns true (retry tests). */
  refuse?: (to: string[]) => boolean;
} = {}): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const waiters: Array<{ to: string; resolve: (mail: ReceivedMail) => void }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail = parseMail({
          raw: Buffer.concat(chunks).toString('utf8'),
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
        });
        if (refuse?.(mail.to)) {
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          return;
        }
        onMail?.(mail);
        const waiter = waiters.findIndex((w) => mail.to.includes(w.to));
        if (waiter >= 0) waiters.splice(waiter, 1)[0]!.resolve(mail);
        else mails.push(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;

  const nextMail = (to: string, timeoutMs = 5000) => {
    const address = to.toLowerCase();
    const index = mails.findIndex((m) => m.to.includes(address));
    if (index >= 0) return Promise.resolve(mails.splice(index, 1)[0]!);
    return new Promise<ReceivedMail>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
      waiters.push({
        to: address,
        resolve: (mail) => {
          clearTimeout(timer);
          resolve(mail);
        },
      });
    });
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    nextMail,
    async nextCode(to, timeoutMs) {
      const mail = await nextMail(to, timeoutMs);
      const match = /\b(\d{6})\b/.exec(mail.text);
      if (!match) throw new Error('no code in the mail');
      return match[1]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function parseMail({ raw, to }: { raw: string; to: string[] }): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  let text = body;
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    text = Buffer.from(bytes, 'latin1').toString('utf8');
  } else if (encoding === 'base64') {
    text = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  }
  return { to, subject: header('Subject'), text };
}
