/**
 * A local mail catcher for trying sign-up, password reset and invitations without a real mail server: an SMTP
 * server on loopback (the `smtp-server` dev package, the one the tests use) that prints every message it
 * receives. Example, in two terminals: `npx tsx scripts/mail-sink.ts` and
 * `SMTP_URL=smtp://127.0.0.1:1025 npm start`. `MAIL_SINK_PORT` changes the port.
 */
import { startSmtp } from '../tests/helpers/smtp.ts';

const port = Number(process.env.MAIL_SINK_PORT ?? 1025);
const smtp = await startSmtp({ port, onMail: print });
console.log(`mail sink listening: SMTP_URL=${smtp.url} (Ctrl-C stops it)`);
process.on('SIGINT', () => void smtp.close().then(() => process.exit(0)));

function print(mail: { to: string[]; subject: string; text: string }): void {
  console.log(`\n--- to ${mail.to.join(', ')}: ${mail.subject}\n${mail.text}`);
}
