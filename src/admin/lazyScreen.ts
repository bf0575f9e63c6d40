import { lazy } from 'react';
import type { ComponentType } from 'react';
import type { ScreenBundle } from '../../locales/languages.ts';
import { loadAdminMessages } from '../i18n/i18n.ts';

/**
 * A screen downloaded on its first visit together with the message bundles it shows besides the admin ones
 * (locales/languages.ts: `settings`, `system`): the screen renders only once both have arrived, so it never
 * paints a raw key, and the first list page downloads neither the screen nor those messages. The layout
 * around it shows its loading state meanwhile (a Suspense boundary).
 *
 * @example
 * const LogsPage = lazyScreen(() => import('../pages/system/logs/LogsPage.tsx'), (m) => m.LogsPage, ['system']);
 */
export function lazyScreen<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
  messages: readonly ScreenBundle[] = [],
) {
  return lazy(async () => {
    const [module] = await Promise.all([load(), messages.length ? loadAdminMessages(messages) : null]);
    return { default: pick(module) };
  });
}
