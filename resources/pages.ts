import type { Page } from './define-page.ts';

/**
 * The product's custom pages (resources/define-page.ts), like resources/index.ts for resources: add a page's
 * declaration here and its screen to src/admin/pageScreens.ts. The browser build of the test fixture swaps
 * this file for tests/fixtures/pages.ts (vite.e2e.config.ts).
 */
export const pages: readonly Page[] = [];
