import englishMessages from 'ra-language-english';
import { convertRaTranslationsToI18next } from 'ra-i18n-i18next';
import { describe, expect, it } from 'vitest';
import { LOCALES, catalogs } from '../../locales/index.ts';

/** Every leaf of a catalogue as `dotted.key -> value`. */
function flatten(node: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      for (const [leaf, text] of flatten(value, `${prefix}${key}.`)) out.set(leaf, text);
    }
  } else {
    out.set(prefix.slice(0, -1), node);
  }
  return out;
}

const placeholders = (text: unknown) =>
  [...String(text).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('locale catalogues', () => {
  const zh = flatten(catalogs['zh-CN']);
  const en = flatten(catalogs.en);

  it('have exactly the same keys in zh-CN and en, across every namespace', () => {
    const onlyZh = [...zh.keys()].filter((key) => !en.has(key));
    const onlyEn = [...en.keys()].filter((key) => !zh.has(key));
    expect({ onlyZh, onlyEn }).toEqual({ onlyZh: [], onlyEn: [] });
  });

  it('use the same {{placeholders}} for a key in every language', () => {
    const mismatched = [...zh.keys()].filter(
      (key) => en.has(key) && placeholders(zh.get(key)).join() !== placeholders(en.get(key)).join(),
    );
    expect(mismatched).toEqual([]);
  });

  it.each(LOCALES)('%s holds only non-empty strings in i18next syntax', (locale) => {
    const bad = [...flatten(catalogs[locale])].filter(
      ([key, value]) =>
        typeof value !== 'string' || (value.trim() === '' && key !== 'ra.boolean.null') || /%\{/.test(value),
    );
    expect(bad).toEqual([]);
  });

  it("covers every react-admin message (en is ra-language-english's, converted to i18next plurals)", () => {
    const expected = convertRaTranslationsToI18next(englishMessages) as { ra: unknown };
    expect(catalogs.en.ra).toEqual(expected.ra);
  });
});
