import { USERNAME_PATTERN } from '../../../schemas/auth.ts';
import type { OidcProvider } from '../../../schemas/settings.ts';
import { staff } from '../../../resources/staff.ts';
import { sha256 } from '../../credentials/tokens.ts';
import type { Db } from '../../db/index.ts';
import { asSystem } from '../../engine/system-access.ts';
import { type Client, insertUser, recordActivity, takenFields } from '../auth/index.ts';
import type { OidcClaims } from './client.ts';
import { insertIdentity } from './store.ts';

/**
 * `auto_create`: a new account for a subject the provider vouched for and nobody here is bound to. The
 * username comes from `claim_username` when it is free and well formed, else `<provider>_<hash of subject>`
 * (an identity provider never names an existing account into being theirs); the email only when the provider
 * says it is verified and nobody has it. With `default_role_ids` the account is also a staff member holding
 * those roles. No password: the account signs in through the provider (or sets one by a reset code).
 */
export async function createAccount(
  db: Db,
  { provider, claims, client }: { provider: OidcProvider; claims: OidcClaims; client: Client },
): Promise<string> {
  const username = await freeUsername(db, provider, claims);
  const email =
    claims.email && claims.isEmailVerified && !(await takenFields(db, { email: claims.email })).length
      ? claims.email
      : null;
  return db.transaction(async (tx) => {
    const userId = await insertUser(tx, {
      username,
      name: claims.name ?? username,
      email,
      phone: null,
      password_hash: null,
    });
    await insertIdentity(tx, {
      userId,
      providerId: provider.id,
      issuer: claims.issuer,
      subject: claims.subject,
      email: claims.email,
    });
    let roleIds: string[] = [];
    if (provider.default_role_ids.length) {
      const system = asSystem(tx);
      const { id: staffId } = await system.insert(staff, {
        name: claims.name ?? username,
        user_id: userId,
      });
      roleIds = await system.addLinks(staff, {
        field: 'role_ids',
        owner: String(staffId),
        targets: provider.default_role_ids,
      });
    }
    await recordActivity(tx, {
      client,
      action: 'auth.register',
      operatorId: null,
      subjectId: userId,
      // A list is written as the pair `[before, after]`, as every other list change: a bare list of two
      // would read as one (activities/describe.ts `changeLines`).
      changes: { username, method: 'oidc', provider: provider.id, role_ids: [[], roleIds] },
    });
    return userId;
  });
}

async function freeUsername(db: Db, provider: OidcProvider, claims: OidcClaims): Promise<string> {
  const wanted = claims.username?.replace(/@.*$/, '') ?? '';
  if (USERNAME_PATTERN.test(wanted) && !(await takenFields(db, { username: wanted })).length) return wanted;
  const base = `${provider.id.replace(/[^A-Za-z0-9_.-]/g, '_')}_${sha256(`${claims.issuer} ${claims.subject}`).slice(0, 10)}`;
  const fallback = /^[A-Za-z]/.test(base) ? base : `u${base}`;
  return fallback.slice(0, 32);
}
