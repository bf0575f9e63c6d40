import { NumberInput } from 'react-admin';
import { FlagInput } from '../FlagInput.tsx';
import { isFlagField } from '../flagAndDate.tsx';
import { MoneyInput } from '../MoneyInput.tsx';
import { common, type InputKindTable } from './common.ts';

/** Numbers: plain, 0/1 flags (a switch, or yes/no/any in filters), money in major units. */
export const NUMBER_INPUTS: InputKindTable<'number' | 'money'> = {
  number: (f, ctx) =>
    isFlagField(f) ? (
      <FlagInput {...common(f, ctx)} isFilter={ctx.isFilter} />
    ) : (
      <NumberInput {...common(f, ctx)} />
    ),
  money: (f, ctx) => <MoneyInput {...common(f, ctx)} />,
};
