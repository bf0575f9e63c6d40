import { consumeCode } from '../../credentials/codes.ts';
import { hashPassword, isAcceptablePassword, verifyPassword } from '../../credentials/password.ts';
import { AppError } from '../../core/errors.ts';
import type { Db } from '../../db/index.ts';
import type { TokenAnswer } from '../../../schemas/auth.ts';
import {
  type Client,
  countPasswordAttempt,
  type DeviceCookie,
  findUserById,
  findUserByIdentifier,
  insertUser,
  passwordAttemptSucceeded,
  recordActivity,
  takenFields,
} from '../auth/index.ts';
import type { WechatIdentityAnswer, WechatRegisterInput } from './schemas.ts';
import { isWechatOn, requireWechat, signIn } from './session.ts';
import {
  consumeTicket,
  countTicketAttempt,
  findIdentityOfUser,
  findLiveTicket,
  insertIdentity,
  type TicketRow,
} from './store.ts';

/**
 * The WeChat account operations (Fastify-free; the routes in register.ts and identity.ts parse and reply):
 * register or link with a ticket, read and unlink the signed-in user's identity. Example:
 * `await registerWithTicket(db, { body, client: clientOf(request), t: (key) => request.t(key) })`.
 */

/**
 * With a ticket from `POST login`, links the WeChat user to an existing account (`body.link`: its password is
 * checked under the sign-in failure limits, `device` being the browser's device cookie as at sign-in; the
 * ticket dies after 5 wrong ones) or creates a new account.
 * 422 for a dead ticket, 409 for a taken value or an account already linked, 403 when registration is
 * closed, 404 while WeChat sign-in is off. `t` translates the field name of a 409.
 */
export async function registerWithTicket(
  db: Db,
  {
    body,
    client,
    device = null,
    t,
  }: { body: WechatRegisterInput; client: Client; device?: DeviceCookie | null; t: (key: string) => string },
): Promise<TokenAnswer> {
  await requireWechat(db);
  const ticket = await findLiveTicket(db, body.ticket);
  if (!ticket) throw ticketError();
  return body.link
    ? linkAccount(db, { client, device, ticket, link: body.link })
    : createAccount(db, { client, ticket, body, t });
}

/** The signed-in user's linked WeChat identity (null when none), whether WeChat is on, and whether the account has a password. */
export async function wechatIdentityOf(db: Db, userId: string): Promise<WechatIdentityAnswer> {
  const [identity, user, enabled] = await Promise.all([
    findIdentityOfUser(db, userId),
    findUserById(db, userId),
    isWechatOn(db),
  ]);
  return {
    enabled,
    has_password: Boolean(user?.password_hash),
    identity: identity
      ? {
          nickname: identity.nickname,
          avatar: identity.avatar_url,
          linked_at: identity.created_at.toISOString(),
        }
      : null,
  };
}

/** Unlinks the user's WeChat identity: 404 when none is linked, 422 when the account has no password. */
export async function unlinkWechat(
  db: Db,
  { userId, client }: { userId: string; client: Client },
): Promise<void> {
  const identity = await findIdentityOfUser(db, userId);
  if (!identity) throw AppError.notFound();
  const user = await findUserById(db, userId);
  if (!user?.password_hash) throw new AppError(422, 'auth.wechat.errors.unlink_needs_password');
  await db.query('DELETE FROM wechat_identities WHERE id = $1', [identity.id]);
  await recordActivity(db, { client, action: 'auth.wechat_unlink', operatorId: userId, subjectId: userId });
}

async function linkAccount(
  db: Db,
  {
    client,
    device,
    ticket,
    link,
  }: {
    client: Client;
    device: DeviceCookie | null;
    ticket: TicketRow;
    link: { username: string; password: string };
  },
) {
  // The same windows as the password sign-in (auth/session.ts), counted before the check.
  const user = await findUserByIdentifier(db, link.username);
  const attempt = await countPasswordAttempt(db, {
    user,
    identifier: link.username,
    client,
    device,
    method: 'wechat_link',
  });
  const isPasswordRight = await verifyPassword(user?.password_hash, link.password);
  if (!user || !isPasswordRight || !user.state) {
    await countTicketAttempt(db, ticket.id);
    await recordActivity(db, {
      client,
      action: 'auth.login_failed',
      operatorId: null,
      subjectId: user?.id ?? null,
      changes: {
        method: 'wechat_link',
        reason: !user ? 'unknown_user' : !isPasswordRight ? 'wrong_password' : 'disabled',
      },
    });
    throw new AppError(422, 'auth.failed', { fields: { username: ['auth.failed'] } });
  }
  await passwordAttemptSucceeded(db, attempt);
  if (await findIdentityOfUser(db, user.id)) throw alreadyLinked();
  await db
    .transaction(async (tx) => {
      if (!(await consumeTicket(tx, ticket.id))) throw ticketError();
      await insertIdentity(tx, { userId: user.id, ticket });
    })
    .catch(rethrowUnique(alreadyLinked));
  return signIn(db, {
    client,
    userId: user.id,
    remember: ticket.remember,
    action: 'auth.wechat_link',
  });
}

async function createAccount(
  db: Db,
  {
    client,
    ticket,
    body,
    t,
  }: { client: Client; ticket: TicketRow; body: WechatRegisterInput; t: (key: string) => string },
) {
  const settings = await requireWechat(db);
  if (!settings.registration) throw new AppError(403, 'auth.registration_closed');
  const username = body.username!;
  const { email, phone, password } = body;
  if (password && !isAcceptablePassword(password, { identities: [username, email, phone] })) {
    throw AppError.validation({ password: ['validation.password_format'] });
  }
  const taken = await takenFields(db, { username, email, phone });
  if (taken[0]) throw AppError.conflict(taken[0], t(`auth.fields.${taken[0]}`));
  if (email || phone) {
    const target = email
      ? { channel: 'email' as const, to: email, scene: 'register' as const }
      : { channel: 'sms' as const, to: phone!, scene: 'register' as const };
    if (!(await consumeCode(db, { target, code: body.captcha! }))) {
      throw AppError.validation({ captcha: ['auth.captcha_invalid'] });
    }
  }
  const passwordHash = password ? await hashPassword(password) : null;
  let userId = '';
  try {
    await db.transaction(async (tx) => {
      if (!(await consumeTicket(tx, ticket.id))) throw ticketError();
      userId = await insertUser(tx, {
        username,
        // users.name holds at most 60 characters (resources/users.ts, checked by the table).
        name: (ticket.nickname || username).slice(0, 60),
        email: email ?? null,
        phone: phone ?? null,
        password_hash: passwordHash,
      });
      await insertIdentity(tx, { userId, ticket });
    });
  } catch (error) {
    // A concurrent registration took the name (or linked this WeChat user) between the check and the insert.
    if ((error as { code?: string }).code === '23505') {
      const field = (await takenFields(db, { username, email, phone }))[0];
      if (field) throw AppError.conflict(field, t(`auth.fields.${field}`));
      throw alreadyLinked();
    }
    throw error;
  }
  return signIn(db, {
    client,
    userId,
    remember: ticket.remember,
    action: 'auth.register',
    changes: { username, channel: email ? 'email' : phone ? 'sms' : null },
  });
}

function ticketError(): AppError {
  return new AppError(422, 'auth.wechat.errors.ticket_invalid', {
    fields: { ticket: ['auth.wechat.errors.ticket_invalid'] },
  });
}

function alreadyLinked(): AppError {
  return new AppError(409, 'auth.wechat.errors.already_linked');
}

function rethrowUnique(make: () => AppError) {
  return (error: unknown): never => {
    if ((error as { code?: string }).code === '23505') throw make();
    throw error;
  };
}
