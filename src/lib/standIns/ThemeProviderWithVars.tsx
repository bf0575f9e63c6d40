/**
 * MUI's `CssVarsProvider` on demand (scripts/lib/vite-lean-deps.ts gives this module to MUI's `ThemeProvider`
 * in the production build). `ThemeProvider` renders it only for a theme with color schemes (`colorSchemes`,
 * or `createTheme()` without a palette); the product's themes have a palette and no schemes, so MUI's
 * CSS-variables provider (its color-scheme storage and media-query listeners, `InitColorSchemeScript`)
 * stays out of every page. A theme with schemes still works: its provider downloads on first render, while
 * the tree under it waits (nothing shows until the theme can apply).
 */
import { lazyComponent } from './lazyComponent.tsx';

export const CssVarsProvider = lazyComponent('CssVarsProvider', () =>
  import('@mui/material/esm/styles/ThemeProviderWithVars.js').then((module) => module.CssVarsProvider),
);
