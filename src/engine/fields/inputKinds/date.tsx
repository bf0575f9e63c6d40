import { LocaleDateInput } from '../LocaleDateInput.tsx';
import { common, type InputKindTable } from './common.ts';

/** Dates in the interface language's format (zh-CN 2025/07/04), not the browser's as <input type="date"> would. */
export const DATE_INPUTS: InputKindTable<'date' | 'datetime'> = {
  date: (f, ctx) => <LocaleDateInput {...common(f, ctx)} kind="date" />,
  datetime: (f, ctx) => <LocaleDateInput {...common(f, ctx)} kind="datetime" />,
};
