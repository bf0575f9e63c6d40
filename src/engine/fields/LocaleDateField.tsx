import { Typography } from '@mui/material';
import { useLocaleState, useRecordContext, useTranslate, type DateFieldProps } from 'react-admin';
import { formatDateTime, formatNative } from '../../lib/localeDate.ts';

/**
 * A date (or date and time) in the format of the app's language (schemas/timeFormat.ts, the format the CSV
 * export writes), not the browser's: zh-CN `2025/07/04`, en `07/04/2025`; with `showTime`,
 * `2025/07/04 09:05:07` and `07/04/2025, 09:05:07` (the browser's time zone).
 */
export function LocaleDateField({ showTime = false, emptyText, ...props }: DateFieldProps) {
  const [locale] = useLocaleState();
  const translate = useTranslate();
  const record = useRecordContext(props);
  const value: unknown = record && props.source ? valueAt(record, props.source) : undefined;
  const empty = value === null || value === undefined || value === '';
  const day = typeof value === 'string' ? /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0] : undefined;
  const text = empty
    ? emptyText
      ? translate(emptyText, { _: emptyText })
      : ''
    : showTime
      ? formatDateTime(value, locale)
      : day
        ? formatNative(day, 'date', locale)
        : formatDateTime(value, locale, { time: false });
  return (
    <Typography component="span" variant="body2" className={props.className} sx={props.sx}>
      {text}
    </Typography>
  );
}

/** A dotted source's value (`author.created_at`). */
function valueAt(record: object, source: string): unknown {
  let value: unknown = record;
  for (const key of source.split('.')) value = (value as Record<string, unknown> | null | undefined)?.[key];
  return value;
}
