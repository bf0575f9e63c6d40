import { useTranslation } from 'react-i18next';
import { safeHref } from '../../../lib/safeHref.ts';
import { usePublicSiteConfig } from '../../../providers/siteStatus.ts';
import { buttonClass } from '../../../public-ui/controls.tsx';
import { REMEMBER_KEY } from './oidcReturn.ts';

/**
 * One "Sign in with <label>" per OpenID Connect provider of the login settings (`config.oidc_providers` of
 * GET /api/v1). Each is a plain link to `GET /api/v1/oidc/<id>/auth`, which redirects to the provider: the
 * browser leaves the app and comes back to `/login?oidc_ticket=`.
 *
 * @example
 * <OidcButtons href={params.get('href')} remember={values.remember} />
 */
export function OidcButtons({ href, remember }: { href: string | null; remember: boolean }) {
  const { t } = useTranslation();
  const providers = usePublicSiteConfig().oidc_providers ?? [];
  if (providers.length === 0) return null;
  const query = new URLSearchParams();
  const back = safeHref(href);
  if (back) query.set('href', back);
  if (remember) query.set('remember', '1');
  const search = query.toString() ? `?${query}` : '';
  return (
    <>
      {providers.map((provider) => (
        <a
          key={provider.id}
          className={buttonClass({ variant: 'outlined', color: 'primary', size: 'large' })}
          href={`/api/v1/oidc/${encodeURIComponent(provider.id)}/auth${search}`}
          // The ticket comes back without the choice: the tab remembers it until then.
          onClick={() => sessionStorage.setItem(REMEMBER_KEY, remember ? '1' : '')}
        >
          {t('auth.oidc.button', { label: provider.label })}
        </a>
      ))}
    </>
  );
}
