import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppRouter } from './App.tsx';
import { initI18n, preloadMessages } from './i18n/i18n.ts';
import { getStoredLocale, resolveInitialLocale } from './i18n/locale.ts';
import { queryClient } from './providers/queryClient.ts';
import { loadSystemStatus } from './providers/siteConfig.ts';
import { configureCookieDomain } from './providers/token.ts';

/**
 * Start-up: GET /api/v1 first (its failure is ignored, spec 7) because on a first visit its first language
 * becomes the locale; then i18next with that language's public messages; then the first render, so no text ever flashes in the wrong language.
 */
async function start(): Promise<void> {
  // A returning visitor's language is known already: fetch its messages while GET /api/v1 is under way.
  const stored = getStoredLocale();
  if (stored) preloadMessages(stored, 'public');
  const status = await loadSystemStatus(queryClient);
  configureCookieDomain(status.config.cookie_domain);
  await initI18n(resolveInitialLocale(status.config.languages));
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  createRoot(container).render(
    <StrictMode>
      <App router={createAppRouter()} />
    </StrictMode>,
  );
}

void start();
