import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  NullableBooleanInput,
  NumberInput,
  PasswordInput,
  ReferenceArrayInput,
  ReferenceInput,
  TextInput,
} from 'react-admin';
import { cloneElement, type ReactElement } from 'react';
import { searchConditions } from '../../resources/meta.ts';
import { BetweenInput } from './BetweenInput.tsx';
import type { FieldKind } from './fieldKind.ts';
import type { EngineField } from './registry.ts';
import { DictionaryInput } from './DictionaryInput.tsx';
import { EnumInput } from './EnumInput.tsx';
import { AssetInput } from './AssetField.tsx';
import { MarkdownInput } from './MarkdownInput.tsx';
import { MoneyInput } from './MoneyField.tsx';
import { FlagInput, isFlagField } from './flagAndDate.tsx';
import { LocaleDateInput } from './LocaleDateInput.tsx';

export interface InputContext {
  resource: string;
  /** Filters: no required marks, a tri-state boolean. */
  isFilter?: boolean;
  /** Edit forms: write-only fields may stay blank (blank keeps the stored value). */
  isEdit?: boolean;
  alwaysOn?: boolean;
}

type InputRenderer = (field: EngineField, ctx: InputContext) => ReactElement;

const common = (field: EngineField, ctx: InputContext) => ({
  source: field.name,
  label: field.label,
  // Labels `resources.<resource>.fields.<field>`: the form's own resource, or the child of an inline list.
  resource: ctx.resource,
  alwaysOn: ctx.alwaysOn,
  isRequired: !ctx.isFilter && !(ctx.isEdit && field.meta.writeOnly) && field.required,
});

/** zod type (field kind) -> react-admin Input. */
export const INPUT_TABLE: Record<FieldKind, InputRenderer> = {
  string: (f, ctx) => <TextInput {...common(f, ctx)} />,
  text: (f, ctx) => <TextInput {...common(f, ctx)} multiline={!ctx.isFilter} minRows={3} />,
  email: (f, ctx) => <TextInput {...common(f, ctx)} type="email" />,
  url: (f, ctx) => <TextInput {...common(f, ctx)} type="url" />,
  password: (f, ctx) => <PasswordInput {...common(f, ctx)} autoComplete="new-password" />,
  number: (f, ctx) =>
    isFlagField(f) ? (
      <FlagInput {...common(f, ctx)} isFilter={ctx.isFilter} />
    ) : (
      <NumberInput {...common(f, ctx)} />
    ),
  boolean: (f, ctx) =>
    ctx.isFilter ? <NullableBooleanInput {...common(f, ctx)} /> : <BooleanInput {...common(f, ctx)} />,
  enum: (f, ctx) => <EnumInput {...common(f, ctx)} resource={ctx.resource} spec={f} />,
  // In the interface language's format (zh-CN 2025/07/04), not the browser's as <input type="date"> would.
  date: (f, ctx) => <LocaleDateInput {...common(f, ctx)} kind="date" />,
  datetime: (f, ctx) => <LocaleDateInput {...common(f, ctx)} kind="datetime" />,
  // The child input carries the label and the required mark (ReferenceInput does not pass them on).
  belongsTo: (f, ctx) => {
    const { label, isRequired, resource, ...rest } = common(f, ctx);
    return (
      <ReferenceInput {...rest} reference={f.meta.relation?.resource ?? ''} label={label}>
        <AutocompleteInput label={label} resource={resource} isRequired={isRequired} />
      </ReferenceInput>
    );
  },
  manyToMany: (f, ctx) => {
    const { label, isRequired, resource, ...rest } = common(f, ctx);
    return (
      <ReferenceArrayInput {...rest} reference={f.meta.relation?.resource ?? ''} label={label}>
        <AutocompleteArrayInput label={label} resource={resource} isRequired={isRequired} />
      </ReferenceArrayInput>
    );
  },
  dictionary: (f, ctx) => <DictionaryInput {...common(f, ctx)} spec={f} />,
  array: (f, ctx) => (
    <TextInput
      {...common(f, ctx)}
      format={(value: unknown) => (Array.isArray(value) ? value.join(', ') : '')}
      parse={(text: string) =>
        text
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
      }
    />
  ),
  json: (f, ctx) => (
    <TextInput
      {...common(f, ctx)}
      multiline
      format={(value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2))}
      parse={(text: string) => parseJson(text)}
    />
  ),
  money: (f, ctx) => <MoneyInput {...common(f, ctx)} />,
  // A filter on an uploaded file searches by asset id.
  file: (f, ctx) =>
    ctx.isFilter ? <TextInput {...common(f, ctx)} /> : <AssetInput {...assetProps(f, ctx)} kind="file" />,
  image: (f, ctx) =>
    ctx.isFilter ? <TextInput {...common(f, ctx)} /> : <AssetInput {...assetProps(f, ctx)} kind="image" />,
  markdown: (f, ctx) =>
    ctx.isFilter ? <TextInput {...common(f, ctx)} /> : <MarkdownInput {...common(f, ctx)} />,
};

function assetProps(f: EngineField, ctx: InputContext) {
  const { source, isRequired } = common(f, ctx);
  return {
    source,
    isRequired,
    label: `${f.label ?? `resources.${ctx.resource}.fields.${f.name}`}`,
    field: `${ctx.resource}.${f.name}`,
  };
}

/** A read-only field on a form: shown, never editable, never sent. */
export function renderReadOnlyInput(field: EngineField): ReactElement {
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
