import { defaultDarkTheme, defaultLightTheme } from 'react-admin';
import type { RaThemeOptions } from 'react-admin';
import type { ThemeMode } from '../theme/preferences.ts';
import { themeOptions } from '../theme/theme.ts';

/**
 * react-admin's default theme (it styles react-admin's own components) with our palette, shape and component
 * defaults (focus ring, progress names) on top; react-admin's own settings of a component stay beside ours.
 */
export function adminTheme(mode: ThemeMode, { loadingLabel }: { loadingLabel: string }): RaThemeOptions {
  const base = mode === 'dark' ? defaultDarkTheme : defaultLightTheme;
  const ours = themeOptions(mode, { loadingLabel });
  const components: Record<string, unknown> = { ...base.components };
  for (const [name, options] of Object.entries(ours.components ?? {}))
    components[name] = { ...(components[name] as object | undefined), ...options };
  components.RaBulkActionsToolbar = BULK_BAR_IN_FLOW;
  return {
    ...base,
    palette: { ...base.palette, ...ours.palette },
    shape: { ...base.shape, ...ours.shape },
    components: components as RaThemeOptions['components'],
  };
}

/**
 * react-admin lifts the "N selected" bar 48px up over the list's toolbar (absolute, translateY), where it
 * covered the filters (issue 34): here it takes its own row between the filters and the rows instead, on
 * every list and size. Its collapsed state (height 0) is react-admin's, so nothing shows while none is selected.
 */
const BULK_BAR_IN_FLOW = {
  styleOverrides: {
    root: {
      '& .RaBulkActionsToolbar-toolbar': { position: 'relative', transform: 'none' },
      // Open, it grows to fit: on a phone its buttons (Change, Edit, Enable, Disable, Delete) wrap onto a second
      // row instead of widening the page past the screen (428 px on a 390 px phone in English).
      '& .RaBulkActionsToolbar-toolbar:not(.RaBulkActionsToolbar-collapsed)': {
        height: 'auto',
        flexWrap: 'wrap',
      },
      '& .RaBulkActionsToolbar-topToolbar': { flexWrap: 'wrap', justifyContent: 'flex-end' },
    },
  },
};
