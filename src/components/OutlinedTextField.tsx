import FormControl from '@mui/material/FormControl';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useId } from 'react';
import type { ChangeEventHandler, HTMLAttributes, InputHTMLAttributes, ReactNode } from 'react';

export interface OutlinedTextFieldProps {
  name?: string;
  label?: ReactNode;
  value?: string;
  onChange?: ChangeEventHandler<HTMLInputElement>;
  type?: string;
  autoComplete?: string;
  inputMode?: HTMLAttributes<HTMLDivElement>['inputMode'];
  required?: boolean;
  fullWidth?: boolean;
  error?: boolean;
  helperText?: ReactNode;
  id?: string;
  slotProps?: { htmlInput?: InputHTMLAttributes<HTMLInputElement> };
}

/**
 * MUI's outlined TextField for the public forms, built from the same parts (FormControl, InputLabel,
 * OutlinedInput, FormHelperText) and rendering the same markup, without TextField's `select` mode: that
 * mode imports Select, Menu, Popover and Modal, which the sign-in pages never use.
 *
 * @example
 * <OutlinedTextField label={t('auth.fields.password')} type="password" value={v} onChange={set} required />
 */
export function OutlinedTextField({
  name,
  label,
  value,
  onChange,
  type,
  autoComplete,
  required = false,
  fullWidth = false,
  error = false,
  helperText,
  id: idOverride,
  slotProps,
  ...rootProps
}: OutlinedTextFieldProps) {
  const generatedId = useId();
  const id = idOverride ?? generatedId;
  const helperTextId = helperText ? `${id}-helper-text` : undefined;
  const hasLabel = label != null && label !== '';
  return (
    <FormControl
      {...rootProps}
      className="MuiTextField-root"
      variant="outlined"
      required={required}
      fullWidth={fullWidth}
      error={error}
    >
      {hasLabel ? (
        <InputLabel htmlFor={id} id={`${id}-label`}>
          {label}
        </InputLabel>
      ) : null}
      <OutlinedInput
        aria-describedby={helperTextId}
        autoComplete={autoComplete}
        fullWidth={fullWidth}
        name={name}
        type={type}
        value={value}
        id={id}
        onChange={onChange}
        inputProps={slotProps?.htmlInput}
        label={label}
      />
      {helperText ? <FormHelperText id={helperTextId}>{helperText}</FormHelperText> : null}
    </FormControl>
  );
}
