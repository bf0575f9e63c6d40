/**
 * The account forms' zod schemas (schemas/auth.ts), downloaded on demand: a form starts fetching them when
 * focus first enters it and useAuthForm waits for them on submit, so zod is not part of the public pages'
 * first download. Example: `form.submit(() => loadAuthSchemas().then((m) => m.loginSchema), values, send)`.
 */
export function loadAuthSchemas() {
  return import('../../../schemas/auth.ts');
}

/**
 * Starts the download early (a form's onFocus), with the issue keys useAuthForm turns the schema's
 * messages into; failures surface on submit instead.
 */
export function preloadAuthSchemas(): void {
  void Promise.all([loadAuthSchemas(), import('../../../schemas/messages.ts')]).catch(() => undefined);
}
