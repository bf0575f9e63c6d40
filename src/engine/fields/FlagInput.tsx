import { BooleanInput, NullableBooleanInput, type BooleanInputProps } from 'react-admin';

const toBoolean = (value: unknown) => (value === null || value === undefined ? value : Number(value) === 1);
const toFlag = (value: unknown) =>
  value === null || value === undefined || value === '' ? value : value ? 1 : 0;

/**
 * The switch of a 0/1 field (a yes/no/any select in filters). Kept apart from flagAndDate.tsx, whose cells
 * every list uses, so a list loads the switch only with a form or a flag filter.
 */
export function FlagInput({ isFilter, ...props }: BooleanInputProps & { isFilter?: boolean }) {
  return isFilter ? (
    <NullableBooleanInput
      source={props.source}
      label={props.label}
      resource={props.resource}
      alwaysOn={props.alwaysOn as boolean | undefined}
      format={toBoolean}
      parse={toFlag}
    />
  ) : (
    // BooleanInput's own default is `false`, which the integer schema refuses: a flag defaults to 0.
    <BooleanInput defaultValue={0} {...props} format={(v: unknown) => Number(v) === 1} parse={toFlag} />
  );
}
