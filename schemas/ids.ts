/** The largest id (PostgreSQL bigint / bigserial). */
export const ID_MAX = 9223372036854775807n;

/** A record id as the API takes it: digits only, at most 2^63-1 (a bigint). */
export function isIdString(value: string): boolean {
  return /^\d{1,19}$/.test(value) && BigInt(value) <= ID_MAX;
}
