import { BooleanField } from 'react-admin';
import type { EngineField } from '../data/registry.ts';

/** A 0/1 integer field (`is_admin`): a switch on forms (FlagInput.tsx) and a check mark in cells, 1/0 on
 * the wire. */
export function isFlagField(field: Pick<EngineField, 'flag'>): boolean {
  return field.flag;
}

/** A 0/1 field shown as a boolean (check or cross). */
export function FlagField(props: Parameters<typeof BooleanField>[0]) {
  return <BooleanField {...props} looseValue />;
}

// The date renderer (LocaleDateField) is in LocaleDateField.tsx: lists load it with their first date column
// (fieldTable's on-demand kinds), so a list without one does not carry the date formatting.
