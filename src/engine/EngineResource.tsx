import { createElement, lazy, useEffect } from 'react';
import type { ReactNode } from 'react';
import { Route } from 'react-router-dom';
import {
  BasenameContextProvider,
  Resource as RaResource,
  useBasename,
  useResourceDefinitionContext,
} from 'react-admin';
import type { Resource } from '../../resources/define.ts';
import type { ResourceDescriptor } from './data/descriptor.ts';
import { listFields, registeredDescriptors, representationField, treeOptionsOf } from './data/registry.ts';
import { preloadFieldKinds } from './fields/fieldTable.tsx';
import { servesOperation, useAbilities } from './data/useAbilities.ts';
import { usePermissionList } from '../providers/useCan.ts';
import { ResourceList } from './list/ResourceList.tsx';
import type { ListView, ResourceView, ResourceViews } from './views.ts';
import { withFieldAccess } from './data/withFieldAccess.ts';
import { useFieldAccess } from '../providers/fieldAccess.ts';
import { hasTrash } from './trash/trash.ts';
import { ListSchemasContext } from './undo/listSchemas.ts';

// The generated form and detail screens (inputs, validation, drafts) load on their first visit, like the
// hand-written ones (src/admin/overrides.ts): opening the admin at a list does not download them. The
// settings layout shows a loading state meanwhile.
const ResourceCreate = lazy(() =>
  import('./form/ResourceCreate.tsx').then((m) => ({ default: m.ResourceCreate })),
);
const ResourceEdit = lazy(() => import('./form/ResourceEdit.tsx').then((m) => ({ default: m.ResourceEdit })));
const ResourceShow = lazy(() => import('./ResourceShow.tsx').then((m) => ({ default: m.ResourceShow })));
// Those screens read the zod declarations (validation, payloads, defaults): they come with them, so a list
// loads no zod (registry.ts gives lists plain descriptors).
// The trash page (`<list path>/trash`) loads on its first visit.
const TrashPage = lazy(() => import('./trash/TrashPage.tsx').then((m) => ({ default: m.TrashPage })));
const SchemaView = lazy(() => import('./SchemaView.tsx').then((m) => ({ default: m.SchemaView })));

const NO_OVERRIDES: Record<string, ResourceViews> = {};

/** The operation a generated view needs the server to serve. */
const VIEW_OPERATION = { list: 'list', create: 'create', edit: 'update', show: 'read' } as const;

const GENERATED: { list: ListView } & Required<Record<'create' | 'edit' | 'show', ResourceView>> = {
  list: ResourceList,
  create: ResourceCreate,
  edit: ResourceEdit,
  show: ResourceShow,
};

/**
 * The routes of one resource under a mount point (`/settings` by default): list at `<mount>/<name>`, then
 * `create`, `:id` (edit), `:id/show` and `trash` (trash/TrashPage.tsx, for a resource with a trash), each the override given in `overrides` (the admin app's table is src/admin/overrides.ts) or the
 * generated screen. Mount it
 * on a `<name>/*` route. It also tells react-admin about every registered resource (record representation,
 * which views exist), so references and links between resources resolve under the same mount point.
 *
 * @example
 * <Route path="staff/*" element={<EngineResource resource={findDescriptor('staff')!} />} />
 * // tests with their own resources: describe them, and hand the declarations to the forms
 * <EngineResource resource={describeResource(contacts)} all={[describeResource(contacts)]} schemas={[contacts]} />
 */
export function EngineResource({
  resource,
  mount = '/settings',
  overrides = NO_OVERRIDES,
  all = registeredDescriptors,
  schemas,
}: {
  resource: ResourceDescriptor;
  mount?: string;
  overrides?: Record<string, ResourceViews>;
  all?: readonly ResourceDescriptor[];
  /** The zod declarations of `all` for the create, edit and show screens (resources/index.ts by default). */
  schemas?: readonly Resource[];
}) {
  const basename = useBasename();
  useRegisterResources(all.includes(resource) ? all : [...all, resource], overrides);
  const views = viewsOf(resource, overrides);
  // The list's column kinds not loaded with every list start loading with the route, beside a hand-written
  // list's own chunk.
  if (views.list) preloadFieldKinds(listFields(resource), { isListCell: true });
  const withSchema = (view: ResourceView | undefined) =>
    view ? <SchemaView name={resource.name} view={view} schemas={schemas} /> : undefined;
  return (
    <BasenameContextProvider basename={`${basename}${mount}`}>
      <RaResource
        name={resource.name}
        list={
          views.list ? (
            // The list's cell editors and bulk edit dialog validate with the declarations too (the registry by
            // default).
            <OptionalRegistry schemas={schemas}>
              <AccessibleList view={views.list} resource={resource} />
            </OptionalRegistry>
          ) : undefined
        }
        create={withSchema(views.create)}
        edit={
          views.edit ? (
            <EditOrShow
              resource={resource}
              edit={withSchema(views.edit)}
              show={withSchema(views.show ?? GENERATED.show)}
            />
          ) : undefined
        }
        show={withSchema(views.show)}
        recordRepresentation={representationField(resource)}
      >
        {views.list && hasTrash(resource) ? (
          <Route path="trash" element={<TrashPage resource={resource} />} />
        ) : null}
      </RaResource>
    </BasenameContextProvider>
  );
}

/** Given declarations (tests, fixtures), the screens below look resources up in them. */
function OptionalRegistry({ schemas, children }: { schemas?: readonly Resource[]; children: ReactNode }) {
  if (!schemas) return <>{children}</>;
  return <ListSchemasContext.Provider value={schemas}>{children}</ListSchemasContext.Provider>;
}

/**
 * A list (generated or hand-written) given the resource as the caller may see it (withFieldAccess): hidden
 * fields are no column, filter, sort or export column. Nothing until the caller's field access is known.
 */
function AccessibleList({ view, resource }: { view: ListView; resource: ResourceDescriptor }) {
  const { access, isPending } = useFieldAccess();
  if (isPending) return null;
  return createElement(view, { resource: withFieldAccess(resource, access) });
}

/**
 * The record's page (`<mount>/<name>/:id`): the edit screen for a caller who may update the resource, the
 * show screen (the override, else the generated one, even where the show route is switched off) for one who
 * may only read it, so a read-only caller never gets a form whose save would fail. The one place this is
 * decided, for generated and hand-written screens alike; panels inside either view simply appear in it.
 * Nothing until the caller's permissions are known, so a form is never offered and then taken away.
 */
function EditOrShow({
  resource,
  edit,
  show,
}: {
  resource: ResourceDescriptor;
  edit: ReactNode;
  show: ReactNode;
}) {
  const { isPending } = usePermissionList();
  const can = useAbilities(resource);
  if (isPending) return null;
  return <>{can.update ? edit : show}</>;
}

/** Each view: the override, the generated screen, or none when the override is `false`. */
function viewsOf(
  resource: ResourceDescriptor,
  overrides: Record<string, ResourceViews>,
): { list?: ListView; create?: ResourceView; edit?: ResourceView; show?: ResourceView } {
  const own = overrides[resource.name] ?? {};
  const pick = <V,>(
    view: keyof ResourceViews,
    chosen: V | false | undefined,
    generated: V,
  ): V | undefined => {
    if (chosen === false) return undefined;
    if (chosen) return chosen;
    return servesOperation(resource, VIEW_OPERATION[view]) ? generated : undefined;
  };
  return {
    list: pick('list', own.list, GENERATED.list),
    create: pick('create', own.create, GENERATED.create),
    edit: pick('edit', own.edit, GENERATED.edit),
    show: pick('show', own.show, GENERATED.show),
  };
}

function useRegisterResources(
  list: readonly ResourceDescriptor[],
  overrides: Record<string, ResourceViews>,
): void {
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
        // A tree (parent_id): references to it are picked from a tree (fields/tree/BelongsToInput.tsx).
        ...(treeOptionsOf(resource) ? { options: { tree: treeOptionsOf(resource) } } : {}),
      });
    }
  }, [list, overrides, register]);
}
