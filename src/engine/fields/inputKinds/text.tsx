import { TextInput } from 'react-admin';
import { common, type InputKindTable } from './common.ts';

/** Kinds typed into a plain text box: what a list's first filters usually are, so loaded with the list. */
export const TEXT_INPUTS: InputKindTable<'string' | 'text' | 'email' | 'url' | 'array' | 'json'> = {
  string: (f, ctx) => <TextInput {...common(f, ctx)} />,
  text: (f, ctx) => <TextInput {...common(f, ctx)} multiline={!ctx.isFilter} minRows={3} />,
  email: (f, ctx) => <TextInput {...common(f, ctx)} type="email" />,
  url: (f, ctx) => <TextInput {...common(f, ctx)} type="url" />,
  array: (f, ctx) => (
    <TextInput
      {...common(f, ctx)}
      format={(value: unknown) => (Array.isArray(value) ? value.join(', ') : '')}
      parse={(text: string) =>
        text
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
      }
    />
  ),
  json: (f, ctx) => (
    <TextInput
      {...common(f, ctx)}
      multiline
      format={(value: unknown) => (value === undefined ? '' : JSON.stringify(value, null, 2))}
      parse={(text: string) => parseJson(text)}
    />
  ),
};

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
