import { Suspense, useEffect } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicLoading } from '../public-ui/controls.tsx';
import { PublicHeader } from '../public-ui/PublicHeader.tsx';
import { setPageTitle } from '../providers/pageTitleStore.ts';
import { useNavigation } from '../navigation/navigation.tsx';
import { usePublicSiteConfig } from '../providers/siteStatus.ts';
import { publicPageTitleOf } from './publicTitle.ts';

/**
 * Frame of the sign-in, register and reset pages: the header (language, light/dark) and a card with the site's
 * logo and name over the page. Built from src/public-ui/, so these pages download neither MUI nor react-admin.
 */
export function PublicLayout({ children }: { children: ReactNode }) {
  const { site_name: siteName, site_logo: siteLogo } = usePublicSiteConfig();
  const { t } = useTranslation();
  const { pathname } = useNavigation().location;
  // document.title "<page> - <site name>" (joined in useSiteTitle), named from the route.
  const title = publicPageTitleOf(pathname, t);
  useEffect(() => setPageTitle(title), [title]);
  useEffect(() => () => setPageTitle(null), []);
  return (
    <div className="pu-page">
      <PublicHeader />
      <main className="pu-main">
        <div className="pu-card">
          {/* Whose back office this is; the page's own title stays the one heading. */}
          {siteLogo && isSafeLogo(siteLogo) ? (
            <img className="pu-logo" src={siteLogo} alt={siteName ? `${siteName} logo` : 'logo'} />
          ) : null}
          {siteName ? <p className="pu-site-name">{siteName}</p> : null}
          <Suspense fallback={<PublicLoading />}>{children}</Suspense>
        </div>
      </main>
    </div>
  );
}

/** A logo address the settings accept: https:// or a path on this site (never javascript: or data:). */
function isSafeLogo(url: string): boolean {
  return /^https:\/\/\S+$/.test(url) || /^\/(?!\/)\S*$/.test(url);
}
