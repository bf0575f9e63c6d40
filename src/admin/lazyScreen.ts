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
 * `preload()` starts the download ahead (e.g. with the layout the screen renders in); a failed download is not
 * kept, so rendering the screen after a failed preload downloads it again.
 *
 * @example
 * const LogsPage = lazyScreen(() => import('../pages/system/logs/LogsPage.tsx'), (m) => m.LogsPage, ['system']);
 */
export function lazyScreen<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
  messages: readonly ScreenBundle[] = [],
) {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  // One download however often it is asked for: by React when the screen renders, or ahead by `preload`.
  const loadScreen = () =>
    (loading ??= Promise.all([load(), messages.length ? loadAdminMessages(messages) : null]).then(
      ([module]) => ({ default: pick(module) }),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  return Object.assign(lazy(loadScreen), {
    preload: () => void loadScreen().catch(() => undefined),
  });
}
