import type { FastifyRequest } from 'fastify';
import { consumeCode } from '../../auth/codes.ts';
import { hashPassword, isAcceptablePassword, verifyPassword } from '../../auth/password.ts';
import { clearWindow, hitWindow, peekWindow } from '../../auth/rateLimitStore.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { validate } from '../../core/http.ts';
import type { Db } from '../../db/index.ts';
import { recordActivity } from '../auth/activity.ts';
import { perAddress, type AuthScope } from '../auth/context.ts';
import { LIMITS, rateLimited } from '../auth/limits.ts';
import { findUserByIdentifier, takenFields } from '../auth/users.ts';
import { BASE } from './login.ts';
import { registerBodySchema, tokenResponseSchema } from './openapi.ts';
import { wechatRegisterSchema, type WechatRegisterInput } from './schemas.ts';
import { requireWechat, signIn } from './session.ts';
import {
  consumeTicket,
  countTicketAttempt,
  findIdentityOfUser,
  findLiveTicket,
  insertIdentity,
  type TicketRow,
} from './store.ts';

/** `POST register`: with a ticket from `login`, create a new account or link an existing one. */
export function registerWechatRegisterRoutes({ app, db }: AuthScope): void {
  app.post(
    `${BASE}/register`,
    {
      config: { rateLimit: perAddress('wechat-register', LIMITS.registerPerAddress) },
      schema: {
        tags: ['wechat'],
        summary: 'Create an account for a WeChat user, or link the WeChat user to an existing account',
        description:
          "With `link`, the existing account's password is checked (the same failure limits as sign-in; " +
          'the ticket dies after 5 wrong passwords). Without it, a new account: username, optional password, ' +
          'optional email or phone with a `register` captcha. 422 for a dead ticket; 409 for a taken value ' +
          'or an account that already has a WeChat identity; 403 when registration is closed.',
        security: [],
        body: registerBodySchema,
        response: { 200: tokenResponseSchema },
      },
    },
    async (request) => {
      const body = validate(wechatRegisterSchema, request.body);
      await requireWechat(db);
      const ticket = await findLiveTicket(db, body.ticket);
      if (!ticket) throw ticketError();
      const token = body.link
        ? await linkAccount(db, { request, ticket, link: body.link })
        : await createAccount(db, { request, ticket, body });
      return ok(token);
    },
  );
}

async function linkAccount(
  db: Db,
  {
    request,
    ticket,
    link,
  }: { request: FastifyRequest; ticket: TicketRow; link: { username: string; password: string } },
) {
  // The same per-account-and-address failure window as the password sign-in.
  const failureKey = `login:fail:${link.username.toLowerCase()}|${request.ip}`;
  const window = await peekWindow(db, failureKey);
  if (window.current >= LIMITS.loginFailures.max) throw rateLimited(window.ttl);
  const user = await findUserByIdentifier(db, link.username);
  const isPasswordRight = await verifyPassword(user?.password_hash, link.password);
  if (!user || !isPasswordRight || !user.state) {
    await hitWindow(db, { key: failureKey, windowMs: LIMITS.loginFailures.timeWindow });
    await countTicketAttempt(db, ticket.id);
    await recordActivity(db, {
      request,
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
  if (window.current > 0) await clearWindow(db, failureKey);
  if (await findIdentityOfUser(db, user.id)) throw alreadyLinked();
  await db
    .transaction(async (tx) => {
      if (!(await consumeTicket(tx, ticket.id))) throw ticketError();
      await insertIdentity(tx, { userId: user.id, ticket });
    })
    .catch(rethrowUnique(alreadyLinked));
  return signIn(db, {
    request,
    userId: user.id,
    remember: ticket.remember,
    action: 'auth.wechat_link',
  });
}

async function createAccount(
  db: Db,
  { request, ticket, body }: { request: FastifyRequest; ticket: TicketRow; body: WechatRegisterInput },
) {
  const settings = await requireWechat(db);
  if (!settings.registration) throw new AppError(403, 'auth.registration_closed');
  const username = body.username!;
  const { email, phone, password } = body;
  if (password && !isAcceptablePassword(password, { identities: [username, email, phone] })) {
    throw AppError.validation({ password: ['validation.password_format'] });
  }
  const taken = await takenFields(db, { username, email, phone });
  if (taken[0]) throw AppError.conflict(taken[0], request.t(`auth.fields.${taken[0]}`));
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
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO users (username, name, email, phone, password_hash) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        // users.name holds at most 60 characters (resources/users.ts, checked by the table).
        [username, (ticket.nickname || username).slice(0, 60), email ?? null, phone ?? null, passwordHash],
      );
      userId = rows[0]!.id;
      await insertIdentity(tx, { userId, ticket });
    });
  } catch (error) {
    // A concurrent registration took the name (or linked this WeChat user) between the check and the insert.
    if ((error as { code?: string }).code === '23505') {
      const field = (await takenFields(db, { username, email, phone }))[0];
      if (field) throw AppError.conflict(field, request.t(`auth.fields.${field}`));
      throw alreadyLinked();
    }
    throw error;
  }
  return signIn(db, {
    request,
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
