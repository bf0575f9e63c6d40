import { NumberInput, type NumberInputProps } from 'react-admin';
import { useSiteConfig } from '../../providers/useSiteConfig.ts';
import { toMajor, toMinor } from './MoneyField.tsx';

/** A `money()` input: typed in major units (two decimals), held and sent in minor units. */
export function MoneyInput(props: NumberInputProps) {
  const { currency = 'CNY' } = useSiteConfig();
  return (
    <NumberInput
      {...props}
      step={0.01}
      format={(value: unknown) => toMajor(value)}
      parse={(text: string) => toMinor(text)}
      helperText={props.helperText ?? currency}
    />
  );
}
