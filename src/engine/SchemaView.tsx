import { createElement, useMemo } from 'react';
import type { Resource } from '../../resources/define.ts';
import { resources as registered } from '../../resources/index.ts';
import { EngineRegistryContext } from './data/engineRegistryContext.ts';
import { declaredWithAccess } from './form/declaredWithAccess.ts';
import { useFieldAccess } from '../providers/fieldAccess.ts';
import type { ResourceView } from './views.ts';

/**
 * A create, edit or show screen with the zod declaration of its resource: EngineResource loads this module
 * (and with it zod and resources/) only when such a screen opens, so a list never downloads them. `schemas`
 * is the declared resources the screen's inline lists and validation look children up in (the registry by
 * default); it is also what the screen's EngineRegistryContext holds. The screen and its inline lists get
 * the resources as the caller may see them (declaredWithAccess: hidden fields gone, read-only ones marked),
 * once the caller's field access is known.
 */
export function SchemaView({
  name,
  view,
  schemas = registered,
}: {
  name: string;
  view: ResourceView;
  schemas?: readonly Resource[];
}) {
  const { access, isPending } = useFieldAccess();
  const seen = useMemo(() => schemas.map((r) => declaredWithAccess(r, access)), [schemas, access]);
  const resource = seen.find((r) => r.name === name);
  if (!resource) throw new Error(`Unknown resource: ${name}`);
  // Nothing until the caller's field access is known: a form must not offer a field and then take it away.
  if (isPending) return null;
  return (
    <EngineRegistryContext.Provider value={seen}>
      {createElement(view, { resource })}
    </EngineRegistryContext.Provider>
  );
}
