import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createAppRouter } from './App.tsx';
import { initI18n } from './i18n/i18n.ts';
import { resolveInitialLocale } from './i18n/locale.ts';
import { queryClient } from './providers/queryClient.ts';
import { loadSystemStatus } from './providers/siteConfig.ts';

/**
 * Start-up: GET /api/v1 first (its failure is ignored, spec 7) because on a first visit its first language
 * becomes the locale; then i18next; then the first render, so no text ever flashes in the wrong language.
 */
async function start(): Promise<void> {
  const status = await loadSystemStatus(queryClient);
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
