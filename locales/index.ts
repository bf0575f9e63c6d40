/**
 * The message catalogues, one JSON file per namespace and language. The server (error and validation
 * messages) and the tests read them all from here; the browser loads them per language and part instead
 * (src/i18n/messages.ts, grouped as locales/languages.ts says).
 * Namespaces: app (shell and pages), ra (react-admin), auth, engine (generated screens), resources
 * (resources.<name>.fields.<field>, merged from resources*.json so each area keeps its own file), settings, system, errors and validation (server messages too).
 * `settings-shell.json` and `system-shell.json` are parts of `settings` and `system` the browser downloads with
 * the admin shell (locales/languages.ts); they are merged into their namespace here, as are the `<namespace>-server.json`
 * files (the server's own messages: e-mails, SMS, API errors; the browser never downloads them).
 */
import { DEFAULT_LOCALE, LOCALES } from './languages.ts';
import type { Catalog, Locale } from './languages.ts';
import enApp from './en/app.json';
import enAuth from './en/auth.json';
import enAuthServer from './en/auth-server.json';
import enEngine from './en/engine.json';
import enEngineServer from './en/engine-server.json';
import enErrors from './en/errors.json';
import enRa from './en/ra.json';
import enResources from './en/resources.json';
import enResourcesContent from './en/resources-content.json';
import enResourcesPeople from './en/resources-people.json';
import enSettings from './en/settings.json';
import enSettingsShell from './en/settings-shell.json';
import enSystem from './en/system.json';
import enSystemShell from './en/system-shell.json';
import enValidation from './en/validation.json';
import zhApp from './zh-CN/app.json';
import zhAuth from './zh-CN/auth.json';
import zhAuthServer from './zh-CN/auth-server.json';
import zhEngine from './zh-CN/engine.json';
import zhEngineServer from './zh-CN/engine-server.json';
import zhErrors from './zh-CN/errors.json';
import zhRa from './zh-CN/ra.json';
import zhResources from './zh-CN/resources.json';
import zhResourcesContent from './zh-CN/resources-content.json';
import zhResourcesPeople from './zh-CN/resources-people.json';
import zhSettings from './zh-CN/settings.json';
import zhSettingsShell from './zh-CN/settings-shell.json';
import zhSystem from './zh-CN/system.json';
import zhSystemShell from './zh-CN/system-shell.json';
import zhValidation from './zh-CN/validation.json';

export { DEFAULT_LOCALE, LOCALES };
export type { Catalog, Locale };

export const catalogs: Record<Locale, Catalog> = {
  'zh-CN': {
    app: zhApp,
    auth: merged(zhAuth, zhAuthServer),
    engine: merged(zhEngine, zhEngineServer),
    errors: zhErrors,
    ra: zhRa,
    resources: { ...zhResources, ...zhResourcesPeople, ...zhResourcesContent },
    settings: merged(zhSettings, zhSettingsShell),
    system: merged(zhSystem, zhSystemShell),
    validation: zhValidation,
  },
  en: {
    app: enApp,
    auth: merged(enAuth, enAuthServer),
    engine: merged(enEngine, enEngineServer),
    errors: enErrors,
    ra: enRa,
    resources: { ...enResources, ...enResourcesPeople, ...enResourcesContent },
    settings: merged(enSettings, enSettingsShell),
    system: merged(enSystem, enSystemShell),
    validation: enValidation,
  },
};

/** Deep-merges a namespace's files (a `-shell.json` file adds leaves inside the namespace's own groups). */
function merged(...parts: Catalog[]): Catalog {
  const out: Catalog = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      const previous = out[key];
      out[key] = isGroup(previous) && isGroup(value) ? merged(previous, value) : value;
    }
  }
  return out;
}

function isGroup(value: unknown): value is Catalog {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Picks a supported locale from a header like `en-US,en;q=0.9`; zh-CN when nothing matches. */
export function negotiateLocale(header: string | undefined | null): Locale {
  if (!header) return DEFAULT_LOCALE;
  const tags = header
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .sort((a, b) => b.q - a.q);
  for (const { tag } of tags) {
    if (tag.startsWith('zh')) return 'zh-CN';
    if (tag.startsWith('en')) return 'en';
  }
  return DEFAULT_LOCALE;
}

/** Looks up a dotted key and fills `{{name}}` placeholders; returns the key itself when missing. */
export function translate(locale: Locale, key: string, params: Record<string, unknown> = {}): string {
  const value = key.split('.').reduce<unknown>((node, part) => {
    return node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  }, catalogs[locale]);
  if (typeof value !== 'string') return key;
  return value.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''));
}
