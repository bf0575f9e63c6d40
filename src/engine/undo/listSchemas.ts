import { createContext } from 'react';
import type { Resource } from '../../../resources/define.ts';

/**
 * The zod declarations a list's bulk edit dialog validates with, when EngineResource was given its own
 * (`schemas`: tests, fixtures); unset, the dialog uses the registry. Its own module, without the registry's
 * import, so a list still loads no zod.
 */
export const ListSchemasContext = createContext<readonly Resource[] | undefined>(undefined);
