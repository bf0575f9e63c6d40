import { useEffect } from 'react';
import { PublicProviders } from './PublicProviders.tsx';
import { PublicLoading } from './public-ui/controls.tsx';
import { AppRoutes } from './AppRoutes.tsx';
import { HistoryNavigation } from './navigation/HistoryNavigation.tsx';

/**
 * The signed-out start: the sign-in, register and reset pages, the WeChat return and the error pages, moved
 * between with the browser's history API (HistoryNavigation), so the sign-in page downloads neither
 * react-router nor react-admin. The first navigation to an admin path (after signing in, or by a link) calls
 * `onAdminPath`, which renders the full app (src/App.tsx, react-router's data router) in its place at the same
 * address; from then on the data router routes every page, the public ones included.
 *
 * @example
 * root.render(<PublicApp onAdminPath={() => void showFullApp()} />);
 */
export function PublicApp({ onAdminPath }: { onAdminPath: () => void }) {
  return (
    <HistoryNavigation>
      <PublicProviders>
        <AppRoutes admin={<HandOver onAdminPath={onAdminPath} />} />
      </PublicProviders>
    </HistoryNavigation>
  );
}

/** Stands on an admin path until the full app replaces the public one. */
function HandOver({ onAdminPath }: { onAdminPath: () => void }) {
  useEffect(() => onAdminPath(), [onAdminPath]);
  return <PublicLoading fullScreen />;
}
