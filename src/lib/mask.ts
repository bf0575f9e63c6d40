const STAR = '*';

/** Phone: first 3 and last 4 characters visible (`138****5678`); shorter values are returned as they are. */
export function maskPhone(phone: string | null | undefined): string {
  if (!phone) return '';
  if (phone.length <= 7) return phone;
  return phone.slice(0, 3) + STAR.repeat(phone.length - 7) + phone.slice(-4);
}

/** ID card: first 6 characters and everything from index 14 visible (`110101********123X`). */
export function maskIdCard(id: string | null | undefined): string {
  if (!id) return '';
  if (id.length <= 6) return id;
  const hidden = Math.min(id.length, 14) - 6;
  return id.slice(0, 6) + STAR.repeat(hidden) + id.slice(14);
}

/**
 * Email: a local part longer than 2 keeps its first and last characters (`z****n@example.com`); shorter local
 * parts and values without `@` are returned as they are.
 */
export function maskEmail(email: string | null | undefined): string {
  if (!email) return '';
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  const local = email.slice(0, at);
  if (local.length <= 2) return email;
  return local[0] + STAR.repeat(local.length - 2) + local.slice(-1) + email.slice(at);
}
