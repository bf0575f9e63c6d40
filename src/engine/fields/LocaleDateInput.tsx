import EventIcon from '@mui/icons-material/Event';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import { useEffect, useRef, useState } from 'react';
import {
  FieldTitle,
  InputHelperText,
  useInput,
  useLocaleState,
  useTranslate,
  type InputProps,
} from 'react-admin';
import {
  exampleOf,
  formatNative,
  instantToNative,
  nativeToInstant,
  parseLocaleText,
  type DateKind,
} from '../../lib/localeDate.ts';

export interface LocaleDateTextFieldProps extends Omit<
  TextFieldProps,
  'value' | 'onChange' | 'type' | 'error' | 'defaultValue'
> {
  kind: DateKind;
  /** `YYYY-MM-DD` (date) or local `YYYY-MM-DDTHH:mm` (datetime); '' when blank. */
  value: string;
  /** Called with a native value ('' when cleared); `null` while the text is no real date. */
  onChange: (native: string | null, text: string) => void;
  error?: boolean;
}

/**
 * A date (or date and time) box that reads and writes the interface language's format (zh-CN `2025/07/04`,
 * en `07/04/2025`) whatever the browser's language, unlike `<input type="date">`. The calendar button opens
 * the browser's picker on a hidden native input, whose choice is written back in the language's format.
 */
export function LocaleDateTextField({
  kind,
  value,
  onChange,
  error,
  helperText,
  slotProps,
  ...rest
}: LocaleDateTextFieldProps) {
  const [locale] = useLocaleState();
  const translate = useTranslate();
  const [text, setText] = useState(() => formatNative(value, kind, locale));
  const [invalid, setInvalidState] = useState(false);
  const invalidRef = useRef(false);
  const setInvalid = (next: boolean) => {
    invalidRef.current = next;
    setInvalidState(next);
  };
  const shown = useRef({ value, locale });
  const picker = useRef<HTMLInputElement>(null);
  // A value set from outside (record loaded, form reset, filter cleared) or a language switch rewrites the
  // box; the blank value that stands for the user's own half-typed text does not.
  useEffect(() => {
    const previous = shown.current;
    if (previous.value === value && previous.locale === locale) return;
    shown.current = { value, locale };
    if (previous.locale === locale && invalidRef.current && value === '') return;
    setText(formatNative(value, kind, locale));
    invalidRef.current = false;
    setInvalidState(false);
  }, [value, locale, kind]);
  const example = exampleOf(kind, locale);
  const change = (next: string) => {
    setText(next);
    const native = parseLocaleText(next, kind, locale);
    setInvalid(native === null);
    if (native !== null) shown.current = { value: native, locale };
    onChange(native, next);
  };
  const pick = () => {
    const input = picker.current;
    if (!input) return;
    input.value = value;
    try {
      input.showPicker();
    } catch {
      input.focus();
    }
  };
  return (
    <>
      <TextField
        {...rest}
        value={text}
        onChange={(event) => change(event.target.value)}
        error={error || invalid}
        helperText={
          invalid && !error ? translate('engine.date.invalid', { example }) : (helperText ?? undefined)
        }
        // The format's letters, not a sample date: a greyed date in an empty box looks like a value.
        placeholder={translate(`engine.date_format.${kind}`)}
        slotProps={{
          ...slotProps,
          inputLabel: { shrink: true, ...(slotProps?.inputLabel as object) },
          htmlInput: { inputMode: 'numeric', lang: locale, ...(slotProps?.htmlInput as object) },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <IconButton
                  size="small"
                  edge="end"
                  aria-label={translate('engine.date.pick')}
                  onClick={pick}
                  disabled={rest.disabled}
                >
                  <EventIcon fontSize="small" />
                </IconButton>
              </InputAdornment>
            ),
            ...(slotProps?.input as object),
          },
        }}
      />
      <input
        ref={picker}
        type={kind === 'date' ? 'date' : 'datetime-local'}
        tabIndex={-1}
        aria-hidden
        onChange={(event) => {
          const native = event.target.value;
          setText(formatNative(native, kind, locale));
          setInvalid(false);
          shown.current = { value: native, locale };
          onChange(native, formatNative(native, kind, locale));
        }}
        style={{
          position: 'absolute',
          width: 1,
          height: 1,
          opacity: 0,
          border: 0,
          padding: 0,
          pointerEvents: 'none',
        }}
      />
    </>
  );
}

/**
 * The engine's input for `date` (`YYYY-MM-DD` on the wire) and `datetime` (an ISO instant on the wire)
 * fields: a LocaleDateTextField bound to the form. Text that is no real date is handed to the form as typed,
 * so the schema refuses it with its own message.
 */
export function LocaleDateInput({
  kind,
  className,
  fullWidth,
  ...props
}: InputProps & { kind: DateKind; className?: string; fullWidth?: boolean }) {
  // Only a stored value is shown; typed text the schema will refuse stands for blank here.
  const toNative = (v: unknown) =>
    typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)
      ? kind === 'date'
        ? v.slice(0, 10)
        : instantToNative(v)
      : v instanceof Date
        ? instantToNative(v)
        : '';
  const { field, fieldState, isRequired } = useInput({
    ...props,
    format: (v: unknown) => v,
    parse: (v: unknown) => v,
  });
  const errorMessage = fieldState.error?.message;
  return (
    <LocaleDateTextField
      kind={kind}
      name={field.name}
      inputRef={field.ref}
      value={toNative(field.value)}
      onBlur={field.onBlur}
      onChange={(native, text) =>
        field.onChange(
          native === null ? text : native === '' ? null : kind === 'date' ? native : nativeToInstant(native),
        )
      }
      label={
        props.label === false ? undefined : (
          <FieldTitle
            label={props.label}
            source={props.source}
            resource={props.resource}
            isRequired={isRequired}
          />
        )
      }
      error={fieldState.invalid}
      helperText={errorMessage ? <InputHelperText error={errorMessage} /> : undefined}
      disabled={props.disabled}
      className={className}
      size="small"
      margin="dense"
      fullWidth={fullWidth}
    />
  );
}
