import type { Queryable } from '../db/index.ts';
import { purgeCodes } from './codes.ts';
import { purgeRateLimits } from './rate-limit-store.ts';
import { purgeTokens } from './tokens.ts';

/**
 * Housekeeping for the scheduler: deletes expired or revoked tokens, old codes and ended rate-limit windows.
 * Example: `const counts = await purgeAuthRows(db)`.
 */
export async function purgeAuthRows(
  db: Queryable,
): Promise<{ tokens: number; codes: number; rateLimits: number }> {
  const tokens = await purgeTokens(db);
  const codes = await purgeCodes(db);
  const rateLimits = await purgeRateLimits(db);
  return { tokens, codes, rateLimits };
}
