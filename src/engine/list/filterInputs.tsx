import TextField from '@mui/material/TextField';
import {
  cloneElement,
  lazy,
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
  type ComponentType,
  type ReactElement,
  type RefObject,
} from 'react';
import { useTranslateLabel } from 'react-admin';
import { searchConditions } from '../../../resources/meta.ts';
import type { FieldKind } from '../fields/fieldKind.ts';
import type { EngineField } from '../data/registry.ts';
import type { InputContext, InputRenderer } from '../fields/inputKinds/common.ts';
import { TEXT_INPUTS } from '../fields/inputKinds/text.tsx';

/**
 * A list's filter inputs. react-admin's "Add filter" menu lists a filter from its element's props alone
 * (`source`, `label`, `alwaysOn`, `defaultValue`) and renders only the filters shown, so the text boxes (what
 * a list usually shows at once) load with the list and every other kind's input (autocompletes, dates,
 * ranges, selects, numbers) loads when a filter of that kind is shown: added by the user, or shown at once.
 * Hovering or focusing the "Add filter" button fetches them ahead (prefetchFilterInputs).
 *
 * While one loads, a text box of the same size and label holds its place. An added filter's input gets the
 * focus when it has loaded: react-admin focuses `input[name=<source>]` 50 ms after the click, which may find
 * the placeholder (its focus passes on) or nothing yet (then the focus still on "Add filter" says it was added).
 */
export function renderFilterInput(
  field: EngineField,
  ctx: Pick<InputContext, 'resource' | 'alwaysOn'>,
): ReactElement {
  const filterCtx: InputContext = { ...ctx, isFilter: true };
  const group = groupOf(field);
  if (group === 'text') {
    // Files, images and markdown are searched by text too.
    const render = TEXT_INPUTS[field.kind as keyof typeof TEXT_INPUTS] ?? TEXT_INPUTS.string;
    return cloneElement(render(field, filterCtx), { key: field.name });
  }
  return (
    <OnDemandFilter
      key={field.name}
      source={field.name}
      label={field.label}
      alwaysOn={ctx.alwaysOn}
      group={group}
      field={field}
      ctx={filterCtx}
    />
  );
}

/** Starts loading the inputs of the resource's filters that are not loaded with the list. */
export function prefetchFilterInputs(fields: EngineField[]): void {
  for (const field of fields) {
    const group = groupOf(field);
    if (group !== 'text') void loadGroup(group).catch(() => undefined);
  }
}

type Group = 'text' | 'choice' | 'number' | 'date' | 'reference' | 'between' | 'password';
type GroupRenderer = (field: EngineField, ctx: InputContext) => ReactElement;

const KIND_GROUP: Record<FieldKind, Group> = {
  string: 'text',
  text: 'text',
  email: 'text',
  url: 'text',
  array: 'text',
  json: 'text',
  file: 'text',
  image: 'text',
  markdown: 'text',
  password: 'password',
  boolean: 'choice',
  enum: 'choice',
  dictionary: 'choice',
  number: 'number',
  money: 'number',
  date: 'date',
  datetime: 'date',
  belongsTo: 'reference',
  manyToMany: 'reference',
};

function groupOf(field: EngineField): Group {
  return searchConditions(field.meta)[0] === 'between' ? 'between' : KIND_GROUP[field.kind];
}

const byKind =
  (table: Partial<Record<FieldKind, InputRenderer>>): GroupRenderer =>
  (field, ctx) =>
    table[field.kind]!(field, ctx);

/** Each group is its own chunk (Vite splits at every `import()`). */
const LOADERS: Record<Exclude<Group, 'text'>, () => Promise<GroupRenderer>> = {
  choice: () => import('../fields/inputKinds/choice.tsx').then((m) => byKind(m.CHOICE_INPUTS)),
  number: () => import('../fields/inputKinds/number.tsx').then((m) => byKind(m.NUMBER_INPUTS)),
  date: () => import('../fields/inputKinds/date.tsx').then((m) => byKind(m.DATE_INPUTS)),
  reference: () => import('../fields/inputKinds/reference.tsx').then((m) => byKind(m.REFERENCE_INPUTS)),
  password: () => import('../fields/inputKinds/form.tsx').then((m) => byKind(m.FORM_INPUTS)),
  between: () =>
    import('./BetweenInput.tsx').then(({ BetweenInput }) => (field: EngineField, ctx: InputContext) => (
      <BetweenInput
        source={field.name}
        resource={ctx.resource}
        kind={field.kind}
        label={field.label}
        alwaysOn={ctx.alwaysOn}
      />
    )),
};

/** The class of the list's "Add filter" button (ListActions gives it). */
export const ADD_FILTER_CLASS = 'engine-add-filter';

const loading = new Map<Group, Promise<GroupRenderer>>();

function loadGroup(group: Exclude<Group, 'text'>): Promise<GroupRenderer> {
  let promise = loading.get(group);
  if (!promise) {
    promise = LOADERS[group]();
    // A failed load (network) is tried again the next time.
    promise.catch(() => loading.delete(group));
    loading.set(group, promise);
  }
  return promise;
}

interface LoadedProps {
  field: EngineField;
  ctx: InputContext;
  /** The props react-admin's filter form gives a filter element (resource, record, size, helperText, ...). */
  forwarded: Record<string, unknown>;
  focusOnLoad: RefObject<boolean>;
}

const LOADED = new Map<Exclude<Group, 'text'>, ComponentType<LoadedProps>>();

function loadedComponent(group: Exclude<Group, 'text'>): ComponentType<LoadedProps> {
  let component = LOADED.get(group);
  if (!component) {
    component = lazy(() =>
      loadGroup(group).then((render) => ({
        default: function LoadedFilterInput({ field, ctx, forwarded, focusOnLoad }: LoadedProps) {
          useEffect(() => {
            if (!focusOnLoad.current) return;
            focusOnLoad.current = false;
            document.querySelector<HTMLInputElement>(`input[name='${field.name}']`)?.focus();
          }, [field.name, focusOnLoad]);
          return cloneElement(render(field, ctx), forwarded);
        },
      })),
    );
    LOADED.set(group, component);
  }
  return component;
}

/** A filter whose input loads when it is shown. Its own props are what react-admin reads from a filter. */
function OnDemandFilter({
  group,
  field,
  ctx,
  source: _source,
  label: _label,
  alwaysOn: _alwaysOn,
  ...forwarded
}: {
  source: string;
  label?: string;
  alwaysOn?: boolean;
  group: Exclude<Group, 'text'>;
  field: EngineField;
  ctx: InputContext;
  [prop: string]: unknown;
}) {
  const focusOnLoad = useRef(false);
  useLayoutEffect(() => {
    // Shown while "Add filter" has the focus (its menu gives it back on closing): just added by the user.
    if (!ctx.alwaysOn && document.activeElement?.closest(`.${ADD_FILTER_CLASS}`)) focusOnLoad.current = true;
    // Only when it appears.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const Loaded = loadedComponent(group);
  return (
    <Suspense fallback={<FilterPlaceholder field={field} ctx={ctx} focusOnLoad={focusOnLoad} />}>
      <Loaded field={field} ctx={ctx} forwarded={forwarded} focusOnLoad={focusOnLoad} />
    </Suspense>
  );
}

/** The filter's place while its input loads: a read-only box of the same size, with the filter's label. */
function FilterPlaceholder({
  field,
  ctx,
  focusOnLoad,
}: {
  field: EngineField;
  ctx: InputContext;
  focusOnLoad: RefObject<boolean>;
}) {
  const translateLabel = useTranslateLabel();
  const input = useRef<HTMLInputElement>(null);
  const leaving = useRef(false);
  useLayoutEffect(
    () => () => {
      // Runs before the box leaves the page: hand its focus on to the loaded input.
      leaving.current = true;
      if (document.activeElement === input.current && input.current) focusOnLoad.current = true;
    },
    [focusOnLoad],
  );
  return (
    <TextField
      name={field.name}
      size="small"
      label={translateLabel({ label: field.label, source: field.name, resource: ctx.resource })}
      inputRef={input}
      onFocus={() => {
        focusOnLoad.current = true;
      }}
      onBlur={() => {
        if (!leaving.current) focusOnLoad.current = false;
      }}
      slotProps={{ htmlInput: { readOnly: true, 'aria-busy': true } }}
    />
  );
}
