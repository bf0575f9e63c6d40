import type { ReactElement } from 'react';
import type { FieldKind } from '../fieldKind.ts';
import type { EngineField } from '../../data/registry.ts';

export interface InputContext {
  resource: string;
  /** Filters: no required marks, a tri-state boolean. */
  isFilter?: boolean;
  /** Edit forms: write-only fields may stay blank (blank keeps the stored value). */
  isEdit?: boolean;
  alwaysOn?: boolean;
}

export type InputRenderer = (field: EngineField, ctx: InputContext) => ReactElement;

/** The renderers of some field kinds (one module per group, so a list loads a group when it shows one). */
export type InputKindTable<K extends FieldKind> = Record<K, InputRenderer>;

export const common = (field: EngineField, ctx: InputContext) => ({
  source: field.name,
  label: field.label,
  // Labels `resources.<resource>.fields.<field>`: the form's own resource, or the child of an inline list.
  resource: ctx.resource,
  alwaysOn: ctx.alwaysOn,
  isRequired: !ctx.isFilter && !(ctx.isEdit && field.meta.writeOnly) && field.required,
});
