import { useMemo } from 'react';
import { useTranslate } from 'react-admin';
import type { EngineField } from '../data/registry.ts';

export interface Choice {
  id: string;
  name: string;
}

/**
 * An enum field's options with their labels from `resources.<resource>.enums.<field>.<value>` (the value
 * itself when no label is declared). The server writes the same labels into CSV exports.
 */
export function useEnumChoices(resource: string, field: EngineField): Choice[] {
  const translate = useTranslate();
  return useMemo(
    () =>
      field.enumValues.map((value) => ({
        id: value,
        name: translate(`resources.${resource}.enums.${field.name}.${value}`, { _: value }),
      })),
    [translate, resource, field],
  );
}
