import { createElement, lazy, useEffect } from 'react';
import {
  BasenameContextProvider,
  Resource as RaResource,
  useBasename,
  useResourceDefinitionContext,
} from 'react-admin';
import type { Resource } from '../../resources/define.ts';
import { resources as registered } from '../../resources/index.ts';
import { EngineRegistryContext } from './engineRegistryContext.ts';
import { representationField } from './registry.ts';
import { servesOperation } from './useAbilities.ts';
import { ResourceList } from './ResourceList.tsx';
import type { ResourceView, ResourceViews } from './views.ts';

// The generated form and detail screens (inputs, validation, drafts) load on their first visit, like the
// hand-written ones (src/admin/overrides.ts): opening the admin at a list does not download them. The
// settings layout shows a loading state meanwhile.
const ResourceCreate = lazy(() =>
  import('./ResourceCreate.tsx').then((m) => ({ default: m.ResourceCreate })),
);
const ResourceEdit = lazy(() => import('./ResourceEdit.tsx').then((m) => ({ default: m.ResourceEdit })));
const ResourceShow = lazy(() => import('./ResourceShow.tsx').then((m) => ({ default: m.ResourceShow })));

const NO_OVERRIDES: Record<string, ResourceViews> = {};

/** The operation a generated view needs the server to serve. */
const VIEW_OPERATION = { list: 'list', create: 'create', edit: 'update', show: 'read' } as const;

const GENERATED: Required<Record<keyof ResourceViews, ResourceView>> = {
  list: ResourceList,
  create: ResourceCreate,
  edit: ResourceEdit,
  show: ResourceShow,
};

/**
 * The routes of one resource under a mount point (`/settings` by default): list at `<mount>/<name>`, then
 * `create`, `:id` (edit) and `:id/show`, each the override given in `overrides` (the admin app's table is src/admin/overrides.ts) or the
 * generated screen. Mount it
 * on a `<name>/*` route. It also tells react-admin about every registered resource (record representation,
 * which views exist), so references and links between resources resolve under the same mount point.
 *
 * @example
 * <Route path="staff/*" element={<EngineResource resource={staff} />} />
 */
export function EngineResource({
  resource,
  mount = '/settings',
  overrides = NO_OVERRIDES,
  all = registered,
}: {
  resource: Resource;
  mount?: string;
  overrides?: Record<string, ResourceViews>;
  all?: readonly Resource[];
}) {
  const basename = useBasename();
  useRegisterResources(all.includes(resource) ? all : [...all, resource], overrides);
  const views = viewsOf(resource, overrides);
  const element = (view: ResourceView | undefined) => (view ? createElement(view, { resource }) : undefined);
  return (
    <EngineRegistryContext.Provider value={all}>
      <BasenameContextProvider basename={`${basename}${mount}`}>
        <RaResource
          name={resource.name}
          list={element(views.list)}
          create={element(views.create)}
          edit={element(views.edit)}
          show={element(views.show)}
          recordRepresentation={representationField(resource)}
        />
      </BasenameContextProvider>
    </EngineRegistryContext.Provider>
  );
}

/** Each view: the override, the generated screen, or none when the override is `false`. */
function viewsOf(
  resource: Resource,
  overrides: Record<string, ResourceViews>,
): Partial<Record<keyof ResourceViews, ResourceView>> {
  const own = overrides[resource.name] ?? {};
  const out: Partial<Record<keyof ResourceViews, ResourceView>> = {};
  for (const view of Object.keys(GENERATED) as (keyof ResourceViews)[]) {
    const chosen = own[view];
    if (chosen === false) continue;
    if (chosen) out[view] = chosen;
    else if (servesOperation(resource, VIEW_OPERATION[view])) out[view] = GENERATED[view];
  }
  return out;
}

function useRegisterResources(list: readonly Resource[], overrides: Record<string, ResourceViews>): void {
  const { register } = useResourceDefinitionContext();
  useEffect(() => {
    for (const resource of list) {
      const views = viewsOf(resource, overrides);
      register({
        name: resource.name,
        hasList: !!views.list,
        hasCreate: !!views.create,
        hasEdit: !!views.edit,
        hasShow: !!views.show,
        recordRepresentation: representationField(resource),
      });
    }
  }, [list, overrides, register]);
}
