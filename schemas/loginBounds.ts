/**
 * The bounds of a sign-in's fields (`loginSchema`, ./auth.ts), in a module without zod: the sign-in page checks
 * them before it has downloaded zod (issue 37 item 6).
 */
export const LOGIN_USERNAME_MAX = 254;
/** Bounded so a megabyte "password" cannot buy a megabyte of hashing; no stored password is longer. */
export const LOGIN_PASSWORD_MAX = 1024;

/**
 * Whether `loginSchema` accepts these values as they are: a username present once trimmed and within its
 * bound, a password present and within its bound. The sign-in page sends such values without loading the
 * schema (the server parses them with it); any other input it checks with the schema, for its messages.
 *
 * @example
 * isPlainLogin({ username: ' li ', password: 'secret' }); // true
 */
export function isPlainLogin({ username, password }: { username: string; password: string }): boolean {
  const name = username.trim();
  return (
    name !== '' &&
    name.length <= LOGIN_USERNAME_MAX &&
    password !== '' &&
    password.length <= LOGIN_PASSWORD_MAX
  );
}
