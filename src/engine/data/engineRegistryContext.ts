import { createContext, useContext } from 'react';
import type { Resource } from '../../../resources/define.ts';
import { resources as registered } from '../../../resources/index.ts';

/**
 * The resources the engine's screens know (EngineResource provides its `all`), so a screen can find the
 * child resource of an inline has-many list. Defaults to resources/index.ts.
 */
export const EngineRegistryContext = createContext<readonly Resource[]>(registered);

/** The engine's resource list (see EngineRegistryContext). */
export function useEngineRegistry(): readonly Resource[] {
  return useContext(EngineRegistryContext);
}
