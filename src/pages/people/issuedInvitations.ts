/**
 * Invitation links issued in this tab, by staff id: the create screen hands the link the server returned
 * (once, with the create) to the edit screen it opens; a re-issue replaces it. Memory only, never stored:
 * reading does not consume it, since React may render a screen more than once.
 */
const issued = new Map<string, string>();

export function rememberIssuedInvitation(staffId: string, url: string): void {
  issued.set(staffId, url);
}

export function issuedInvitation(staffId: string): string | null {
  return issued.get(staffId) ?? null;
}
