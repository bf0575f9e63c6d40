import { render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import Cookies from 'js-cookie';
import { createInstance } from 'i18next';
import { getI18nProvider } from 'ra-i18n-i18next';
import { AdminContext, Notification, TestMemoryRouter, memoryStore } from 'react-admin';
import type { I18nProvider, Store } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import { catalogs } from '../../../locales/index.ts';
import type { Locale } from '../../../locales/index.ts';
import { STAFF_INCLUDE, profileKey } from '../../providers/profile.ts';
import type { Profile } from '../../providers/profile.ts';
import { createDataProvider } from '../data/dataProvider.ts';
import { describeResource } from '../data/descriptor.ts';
import { EngineResource } from '../EngineResource.tsx';
import type { ResourceViews } from '../views.ts';
import type { Resource } from '../../../resources/define.ts';
import { contacts } from './contacts.ts';
import { kitItems, kits } from './kits.ts';
import { departments, roles } from './related.ts';

/** An administrator: holds every permission. */
export const ADMIN_PROFILE: Profile = {
  id: '1',
  username: 'admin',
  staff: { id: '1', is_admin: 1, roles: [] },
};

export const testResources = [contacts, departments, roles, kits, kitItems];
/** The test resources as the list screens see them (described at run time, like the build does the registry's). */
export const testDescriptors = testResources.map((resource) => describeResource(resource));

/** react-admin's i18nProvider over the real catalogues, one i18next instance per call. */
export async function testI18nProvider(locale: Locale = 'en'): Promise<I18nProvider> {
  return getI18nProvider(createInstance(), {
    lng: locale,
    resources: { [locale]: { translation: catalogs[locale] } },
    interpolation: { escapeValue: false },
    nsSeparator: false,
    returnNull: false,
  });
}

/**
 * Renders the engine's routes of the test resources (`contacts`, `kits` ...) under /settings at `path`, with the real dataProvider (tests stub
 * fetch) and the real message catalogues.
 */
export async function renderEngine({
  path,
  locale = 'en',
  overrides = {},
  onLocation,
  profile = ADMIN_PROFILE,
  store = memoryStore(),
  extraResources = [],
}: {
  /** More resources besides the test ones, for one test. */
  extraResources?: readonly Resource[];
  profile?: Profile;
  /** react-admin's store; a fresh memory store by default. */
  store?: Store;
  path: string;
  locale?: Locale;
  overrides?: Record<string, ResourceViews>;
  onLocation?: (pathname: string) => void;
}) {
  // Signed in, with the profile already loaded (in the app the route guard loads it first).
  Cookies.set('access_token', 'test-token');
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(profileKey(STAFF_INCLUDE), profile);
  const i18nProvider = await testI18nProvider(locale);
  const schemas = [...testResources, ...extraResources];
  const descriptors = [...testDescriptors, ...extraResources.map((r) => describeResource(r))];
  const view = render(
    <TestMemoryRouter initialEntries={[path]} locationCallback={(l) => onLocation?.(l.pathname)}>
      <AdminContext
        queryClient={queryClient}
        dataProvider={createDataProvider({ resources: descriptors, schemas })}
        i18nProvider={i18nProvider}
        store={store}
      >
        <Routes>
          {descriptors.map((resource) => (
            <Route
              key={resource.name}
              path={`/settings/${resource.name}/*`}
              element={
                <EngineResource
                  resource={resource}
                  all={descriptors}
                  schemas={schemas}
                  overrides={overrides}
                />
              }
            />
          ))}
        </Routes>
        <Notification />
      </AdminContext>
    </TestMemoryRouter>,
  );
  return { ...view, store };
}
