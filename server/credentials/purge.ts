import type { Queryable } from '../db/index.ts';
import { purgeCodes } from './codes.ts';
import { purgeRateLimits } from './rate-limit-store.ts';
import { purgeTokens } from './tokens.ts';

/**
 * Housekeeping for the scheduler: deletes expired or revoked tokens, old codes, ended rate-limit windows and
 * expired two-step sign-in tokens.
 * Example: `const counts = await purgeAuthRows(db)`.
 */
export async function purgeAuthRows(
  db: Queryable,
): Promise<{ tokens: number; codes: number; rateLimits: number; mfaTokens: number }> {
  const tokens = await purgeTokens(db);
  const codes = await purgeCodes(db);
  const rateLimits = await purgeRateLimits(db);
  // Two-step sign-in tokens are worthless once expired (5 minutes) or spent.
  const mfaTokens = (await db.query('DELETE FROM mfa_tokens WHERE expires_at < now()')).rowCount;
  return { tokens, codes, rateLimits, mfaTokens };
}
