import { BooleanField, DateField, useLocaleState, type DateFieldProps } from 'react-admin';
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

/** Numeric day, month and year, in the order and with the separators of the current language. */
const DATE_OPTIONS: Intl.DateTimeFormatOptions = { year: 'numeric', month: '2-digit', day: '2-digit' };
const TIME_OPTIONS: Intl.DateTimeFormatOptions = {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
};

/**
 * A date (or date and time) in the format of the app's language, not the browser's: zh-CN `2025/07/04`,
 * en `07/04/2025`; with `showTime`, `2025/07/04 09:05:07` and `07/04/2025, 09:05:07`.
 */
export function LocaleDateField(props: DateFieldProps) {
  const [locale] = useLocaleState();
  // DateField formats a date with time with `options` alone: the time's parts must be in it.
  return (
    <DateField
      {...props}
      locales={locale}
      options={props.showTime ? { ...DATE_OPTIONS, ...TIME_OPTIONS } : DATE_OPTIONS}
    />
  );
}
