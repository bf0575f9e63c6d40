import type { OidcProvider } from '../../../schemas/settings.ts';
import { AppError } from '../../core/errors.ts';
import { getSettings } from '../../core/settings.ts';
import type { Queryable } from '../../db/index.ts';

/** The providers of the `login` settings, as the sign-in page lists them (no secret, no issuer). */
export async function publicProviders(db: Queryable): Promise<{ id: string; label: string }[]> {
  const { oidc_providers: providers } = await getSettings(db, 'login');
  return providers.map(({ id, label }) => ({ id, label }));
}

/** One provider entry of the `login` settings, or null. */
export async function findProvider(db: Queryable, id: string): Promise<OidcProvider | null> {
  const { oidc_providers: providers } = await getSettings(db, 'login');
  return providers.find((p) => p.id === id) ?? null;
}

/** One provider entry; 404 when the settings name none with this id. */
export async function requireProvider(db: Queryable, id: string): Promise<OidcProvider> {
  const provider = await findProvider(db, id);
  if (!provider) throw AppError.notFound();
  return provider;
}
