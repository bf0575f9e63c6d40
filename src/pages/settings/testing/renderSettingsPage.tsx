import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AdminContext, Notification, TestMemoryRouter, memoryStore } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import type { Locale } from '../../../../locales/index.ts';
import { registeredDescriptors as resources } from '../../../engine/data/registry.ts';
import { createDataProvider } from '../../../engine/data/dataProvider.ts';
import { EngineResource } from '../../../engine/EngineResource.tsx';
import { overrides } from '../../../admin/overrides.ts';
import { testI18nProvider } from '../../../engine/testing/renderEngine.tsx';

/**
 * Test helper: the real registry's settings screens at `path` (engine routes with the real overrides), or
 * `element` at `path`, with the real dataProvider and catalogues; tests stub fetch (engine/testing/fakeFetch).
 */
export async function renderSettingsPage({
  path,
  element,
  locale = 'en',
}: {
  path: string;
  element?: ReactNode;
  locale?: Locale;
}) {
  const i18nProvider = await testI18nProvider(locale);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <TestMemoryRouter initialEntries={[path]}>
        <AdminContext
          dataProvider={createDataProvider()}
          i18nProvider={i18nProvider}
          store={memoryStore()}
          queryClient={queryClient}
        >
          <Routes>
            {element ? <Route path={path} element={element} /> : null}
            {resources.map((resource) => (
              <Route
                key={resource.name}
                path={`/settings/${resource.name}/*`}
                element={<EngineResource resource={resource} overrides={overrides} />}
              />
            ))}
          </Routes>
          <Notification />
        </AdminContext>
      </TestMemoryRouter>
    </QueryClientProvider>,
  );
}
