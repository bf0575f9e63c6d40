import Stack from '@mui/material/Stack';
import { useInput, useTranslate } from 'react-admin';
import { LocaleDateTextField } from '../../../engine/fields/LocaleDateInput.tsx';

/** Ends used when only one side of the range is given (the query's `between` takes two values). */
const EARLIEST = '1970-01-01T00:00:00.000Z';
const LATEST = '9999-12-31T23:59:59.999Z';

/**
 * A list filter for a date range on `source` (`created_at@between`): two dates typed in the interface language's format (zh-CN 2025/07/04); the value is
 * `[from, to]` as ISO instants covering whole days in the browser's time zone, or undefined when both are
 * empty.
 */
export function DateRangeInput({ source, label }: { source: string; label?: string; alwaysOn?: boolean }) {
  const translate = useTranslate();
  const { field } = useInput({ source });
  const [from, to] = Array.isArray(field.value) ? (field.value as string[]) : [];
  const day = (iso: string | undefined, fallback: string) =>
    iso && iso !== fallback ? toLocalDay(new Date(iso)) : '';
  const set = (nextFrom: string, nextTo: string) => {
    if (!nextFrom && !nextTo) return field.onChange(undefined);
    field.onChange([
      nextFrom ? new Date(`${nextFrom}T00:00:00`).toISOString() : EARLIEST,
      nextTo ? new Date(`${nextTo}T23:59:59.999`).toISOString() : LATEST,
    ]);
  };
  const fromDay = day(from, EARLIEST);
  const toDay = day(to, LATEST);
  return (
    // One above the other on a phone: side by side they are wider than its screen.
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      sx={{ mb: 0.5 }}
      aria-label={label ? translate(label) : undefined}
    >
      <LocaleDateTextField
        kind="date"
        size="small"
        label={translate('settings.activities.from')}
        value={fromDay}
        onChange={(native) => native !== null && set(native, toDay)}
      />
      <LocaleDateTextField
        kind="date"
        size="small"
        label={translate('settings.activities.to')}
        value={toDay}
        onChange={(native) => native !== null && set(fromDay, native)}
      />
    </Stack>
  );
}

function toLocalDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
