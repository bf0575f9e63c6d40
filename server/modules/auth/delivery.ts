import type { Logger } from 'pino';
import { translate, type Locale } from '../../../locales/index.ts';
import type { Channel, Scene } from '../../../schemas/auth.ts';
import { fillTemplate } from '../../../schemas/mailTemplates.ts';
import { CODE_TTL_MS } from '../../credentials/codes.ts';
import type { Config } from '../../config.ts';
import { safeError } from '../../core/http.ts';
import { getSettings } from '../../core/settings.ts';
import type { Queryable } from '../../db/index.ts';
import { isMailConfigured, resolveMailer } from '../../mail/mailer.ts';
import { maskPhone, resolveSmsProvider } from '../../sms/provider.ts';

interface DeliveryContext {
  db: Queryable;
  config: Config;
  log: Logger;
}

/** True when the channel can send right now (checked before a code is made, so the answer is immediate). */
export async function isChannelConfigured(ctx: DeliveryContext, channel: Channel): Promise<boolean> {
  if (channel === 'email') return isMailConfigured(ctx);
  return (await resolveSmsProvider(ctx)) !== null;
}

/**
 * Runs a code's delivery in the background. The caller answers at once, so the response time does not tell a
 * known address from an unknown one (only known addresses get mail for some scenes). `deliverable: false` (an
 * unknown or disabled account asking for a reset or sign-in code) goes through the very same steps, the same
 * database reads and the same rendering, and only skips the send: the work after the answer shares the
 * database (PGlite's single connection) with the next request, so it must not differ either
 * (bench/signin-timing.ts, issue 31). A failure is logged without the code or the full address.
 */
export function deliverCodeInBackground(
  ctx: DeliveryContext,
  message: CodeMessage,
  { deliverable }: { deliverable: boolean },
): void {
  void deliverCode(ctx, message, { deliverable }).catch((error: unknown) => {
    ctx.log.warn(
      {
        err: safeError(error),
        channel: message.channel,
        to: maskAddress(message.channel, message.to),
        scene: message.scene,
      },
      'code delivery failed',
    );
  });
}

interface CodeMessage {
  channel: Channel;
  to: string;
  scene: Scene;
  code: string;
  locale: Locale;
}

/**
 * One code's delivery: reads the settings, resolves the channel and renders the message, then sends it when
 * `deliverable`. Resolves once done (`deliverCodeInBackground` is the caller that does not wait).
 * Example: `await deliverCode(ctx, { channel: 'sms', to, scene: 'reset', code, locale: 'en' }, { deliverable: false })`.
 */
export async function deliverCode(
  ctx: DeliveryContext,
  { channel, to, scene, code, locale }: CodeMessage,
  { deliverable }: { deliverable: boolean },
): Promise<void> {
  const site = await getSettings(ctx.db, 'site');
  const params = {
    code,
    minutes: CODE_TTL_MS / 60_000,
    site_name: site.site_name,
    scene: translate(locale, `auth.scenes.${scene}`),
  };
  if (channel === 'email') {
    const mailer = await resolveMailer(ctx);
    if (!mailer) throw new Error('email is not configured');
    const message = await getSettings(ctx.db, 'message');
    const custom = message.templates[locale];
    const mail = {
      to,
      ...renderCodeMail({ locale, params, custom }),
    };
    if (deliverable) await mailer.send(mail);
    return;
  }
  const sms = await resolveSmsProvider(ctx);
  if (!sms) throw new Error('sms is not configured');
  const text = translate(locale, 'auth.sms.code_body', params);
  if (deliverable) await sms.send({ to, template: 'code', params: { code }, text });
}

/**
 * A code mail's subject and text in `locale`: the administrator's template (filled, schemas/mailTemplates.ts)
 * or the catalogue's text. The preview of the settings screen renders through this too.
 */
export function renderCodeMail({
  locale,
  params,
  custom,
}: {
  locale: Locale;
  params: Record<string, unknown>;
  custom: { code_subject?: string; code_body?: string } | undefined;
}): { subject: string; text: string } {
  return {
    subject: fillTemplate(
      custom?.code_subject || translate(locale, 'auth.mail.code_subject', params),
      params,
    ),
    text: fillTemplate(custom?.code_body || translate(locale, 'auth.mail.code_body', params), params),
  };
}

function maskAddress(channel: Channel, to: string): string {
  if (channel === 'sms') return maskPhone(to);
  const [local = '', domain = ''] = to.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}
