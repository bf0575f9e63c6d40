import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, buttonClass } from '../../public-ui/controls.tsx';
import { setPageTitle } from '../../providers/pageTitleStore.ts';
import { forgetSiteStatus, usePublicSiteConfig } from '../../providers/siteStatus.ts';
import { AppLink, useNavigation } from '../../navigation/navigation.tsx';

export type ErrorCode = 403 | 404 | 500;

/**
 * The error pages of spec 8: 403 "Unauthenticated" (non-staff on a staff route), 500 "Server error" (system
 * not ready) and 404 "Page not found". Built from src/public-ui/ (no MUI), so it renders even when the admin chunk cannot load.
 */
export function ErrorPage({ code }: { code: ErrorCode }) {
  const { t } = useTranslation();
  const { navigate } = useNavigation();
  const title = t(`app.errors.${code}.title`);
  const { site_name: siteName } = usePublicSiteConfig();

  // "<what happened> - <site name>", as every page is titled (useSiteTitle, where it is mounted, agrees).
  useEffect(() => {
    const previous = document.title;
    setPageTitle(title);
    document.title = [title, siteName].filter(Boolean).join(' - ');
    return () => {
      setPageTitle(null);
      document.title = previous;
    };
  }, [title, siteName]);

  const retry = () => {
    // Ask the server again instead of trusting the cached "not ready".
    forgetSiteStatus();
    navigate('/dashboard');
  };

  return (
    <main className="pu-page pu-error-page">
      <p className="pu-error-code" aria-hidden="true">
        {code}
      </p>
      <h1 className="pu-error-title">{title}</h1>
      <p className="pu-text-2">{t(`app.errors.${code}.description`)}</p>
      {code === 500 ? (
        <Button variant="contained" onClick={retry}>
          {t('app.retry')}
        </Button>
      ) : (
        <AppLink className={buttonClass({ variant: 'contained' })} to="/">
          {t('app.back_home')}
        </AppLink>
      )}
    </main>
  );
}
