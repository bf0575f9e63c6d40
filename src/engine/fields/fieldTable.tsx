import { BooleanField, FunctionField, TextField } from 'react-admin';
import { cloneElement, lazy, Suspense, type ComponentType, type ReactElement } from 'react';
import type { FieldKind } from './fieldKind.ts';
import type { EngineField } from '../data/registry.ts';
import { EnumField } from './EnumField.tsx';
import { FlagField, isFlagField } from './flagAndDate.tsx';
import { MaskedField } from './MaskedField.tsx';
import { ReadableReferenceArrayField, ReadableReferenceField } from './ReadableReference.tsx';

export interface FieldContext {
  /** The resource the record belongs to. */
  resource: string;
  /** Whether the column can be sorted (list only). */
  sortable?: boolean;
  /** The sort key of the column when it is not the field itself (a reference sorted by `department.name`). */
  sortBy?: string;
  /** List cells apply masks; show pages do not. */
  isListCell?: boolean;
}

type FieldRenderer = (field: EngineField, ctx: FieldContext) => ReactElement | null;

const common = (field: EngineField, ctx: FieldContext) => ({
  source: field.name,
  label: field.label,
  sortable: ctx.sortable ?? false,
  ...(ctx.sortBy ? { sortBy: ctx.sortBy } : {}),
});

/**
 * The kinds whose renderer does not load with every list (dictionaries, money, files and images, dates and
 * times, numbers, e-mail addresses and links, a show page's Markdown): each loads with the first screen that shows it. That screen waits for them before it
 * paints (useFieldKinds), so a cell never flashes empty, and a route can start them ahead (preloadFieldKinds).
 */
type OnDemand = 'dictionary' | 'money' | 'asset' | 'date' | 'formatted' | 'markdown';

/** Each is its own chunk (Vite splits at every `import()`). */
const ON_DEMAND: Record<OnDemand, () => Promise<Partial<Record<FieldKind, FieldRenderer>>>> = {
  dictionary: () =>
    import('./DictionaryField.tsx').then(({ DictionaryField }) => ({
      dictionary: (f, ctx) => <DictionaryField {...common(f, ctx)} field={f} />,
    })),
  money: () =>
    import('./MoneyField.tsx').then(({ MoneyField }) => ({
      money: (f, ctx) => <MoneyField {...common(f, ctx)} />,
    })),
  asset: () =>
    import('./AssetField.tsx').then(({ AssetField }) => {
      const asset =
        (kind: 'file' | 'image'): FieldRenderer =>
        (f, ctx) => (
          <AssetField
            {...common(f, ctx)}
            kind={kind}
            field={`${ctx.resource}.${f.name}`}
            isListCell={ctx.isListCell}
          />
        );
      return { file: asset('file'), image: asset('image') };
    }),
  date: () =>
    import('./LocaleDateField.tsx').then(({ LocaleDateField }) => ({
      date: (f, ctx) => <LocaleDateField {...common(f, ctx)} />,
      datetime: (f, ctx) => <LocaleDateField {...common(f, ctx)} showTime />,
    })),
  formatted: () =>
    import('./formattedFields.ts').then(({ EmailField, NumberField, UrlField }) => ({
      email: (f, ctx) => <EmailField {...common(f, ctx)} />,
      url: (f, ctx) => <UrlField {...common(f, ctx)} target="_blank" rel="noopener noreferrer" />,
      number: (f, ctx) => <NumberField {...common(f, ctx)} />,
    })),
  markdown: () =>
    import('./renderMarkdown.tsx').then(({ renderMarkdown }) => ({
      markdown: (f, ctx) => (
        <FunctionField
          {...common(f, ctx)}
          render={(record: Record<string, unknown>) => renderMarkdown(String(record[f.name] ?? ''))}
        />
      ),
    })),
};

/** The on-demand group a field needs where it is shown, if any. */
function onDemandOf(field: EngineField, ctx: Pick<FieldContext, 'isListCell'>): OnDemand | null {
  if (ctx.isListCell && field.meta.mask) return null;
  switch (field.kind) {
    case 'dictionary':
    case 'money':
      return field.kind;
    case 'file':
    case 'image':
      return 'asset';
    case 'date':
    case 'datetime':
      return 'date';
    case 'email':
    case 'url':
      return 'formatted';
    case 'number':
      return isFlagField(field) ? null : 'formatted';
    case 'markdown':
      return ctx.isListCell ? null : 'markdown';
    default:
      return null;
  }
}

const loaded = new Map<OnDemand, Partial<Record<FieldKind, FieldRenderer>>>();
const loading = new Map<OnDemand, Promise<void>>();

function loadGroup(group: OnDemand): Promise<void> {
  let promise = loading.get(group);
  if (!promise) {
    promise = ON_DEMAND[group]().then(
      (renderers) => void loaded.set(group, renderers),
      (error: unknown) => {
        // A failed download is not kept: the next screen asks again.
        loading.delete(group);
        throw error;
      },
    );
    loading.set(group, promise);
  }
  return promise;
}

function missingGroups(fields: readonly EngineField[], ctx: Pick<FieldContext, 'isListCell'>): OnDemand[] {
  const groups = new Set<OnDemand>();
  for (const field of fields) {
    const group = onDemandOf(field, ctx);
    if (group && !loaded.has(group)) groups.add(group);
  }
  return [...groups].sort();
}

/** Starts loading the renderers `fields` need (a list's columns when its route renders). */
export function preloadFieldKinds(
  fields: readonly EngineField[],
  ctx: Pick<FieldContext, 'isListCell'>,
): void {
  for (const group of missingGroups(fields, ctx)) void loadGroup(group).catch(() => undefined);
}

/** One promise per set of groups, so React sees the same promise on every render while it waits. */
const waits = new Map<string, Promise<void>>();

/**
 * Suspends the caller until the renderers of `fields` are loaded (returns at once when they are), so that
 * renderField then renders each of them synchronously. Call it in the component that calls renderField.
 */
export function useFieldKinds(fields: readonly EngineField[], ctx: Pick<FieldContext, 'isListCell'>): void {
  const missing = missingGroups(fields, ctx);
  if (!missing.length) return;
  const key = missing.join(',');
  let wait = waits.get(key);
  if (!wait) {
    wait = Promise.all(missing.map(loadGroup)).then(
      () => undefined,
      (error: unknown) => {
        waits.delete(key);
        throw error;
      },
    );
    waits.set(key, wait);
  }
  // Thrown, not `use()`d: once loaded, this returns without asking React for a promise at all.
  throw wait;
}

/** A kind's renderer: at once when loaded, else (a caller that did not wait) loading in its own cell. */
function onDemand(kind: FieldKind, group: OnDemand): FieldRenderer {
  return (field, ctx) => {
    const ready = loaded.get(group)?.[kind];
    if (ready) return ready(field, ctx);
    return (
      <Suspense fallback={null}>
        <LazyCell kind={kind} group={group} field={field} ctx={ctx} />
      </Suspense>
    );
  };
}

type CellProps = { field: EngineField; ctx: FieldContext };
const lazyCells = new Map<FieldKind, ComponentType<CellProps>>();

function LazyCell({ kind, group, ...props }: CellProps & { kind: FieldKind; group: OnDemand }) {
  let Cell = lazyCells.get(kind);
  if (!Cell) {
    Cell = lazy(() =>
      loadGroup(group).then(() => ({
        default: ({ field, ctx }: CellProps) => loaded.get(group)![kind]!(field, ctx),
      })),
    );
    lazyCells.set(kind, Cell);
  }
  return <Cell {...props} />;
}

const formattedNumber = onDemand('number', 'formatted');

/** zod type (field kind) -> react-admin Field. */
export const FIELD_TABLE: Record<FieldKind, FieldRenderer> = {
  string: (f, ctx) => <TextField {...common(f, ctx)} />,
  text: (f, ctx) => <TextField {...common(f, ctx)} sx={{ whiteSpace: 'pre-wrap' }} />,
  email: onDemand('email', 'formatted'),
  url: onDemand('url', 'formatted'),
  // Write-only values never come back from the server, so there is nothing to show.
  password: () => null,
  number: (f, ctx) => (isFlagField(f) ? <FlagField {...common(f, ctx)} /> : formattedNumber(f, ctx)),
  boolean: (f, ctx) => <BooleanField {...common(f, ctx)} />,
  enum: (f, ctx) => <EnumField {...common(f, ctx)} resource={ctx.resource} field={f} />,
  date: onDemand('date', 'date'),
  datetime: onDemand('datetime', 'date'),
  belongsTo: (f, ctx) => (
    <ReadableReferenceField {...common(f, ctx)} reference={f.meta.relation?.resource ?? ''} />
  ),
  manyToMany: (f, ctx) => (
    <ReadableReferenceArrayField {...common(f, ctx)} reference={f.meta.relation?.resource ?? ''} />
  ),
  dictionary: onDemand('dictionary', 'dictionary'),
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
  money: onDemand('money', 'money'),
  file: onDemand('file', 'asset'),
  image: onDemand('image', 'asset'),
  // Lists show the text; show pages render the Markdown.
  markdown: (f, ctx) =>
    ctx.isListCell ? <TextField {...common(f, ctx)} /> : onDemand('markdown', 'markdown')(f, ctx),
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
