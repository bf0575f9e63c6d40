import { addMessages } from '../../../locales/additions.ts';
import { LOCALES } from '../../../locales/languages.ts';
import { pageLabels, type Page } from '../../../resources/define-page.ts';
import { pages } from '../../../resources/pages.ts';

/**
 * The custom pages of resources/pages.ts (resources/define-page.ts) as the menu, the role tree and the routes
 * read them. Their titles (`app.pages.<name>`) come from their declarations, added to i18next here once.
 */
export const registeredPages: readonly Page[] = pages;

for (const locale of LOCALES) if (pages.length) addMessages(locale, { app: pageLabels(pages, locale) });
