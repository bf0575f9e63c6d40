import type { EngineField } from '../data/descriptor.ts';

/** A file's column header -> the field it fills ('' leaves the column out), as the import's `mapping` part. */
export type ColumnMapping = Record<string, string>;

/** The fields a column may fill: `id` (matches existing records) and every field that is not read-only. */
export function mappableFields(fields: readonly EngineField[]): EngineField[] {
  return fields.filter((f) => !f.meta.readOnly);
}

/**
 * The mapping a file starts with: what the user chose for this list before (remembered in the browser), else
 * the field whose name or label (in either spelling the caller's language gives) is the header, else left
 * out. Example: `initialMapping(['SKU', 'Cost'], { sku: 'SKU' }, remembered)`.
 */
export function initialMapping(
  headers: readonly string[],
  labels: Record<string, string>,
  remembered: ColumnMapping,
): ColumnMapping {
  const byText = new Map<string, string>();
  for (const [field, label] of Object.entries(labels)) {
    byText.set(field.toLowerCase(), field);
    byText.set(label.trim().toLowerCase(), field);
  }
  const mapping: ColumnMapping = {};
  for (const header of headers) {
    const key = header.trim();
    const before = remembered[key];
    mapping[key] =
      before !== undefined && (before === '' || before in labels)
        ? before
        : (byText.get(key.toLowerCase()) ?? '');
  }
  return mapping;
}

const storageKey = (resource: string) => `engine.import.mapping.${resource}`;

/** The mapping last used for this list's imports in this browser (headers of every file seen so far). */
export function rememberedMapping(resource: string): ColumnMapping {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(storageKey(resource)) ?? '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as ColumnMapping) : {};
  } catch {
    return {};
  }
}

/** Adds `mapping` to what this list remembers (a full browser storage is no reason to fail an import). */
export function rememberMapping(resource: string, mapping: ColumnMapping): void {
  try {
    const merged = { ...rememberedMapping(resource), ...mapping };
    localStorage.setItem(storageKey(resource), JSON.stringify(merged));
  } catch {
    // Nothing to do: the next file is pre-filled by its headers.
  }
}
