import {
  BooleanField,
  EmailField,
  FunctionField,
  NumberField,
  ReferenceArrayField,
  ReferenceField,
  SingleFieldList,
  TextField,
  UrlField,
} from 'react-admin';
import { cloneElement, type ReactElement } from 'react';
import type { FieldKind } from './fieldKind.ts';
import type { EngineField } from './registry.ts';
import { DictionaryField } from './DictionaryField.tsx';
import { EnumField } from './EnumField.tsx';
import { FlagField, isFlagField, LocaleDateField } from './flagAndDate.tsx';
import { MaskedField } from './MaskedField.tsx';
import { AssetField } from './AssetField.tsx';
import { renderMarkdown } from './MarkdownInput.tsx';
import { MoneyField } from './MoneyField.tsx';

export interface FieldContext {
  /** The resource the record belongs to. */
  resource: string;
  /** Whether the column can be sorted (list only). */
  sortable?: boolean;
  /** List cells apply masks; show pages do not. */
  isListCell?: boolean;
}

type FieldRenderer = (field: EngineField, ctx: FieldContext) => ReactElement | null;

const common = (field: EngineField, ctx: FieldContext) => ({
  source: field.name,
  label: field.label,
  sortable: ctx.sortable ?? false,
});

/** zod type (field kind) -> react-admin Field. */
export const FIELD_TABLE: Record<FieldKind, FieldRenderer> = {
  string: (f, ctx) => <TextField {...common(f, ctx)} />,
  text: (f, ctx) => <TextField {...common(f, ctx)} sx={{ whiteSpace: 'pre-wrap' }} />,
  email: (f, ctx) => <EmailField {...common(f, ctx)} />,
  url: (f, ctx) => <UrlField {...common(f, ctx)} target="_blank" rel="noopener noreferrer" />,
  // Write-only values never come back from the server, so there is nothing to show.
  password: () => null,
  number: (f, ctx) =>
    isFlagField(f) ? <FlagField {...common(f, ctx)} /> : <NumberField {...common(f, ctx)} />,
  boolean: (f, ctx) => <BooleanField {...common(f, ctx)} />,
  enum: (f, ctx) => <EnumField {...common(f, ctx)} resource={ctx.resource} field={f} />,
  date: (f, ctx) => <LocaleDateField {...common(f, ctx)} />,
  datetime: (f, ctx) => <LocaleDateField {...common(f, ctx)} showTime />,
  belongsTo: (f, ctx) => <ReferenceField {...common(f, ctx)} reference={f.meta.relation?.resource ?? ''} />,
  manyToMany: (f, ctx) => (
    <ReferenceArrayField {...common(f, ctx)} reference={f.meta.relation?.resource ?? ''}>
      <SingleFieldList linkType={false} />
    </ReferenceArrayField>
  ),
  dictionary: (f, ctx) => <DictionaryField {...common(f, ctx)} field={f} />,
  array: (f, ctx) => (
    <FunctionField
      {...common(f, ctx)}
      render={(record: Record<string, unknown>) => toList(record[f.name]).join(', ')}
    />
  ),
  json: (f, ctx) => (
    <FunctionField
      {...common(f, ctx)}
      render={(record: Record<string, unknown>) => JSON.stringify(record[f.name] ?? null)}
    />
  ),
  money: (f, ctx) => <MoneyField {...common(f, ctx)} />,
  file: (f, ctx) => (
    <AssetField
      {...common(f, ctx)}
      kind="file"
      field={`${ctx.resource}.${f.name}`}
      isListCell={ctx.isListCell}
    />
  ),
  image: (f, ctx) => (
    <AssetField
      {...common(f, ctx)}
      kind="image"
      field={`${ctx.resource}.${f.name}`}
      isListCell={ctx.isListCell}
    />
  ),
  // Lists show the text; show pages render the Markdown.
  markdown: (f, ctx) =>
    ctx.isListCell ? (
      <TextField {...common(f, ctx)} />
    ) : (
      <FunctionField
        {...common(f, ctx)}
        render={(record: Record<string, unknown>) => renderMarkdown(String(record[f.name] ?? ''))}
      />
    ),
};

/** The Field element of one field; masked fields are masked in list cells. */
export function renderField(field: EngineField, ctx: FieldContext): ReactElement | null {
  if (ctx.isListCell && field.meta.mask) {
    return <MaskedField key={field.name} {...common(field, ctx)} mask={field.meta.mask} />;
  }
  // The key is set here, not spread from `common`: React warns about a spread `key`.
  const element = FIELD_TABLE[field.kind](field, ctx);
  return element && cloneElement(element, { key: field.name });
}

function toList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}
