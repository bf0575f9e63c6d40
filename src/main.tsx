import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import { PublicApp } from './PublicApp.tsx';
import { initI18n, preloadMessages } from './i18n/i18n.ts';
import { getStoredLocale, resolveInitialLocale } from './i18n/locale.ts';
import { loadSiteStatus } from './providers/siteStatus.ts';
import { configureCookieDomain } from './providers/token.ts';
import { isAdminPath } from './navigation/paths.ts';

/**
 * Start-up: GET /api/v1 first (its failure is ignored, spec 7) because on a first visit its first language
 * becomes the locale; then i18next with that language's public messages; then the first render, so no text ever flashes in the wrong language.
 * A signed-out page starts in the light public app (src/PublicApp.tsx); an admin path, or the first move to
 * one, loads the full app (src/App.tsx: the data router react-admin needs) and renders it instead.
 */
async function start(): Promise<void> {
  // A returning visitor's language is known already: fetch its messages while GET /api/v1 is under way.
  const stored = getStoredLocale();
  if (stored) preloadMessages(stored, 'public');
  const atAdminPath = isAdminPath(window.location.pathname);
  // The admin shell's chunk downloads alongside the full app's on a direct visit to an admin page.
  if (atAdminPath) void import('./admin/AdminApp.tsx').catch(() => undefined);
  const status = await loadSiteStatus();
  configureCookieDomain(status.config.cookie_domain);
  await initI18n(resolveInitialLocale(status.config.languages));
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  const root = createRoot(container);
  const showFullApp = fullAppRenderer(root);
  if (atAdminPath) await showFullApp();
  else {
    root.render(
      <StrictMode>
        <PublicApp onAdminPath={() => void showFullApp()} />
      </StrictMode>,
    );
  }
}

/** Renders the full app into `root`, once (a second call waits for the first). */
function fullAppRenderer(root: Root): () => Promise<void> {
  let shown: Promise<void> | null = null;
  return () => {
    shown ??= import('./App.tsx').then(
      ({ App, createAppRouter }) => {
        root.render(
          <StrictMode>
            <App router={createAppRouter()} />
          </StrictMode>,
        );
      },
      (error: unknown) => {
        // A failed download is tried again on the next move to an admin page.
        shown = null;
        throw error;
      },
    );
    return shown;
  };
}

void start();
