/**
 * The zod declarations a list's cell editor validates with (EngineResource's `schemas`): the same context as
 * the bulk edit dialog's; undefined means the registry (resources/index.ts), which only the editor's lazy
 * chunk imports, so a list still loads no zod.
 */
export { ListSchemasContext as InlineSchemasContext } from '../../undo/listSchemas.ts';
