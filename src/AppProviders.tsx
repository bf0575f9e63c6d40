import { QueryClientProvider } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { PublicProviders } from './PublicProviders.tsx';
import { RouterNavigation } from './navigation/RouterNavigation.tsx';
import { MuiThemeRoot } from './theme/MuiThemeRoot.tsx';

/**
 * Everything every page needs under react-router (the full app, or a MemoryRouter in tests): the pages'
 * navigation answered by react-router, the shared query cache, then PublicProviders (i18next, light/dark
 * mode, title) and MUI's theme of that mode.
 */
export function AppProviders({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <RouterNavigation>
      <QueryClientProvider client={client}>
        <PublicProviders>
          <MuiThemeRoot>{children}</MuiThemeRoot>
        </PublicProviders>
      </QueryClientProvider>
    </RouterNavigation>
  );
}
