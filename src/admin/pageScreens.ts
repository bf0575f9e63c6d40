import type { LazyExoticComponent, ComponentType } from 'react';

/**
 * The screens of the custom pages (resources/pages.ts), keyed by page name, each downloaded on its first visit
 * (`lazyScreen`). The settings routes mount one route per declared page with its screen, behind its permission.
 *
 * @example
 * const SalesReport = lazyScreen(() => import('../pages/shop/SalesReport.tsx'), (m) => m.SalesReport);
 * export const pageScreens: PageScreens = { sales_report: SalesReport };
 */
export type PageScreens = Readonly<Record<string, LazyExoticComponent<ComponentType<object>>>>;

export const pageScreens: PageScreens = {};
