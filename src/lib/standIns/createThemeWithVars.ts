/**
 * What MUI's `createTheme` calls for `cssVariables: true` in the production build (scripts/lib/vite-lean-deps.ts
 * gives this module to `createTheme` in place of MUI's `createThemeWithVars.js`): an error saying so.
 * The product's themes (src/theme/theme.ts) do not use CSS theme variables, and a theme is made while a page
 * renders, so the function cannot wait for a download; leaving it out keeps MUI's CSS-variables theme
 * builder (its `vars` generation and parser) out of every page. `vite dev` and the unit tests run MUI as it
 * is. To use CSS theme variables, take `createThemeWithVars` off `STAND_INS` in the plugin.
 */
export const CSS_VARIABLES_LEFT_OUT =
  "MUI's CSS theme variables (createTheme({ cssVariables: true })) are left out of this build: " +
  'see STAND_INS in scripts/lib/vite-lean-deps.ts';

export default function createThemeWithVars(): never {
  throw new Error(CSS_VARIABLES_LEFT_OUT);
}
