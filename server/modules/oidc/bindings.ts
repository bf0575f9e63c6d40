import { AppError } from '../../core/errors.ts';
import { getSettings } from '../../core/settings.ts';
import type { Db } from '../../db/index.ts';
import { type Client, findUserById, recordActivity } from '../auth/index.ts';
import { deleteIdentity, identitiesOf } from './store.ts';

/** `GET v1/user/oidc`: every provider entry of the settings and the caller's binding to it. */
export async function bindingsOf(db: Db, userId: string) {
  const [{ oidc_providers: providers }, identities] = await Promise.all([
    getSettings(db, 'login'),
    identitiesOf(db, userId),
  ]);
  return providers.map(({ id, label }) => {
    const identity = identities.find((i) => i.provider_id === id);
    return {
      id,
      label,
      bound: Boolean(identity),
      email: identity?.email ?? null,
      bound_at: identity ? new Date(identity.created_at).toISOString() : null,
      last_login_at: identity?.last_login_at ? new Date(identity.last_login_at).toISOString() : null,
    };
  });
}

/**
 * `DELETE v1/user/oidc/<provider>`: unbinds; 404 when not bound, 422 when the account would be left with no
 * way to sign in (no password and no other binding).
 */
export async function unbind(
  db: Db,
  { userId, providerId, client }: { userId: string; providerId: string; client: Client },
): Promise<void> {
  const identities = await identitiesOf(db, userId);
  if (!identities.some((i) => i.provider_id === providerId)) throw AppError.notFound();
  const user = await findUserById(db, userId);
  if (!user?.password_hash && identities.length < 2) {
    throw new AppError(422, 'auth.oidc.errors.unbind_needs_password');
  }
  if (!(await deleteIdentity(db, { userId, providerId }))) throw AppError.notFound();
  await recordActivity(db, {
    client,
    action: 'auth.oidc_unbind',
    operatorId: userId,
    subjectId: userId,
    changes: { provider: providerId },
  });
}
