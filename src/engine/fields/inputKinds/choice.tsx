import { BooleanInput, NullableBooleanInput } from 'react-admin';
import { DictionaryInput } from '../DictionaryInput.tsx';
import { EnumInput } from '../EnumInput.tsx';
import { common, type InputKindTable } from './common.ts';

/** Kinds picked from a list of options. */
export const CHOICE_INPUTS: InputKindTable<'boolean' | 'enum' | 'dictionary'> = {
  boolean: (f, ctx) =>
    ctx.isFilter ? <NullableBooleanInput {...common(f, ctx)} /> : <BooleanInput {...common(f, ctx)} />,
  enum: (f, ctx) => <EnumInput {...common(f, ctx)} resource={ctx.resource} spec={f} />,
  dictionary: (f, ctx) => <DictionaryInput {...common(f, ctx)} spec={f} />,
};
