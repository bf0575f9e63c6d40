import { createTheme, useColorScheme, useTheme } from '@mui/material/styles';
import { render, screen } from '@testing-library/react';
import type { ComponentProps } from 'react';
import {
  AdminContext,
  memoryStore,
  PreferenceKeyContextProvider,
  ResourceContextProvider,
} from 'react-admin';
import { describe, expect, it } from 'vitest';
import { adminTheme } from '../../admin/adminTheme.ts';
import { themeOptions } from '../../theme/theme.ts';
import createThemeWithVars, { CSS_VARIABLES_LEFT_OUT } from './createThemeWithVars.ts';
import { DatagridEditor } from './DatagridEditor.tsx';
import { CssVarsProvider } from './ThemeProviderWithVars.tsx';

// The production build gives these modules to react-admin's and MUI's files in place of the real ones
// (scripts/lib/vite-lean-deps.ts, STAND_INS; tests/integration/vite-lean-deps.test.ts checks the build). Here
// they are imported as they are, with the real modules behind them.

describe("the product's themes", () => {
  it("take MUI's path without CSS variables or color schemes, which the build leaves out", () => {
    for (const mode of ['light', 'dark'] as const) {
      for (const options of [
        themeOptions(mode, { loadingLabel: 'Loading' }),
        adminTheme(mode, { loadingLabel: 'Loading' }),
      ]) {
        const theme = createTheme(options);
        expect(theme.palette.mode).toBe(mode);
        // MUI's ThemeProvider renders its CssVarsProvider (on demand in the build) for a theme with these.
        expect('colorSchemes' in theme).toBe(false);
        expect('vars' in theme && theme.vars).toBeFalsy();
      }
    }
  });
});

describe('createThemeWithVars stand-in', () => {
  it('fails with a message naming the plugin, not a missing function', () => {
    expect(() => createThemeWithVars()).toThrow(CSS_VARIABLES_LEFT_OUT);
    expect(CSS_VARIABLES_LEFT_OUT).toContain('scripts/lib/vite-lean-deps.ts');
  });
});

describe('CssVarsProvider stand-in', () => {
  function Scheme() {
    const theme = useTheme();
    const { mode } = useColorScheme();
    return (
      <p>
        {theme.palette.mode}, scheme mode {String(mode)}
      </p>
    );
  }

  it("downloads MUI's provider and renders its children with the theme's color schemes", async () => {
    // createTheme's type leaves out the schemes it does add.
    const theme = createTheme({ colorSchemes: { light: true, dark: true } }) as unknown as ComponentProps<
      typeof CssVarsProvider
    >['theme'];
    render(
      <CssVarsProvider theme={theme} defaultMode="dark">
        <Scheme />
      </CssVarsProvider>,
    );
    // useColorScheme answers only inside the real provider: the stand-in rendered it.
    expect(await screen.findByText('dark, scheme mode dark')).toBeTruthy();
  });
});

describe('DatagridEditor stand-in', () => {
  it("downloads react-admin's editor: a switch per column of the configurable datagrid", async () => {
    const store = memoryStore({
      'preferences.posts.datagrid.availableColumns': [
        { index: '0', source: 'title' },
        { index: '1', source: 'author' },
      ],
      'preferences.posts.datagrid.columns': ['0'],
    });
    render(
      <AdminContext store={store}>
        <ResourceContextProvider value="posts">
          <PreferenceKeyContextProvider value="preferences.posts.datagrid">
            <DatagridEditor />
          </PreferenceKeyContextProvider>
        </ResourceContextProvider>
      </AdminContext>,
    );
    const switches = await screen.findAllByRole('switch');
    expect(switches.map((s) => (s as HTMLInputElement).checked)).toEqual([true, false]);
    // No i18nProvider here: the labels are the columns' message keys.
    expect(switches.map((s) => s.closest('li')?.textContent)).toEqual([
      'resources.posts.fields.title',
      'resources.posts.fields.author',
    ]);
  });
});
