/**
 * Messages added at run time on top of the JSON catalogues, for code that cannot ship a JSON file (the
 * end-to-end fixture's labels). The browser's i18next merges them into whatever it has loaded or loads
 * later; the server's catalogues (locales/index.ts) are extended by the caller itself.
 *
 * @example
 * addMessages('en', { resources: { gadgets: { name_one: 'Gadget' } } });
 */
import type { Catalog, Locale } from './languages.ts';

type Listener = (locale: Locale, messages: Catalog) => void;

const added: { locale: Locale; messages: Catalog }[] = [];
const listeners = new Set<Listener>();

export function addMessages(locale: Locale, messages: Catalog): void {
  added.push({ locale, messages });
  for (const listener of listeners) listener(locale, messages);
}

/** Everything added so far for `locale`, oldest first. */
export function addedMessages(locale: Locale): Catalog[] {
  return added.filter((entry) => entry.locale === locale).map((entry) => entry.messages);
}

/** Calls `listener` on every later addition; returns the unsubscribe function. */
export function onMessagesAdded(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
