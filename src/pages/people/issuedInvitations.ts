/**
 * The link of a staff record created a moment ago, handed from the create screen to the edit screen it
 * redirects to (the server returns it once, with the create). Kept in memory only, taken once.
 */
const issued = new Map<string, string>();

export function rememberIssuedInvitation(staffId: string, url: string): void {
  issued.set(staffId, url);
}

export function takeIssuedInvitation(staffId: string): string | null {
  const url = issued.get(staffId) ?? null;
  issued.delete(staffId);
  return url;
}
