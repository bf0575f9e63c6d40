import type { FastifyBaseLogger } from 'fastify';
import { translate, type Locale } from '../../locales/index.ts';
import type { Config } from '../config.ts';
import type { Actor } from '../core/activity.ts';
import { safeError } from '../core/http.ts';
import { getSettings } from '../core/settings.ts';
import { staff } from '../../resources/staff.ts';
import { users } from '../../resources/users.ts';
import type { Queryable } from '../db/index.ts';
import { asSystem } from '../engine/system-access.ts';
import { resolveMailer, type Mailer } from '../mail/mailer.ts';

/**
 * Security notices by mail (issue 27, item 1): a change of the delivery settings goes to every administrator,
 * a password reset of an administrator account to that account's email. Both are sent in the background; a
 * failure is logged without the addresses.
 */
interface NoticeContext {
  db: Queryable;
  config: Config;
  log: FastifyBaseLogger;
}

/**
 * Mails every enabled administrator with an email that delivery keys changed (which ones, who, when, from
 * where; never their values). `mailer` is the mail server as it was before the change, else the new one.
 */
export function notifyDeliveryChange(
  ctx: NoticeContext,
  { mailer, actor, keys, locale }: { mailer: Mailer | null; actor: Actor; keys: string[]; locale: Locale },
): void {
  void (async () => {
    const send = mailer ?? (await resolveMailer(ctx));
    if (!send) return;
    const system = asSystem(ctx.db);
    const admins = await system.list<{ email: string | null }>(users, {
      where: {
        id: { among: { resource: staff, column: 'user_id', where: { is_admin: 1, state: true } } },
        state: true,
        email: { not: null },
      },
      columns: ['email'],
    });
    const emails = [...new Set(admins.map((a) => a.email ?? '').filter((email) => email !== ''))];
    const who = await system.find<{ username: string }>(users, {
      where: { id: actor.userId },
      columns: ['username'],
    });
    const params = {
      ...(await common(ctx.db, actor.ip)),
      actor: who?.username ?? actor.userId,
      keys: keys.map((key) => translate(locale, `settings.general.fields.${key}`)).join(', '),
    };
    for (const email of emails)
      await send.send({
        to: email,
        subject: translate(locale, 'auth.mail.delivery_changed_subject', params),
        text: translate(locale, 'auth.mail.delivery_changed_body', params),
      });
  })().catch((error: unknown) => ctx.log.warn({ err: safeError(error) }, 'delivery settings notice failed'));
}

/** Mails an administrator account's email that its password was just reset by code. */
export function notifyAdminReset(
  ctx: NoticeContext,
  {
    userId,
    channel,
    ip,
    locale,
  }: { userId: string; channel: 'email' | 'sms'; ip: string | null; locale: Locale },
): void {
  void (async () => {
    const system = asSystem(ctx.db);
    if (!(await system.exists(staff, { user_id: userId, is_admin: 1 }))) return;
    const account = await system.find<{ username: string; email: string | null }>(users, {
      where: { id: userId },
      columns: ['username', 'email'],
    });
    if (!account?.email) return;
    const mailer = await resolveMailer(ctx);
    if (!mailer) return;
    const params = {
      ...(await common(ctx.db, ip)),
      username: account.username,
      channel: translate(locale, `auth.channels.${channel}`),
    };
    await mailer.send({
      to: account.email,
      subject: translate(locale, 'auth.mail.admin_reset_subject', params),
      text: translate(locale, 'auth.mail.admin_reset_body', params),
    });
  })().catch((error: unknown) => ctx.log.warn({ err: safeError(error) }, 'admin reset notice failed'));
}

async function common(db: Queryable, ip: string | null) {
  const site = await getSettings(db, 'site');
  return { site_name: site.site_name, time: new Date().toISOString(), ip: ip ?? '-' };
}
