import { Labeled, TextInput } from 'react-admin';
import { cloneElement, type ReactElement } from 'react';
import { searchConditions } from '../../../resources/meta.ts';
import { BetweenInput } from '../list/BetweenInput.tsx';
import type { FieldKind } from './fieldKind.ts';
import type { EngineField } from '../data/registry.ts';
import type { InputContext, InputRenderer } from './inputKinds/common.ts';
import { CHOICE_INPUTS } from './inputKinds/choice.tsx';
import { DATE_INPUTS } from './inputKinds/date.tsx';
import { FORM_INPUTS } from './inputKinds/form.tsx';
import { NUMBER_INPUTS } from './inputKinds/number.tsx';
import { REFERENCE_INPUTS } from './inputKinds/reference.tsx';
import { ReadableReferenceField } from './ReadableReference.tsx';
import { TEXT_INPUTS } from './inputKinds/text.tsx';

export type { InputContext } from './inputKinds/common.ts';

/**
 * zod type (field kind) -> react-admin Input: the forms' table, every kind loaded. A list's filters load
 * each group of kinds when they show one (filterInputs.tsx).
 */
export const INPUT_TABLE: Record<FieldKind, InputRenderer> = {
  ...TEXT_INPUTS,
  ...CHOICE_INPUTS,
  ...NUMBER_INPUTS,
  ...DATE_INPUTS,
  ...REFERENCE_INPUTS,
  ...FORM_INPUTS,
};

/** A read-only field on a form: shown, never editable, never sent. */
export function renderReadOnlyInput(field: EngineField): ReactElement {
  // A record it points to is named by its representation (staff "Account": the username, not the user id).
  if (field.kind === 'belongsTo' && field.meta.relation?.resource) {
    return (
      <Labeled key={field.name} source={field.name} label={field.label}>
        <ReadableReferenceField
          source={field.name}
          label={field.label}
          reference={field.meta.relation.resource}
          link={false}
          emptyText="—"
        />
      </Labeled>
    );
  }
  return <TextInput key={field.name} source={field.name} label={field.label} readOnly />;
}

export function renderInput(field: EngineField, ctx: InputContext): ReactElement {
  if (ctx.isFilter && searchConditions(field.meta)[0] === 'between') {
    return (
      <BetweenInput
        key={field.name}
        source={field.name}
        resource={ctx.resource}
        kind={field.kind}
        label={field.label}
        alwaysOn={ctx.alwaysOn}
      />
    );
  }
  // The key is set here, not spread from `common`: React warns about a spread `key`.
  return cloneElement(INPUT_TABLE[field.kind](field, ctx), { key: field.name });
}
