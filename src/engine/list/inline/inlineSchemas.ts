import { createContext } from 'react';
import type { Resource } from '../../../../resources/define.ts';

/**
 * The zod declarations a list's cell editor validates with (EngineResource's `schemas`); undefined means the
 * registry (resources/index.ts), which only the editor's lazy chunk imports, so a list still loads no zod.
 */
export const InlineSchemasContext = createContext<readonly Resource[] | undefined>(undefined);
