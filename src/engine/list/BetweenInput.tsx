import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useInput, useTranslate } from 'react-admin';
import type { FieldKind } from '../fields/fieldKind.ts';
import { LocaleDateTextField } from '../fields/LocaleDateInput.tsx';

/** Native input types of the kinds a range filter is offered for. */
const INPUT_TYPES: Partial<Record<FieldKind, string>> = {
  number: 'number',
  money: 'number',
};

/**
 * A filter for a field searched with `between`: two boxes, from and to. Its value is `[from, to]` (either may
 * be blank); listQuery sends `between` with both, or `>=`/`<=` when the field declares them and one is blank.
 *
 * @example
 * <BetweenInput source="price" resource="gadgets" kind="number" alwaysOn />
 */
export function BetweenInput({
  source,
  resource,
  kind,
  label,
}: {
  source: string;
  resource: string;
  kind: FieldKind;
  /** Translation key of a declared label; else `resources.<resource>.fields.<source>`. */
  label?: string;
  /** Read by react-admin's filter form. */
  alwaysOn?: boolean;
}) {
  const translate = useTranslate();
  const { field } = useInput({ source });
  // Money is typed in major units and searched in minor units (the stored integers).
  const isMoney = kind === 'money';
  const shown = (v: string) => (isMoney && v !== '' ? String(Number(v) / 100) : v);
  const stored = (v: string) => (isMoney && v !== '' ? String(Math.round(Number(v) * 100)) : v);
  const [rawFrom = '', rawTo = ''] = Array.isArray(field.value) ? (field.value as string[]) : [];
  const from = shown(rawFrom);
  const to = shown(rawTo);
  const name = translate(label ?? `resources.${resource}.fields.${source}`, { _: source });
  const type = INPUT_TYPES[kind] ?? 'text';
  const change = (next: [string, string]) =>
    field.onChange(next[0] === '' && next[1] === '' ? null : [stored(next[0]), stored(next[1])]);
  if (kind === 'date' || kind === 'datetime') {
    // Typed in the interface language's format; half-typed text leaves the filter as it was.
    return (
      <Stack direction="row" spacing={1} sx={{ mb: '4px' }}>
        <LocaleDateTextField
          kind={kind}
          label={translate('engine.filter.from', { field: name })}
          size="small"
          value={from}
          onChange={(native) => native !== null && change([native, to])}
          onBlur={field.onBlur}
        />
        <LocaleDateTextField
          kind={kind}
          label={translate('engine.filter.to', { field: name })}
          size="small"
          value={to}
          onChange={(native) => native !== null && change([from, native])}
          onBlur={field.onBlur}
        />
      </Stack>
    );
  }
  return (
    <Stack direction="row" spacing={1} sx={{ mb: '4px' }}>
      <TextField
        label={translate('engine.filter.from', { field: name })}
        type={type}
        size="small"
        value={from}
        onChange={(event) => change([event.target.value, to])}
        onBlur={field.onBlur}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        label={translate('engine.filter.to', { field: name })}
        type={type}
        size="small"
        value={to}
        onChange={(event) => change([from, event.target.value])}
        onBlur={field.onBlur}
        slotProps={{ inputLabel: { shrink: true } }}
      />
    </Stack>
  );
}
