import { useId } from 'react';
import type { ButtonHTMLAttributes, ChangeEventHandler, HTMLAttributes, ReactNode, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from './icons.tsx';
import './public-ui.css';

/**
 * The controls of the signed-out pages (sign-in, register, reset, WeChat return, error pages): plain React and
 * one CSS file (public-ui.css), so the sign-in page downloads neither MUI nor emotion. They render the roles,
 * names and states MUI's did (labelled inputs with aria-invalid and aria-describedby, a progressbar named
 * "Loading", role=alert messages), and they look like the admin's MUI theme in light and dark mode.
 */

export interface TextFieldProps {
  name?: string;
  label: ReactNode;
  value: string;
  onChange: ChangeEventHandler<HTMLInputElement>;
  type?: string;
  autoComplete?: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  required?: boolean;
  /** Marks the field invalid (aria-invalid) and shows `helperText` as its error. */
  error?: boolean;
  /** The text under the field, read after the label (aria-describedby); `' '` keeps its room empty. */
  helperText?: ReactNode;
  maxLength?: number;
  id?: string;
}

/**
 * An outlined text field: a `<label>` (with MUI's hidden " *" for required fields) that moves into the border
 * on focus or once there is a value, the input, and the helper or error text under it.
 *
 * @example
 * <TextField {...form.fieldProps('username')} label={t('auth.fields.account')} value={v} onChange={set} required />
 */
export function TextField({
  label,
  error = false,
  helperText,
  required = false,
  id: idOverride,
  ...input
}: TextFieldProps) {
  const generatedId = useId();
  const id = idOverride ?? generatedId;
  const helperId = helperText ? `${id}-helper-text` : undefined;
  return (
    <div className="pu-field" data-filled={input.value !== ''} data-error={error}>
      <label className="pu-field-label" htmlFor={id} id={`${id}-label`}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      <input
        {...input}
        id={id}
        className="pu-field-input"
        required={required}
        aria-invalid={error || undefined}
        aria-describedby={helperId}
      />
      {helperText ? (
        <p className="pu-helper" id={helperId}>
          {helperText}
        </p>
      ) : null}
    </div>
  );
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'contained' | 'outlined' | 'text';
  color?: 'primary' | 'success' | 'inherit';
  size?: 'medium' | 'large';
  /** Disables the button and shows a small spinner before its label while an action runs. */
  busy?: boolean;
  startIcon?: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

/** The class names of a button, for a link that looks like one. */
export function buttonClass({
  variant = 'text',
  color = 'primary',
  size = 'medium',
}: Pick<ButtonProps, 'variant' | 'color' | 'size'>): string {
  return `pu-btn pu-btn-${variant}${color === 'primary' ? '' : ` pu-btn-${color}`}${size === 'large' ? ' pu-btn-large' : ''}`;
}

/**
 * A button: contained for the page's action, outlined for a second one, text in the header.
 *
 * @example
 * <Button type="submit" variant="contained" size="large" busy={form.isSubmitting}>{t('auth.login.submit')}</Button>
 */
export function Button({
  variant = 'text',
  color = 'primary',
  size = 'medium',
  busy = false,
  startIcon,
  disabled,
  className,
  type = 'button',
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={`${buttonClass({ variant, color, size })}${className ? ` ${className}` : ''}`}
      disabled={disabled || busy}
    >
      {busy ? <Spinner size="small" /> : startIcon}
      {children}
    </button>
  );
}

/**
 * A checkbox with its label; the whole label is the click target. As with MUI's, the focus ring is drawn on
 * the box around the native input.
 */
export function Checkbox({
  label,
  checked,
  onChange,
  name,
}: {
  label: ReactNode;
  checked: boolean;
  onChange: ChangeEventHandler<HTMLInputElement>;
  name?: string;
}) {
  return (
    <label className="pu-choice">
      <span className="pu-choice-box">
        <input type="checkbox" name={name} checked={checked} onChange={onChange} />
      </span>
      <span>{label}</span>
    </label>
  );
}

/**
 * Radio buttons in a row, named as a group (role=radiogroup); arrow keys move between them (the browser's own).
 *
 * @example
 * <RadioGroup label={t('auth.fields.channel')} name="channel" value={v} onChange={setV}
 *   options={[{ value: 'email', label: t('auth.channels.email') }]} />
 */
export function RadioGroup<V extends string>({
  label,
  name,
  value,
  options,
  onChange,
}: {
  label: string;
  name: string;
  value: V;
  options: { value: V; label: ReactNode }[];
  onChange: (value: V) => void;
}) {
  return (
    <div role="radiogroup" aria-label={label} className="pu-radio-group">
      {options.map((option) => (
        <label key={option.value} className="pu-choice">
          <span className="pu-choice-box">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={option.value === value}
              onChange={() => onChange(option.value)}
            />
          </span>
          <span>{option.label}</span>
        </label>
      ))}
    </div>
  );
}

/**
 * A message with its icon: `error` or `success`. `role` is the caller's (alert, status, or none inside a
 * live region).
 */
export function Alert({
  severity,
  role,
  children,
}: {
  severity: 'error' | 'success';
  role?: 'alert' | 'status';
  children: ReactNode;
}) {
  return (
    <div className={`pu-alert pu-alert-${severity}`} role={role}>
      <Icon name={severity} />
      <div className="pu-alert-body">{children}</div>
    </div>
  );
}

/** A spinning ring announced as "Loading" (role=progressbar, as MUI's CircularProgress). */
export function Spinner({ size = 'medium', label }: { size?: 'medium' | 'small'; label?: string }) {
  const { t } = useTranslation();
  return (
    <span
      role="progressbar"
      aria-label={label ?? t('app.loading')}
      className={size === 'small' ? 'pu-spinner pu-spinner-small' : 'pu-spinner'}
    />
  );
}

/** A centred spinner in a polite live region: a page or part of one that is loading. */
export function PublicLoading({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={fullScreen ? 'pu-page pu-spinner-box' : 'pu-spinner-box'}
      data-full={fullScreen}
    >
      <Spinner />
    </div>
  );
}
