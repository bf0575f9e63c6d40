import { localStorageStore, memoryStore } from 'react-admin';
import type { Store } from 'react-admin';

/** Keys under this prefix are the user's screen preferences (columns, density...) and outlive a reload. */
export const PREFERENCES_PREFIX = 'preferences.';

/**
 * react-admin's store for the admin: list state (page, filters, sort, selection) lives in memory, as before,
 * while `preferences.*` keys (the column chooser, the row density) are kept in localStorage (`RaStore.admin.*`)
 * so a list looks the same after a reload or the next sign-in. Signing out resets the memory part only:
 * preferences are about the screen, not the account, like the theme and the language.
 *
 * @example
 * const [store] = useState(() => preferenceStore({ locale: i18n.language }));
 * <Admin store={store} ... />
 */
export function preferenceStore(initial: Record<string, unknown> = {}): Store {
  const memory = memoryStore(initial);
  const persistent = localStorageStore('1', '.admin');
  const pick = (key: string): Store => (key.startsWith(PREFERENCES_PREFIX) ? persistent : memory);
  return {
    setup: () => {
      memory.setup();
      persistent.setup();
    },
    teardown: () => {
      memory.teardown();
      persistent.teardown();
    },
    getItem: (key, defaultValue) => pick(key).getItem(key, defaultValue),
    setItem: (key, value) => pick(key).setItem(key, value),
    removeItem: (key) => pick(key).removeItem(key),
    removeItems: (keyPrefix) => {
      memory.removeItems(keyPrefix);
      persistent.removeItems(keyPrefix);
    },
    reset: () => memory.reset(),
    subscribe: (key, callback) => pick(key).subscribe(key, callback),
    listItems: (keyPrefix) => ({
      ...memory.listItems?.(keyPrefix),
      ...persistent.listItems?.(keyPrefix),
    }),
  };
}
