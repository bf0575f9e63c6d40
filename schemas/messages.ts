import type * as z from 'zod';

/**
 * Zod issues carry message *keys* (from `locales/<lang>/validation.json`), never display text, so the server
 * and the client translate the same issue into the same sentence. A key may carry parameters as
 * `validation.too_short|{"min":3}`. Schemas set their own keys with `{ message: 'validation.phone' }`.
 */
export function issueKey(iss: z.core.$ZodRawIssue): string {
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined || iss.input === null || iss.input === '') return 'validation.required';
      if (iss.expected === 'number' || iss.expected === 'int') return 'validation.number';
      if (iss.expected === 'boolean') return 'validation.boolean';
      if (iss.expected === 'date') return 'validation.date';
      return 'validation.invalid';
    case 'too_small':
      if (iss.origin === 'string') {
        return Number(iss.minimum) <= 1
          ? 'validation.required'
          : withParams('validation.too_short', iss.minimum);
      }
      if (iss.origin === 'array' || iss.origin === 'set') {
        return Number(iss.minimum) <= 1
          ? 'validation.required'
          : withParams('validation.too_small', iss.minimum);
      }
      return withParams('validation.too_small', iss.minimum);
    case 'too_big':
      return iss.origin === 'string'
        ? withParams('validation.too_long', iss.maximum, 'max')
        : withParams('validation.too_big', iss.maximum, 'max');
    case 'invalid_format':
      // An id (a required reference) or another pattern left empty is empty, not an odd value.
      if (iss.format === 'regex' && iss.input === '') return 'validation.required';
      if (iss.format === 'email') return 'validation.email';
      if (iss.format === 'url') return 'validation.url';
      if (iss.format === 'datetime' || iss.format === 'date') return 'validation.date';
      return 'validation.invalid';
    case 'invalid_value':
      return 'validation.one_of';
    case 'invalid_union':
      // A required reference (an id as text or number) left empty is empty, not an odd value.
      if (iss.input === undefined || iss.input === null || iss.input === '') return 'validation.required';
      return 'validation.invalid';
    case 'unrecognized_keys':
      return 'validation.unknown_field';
    case 'not_multiple_of':
      return 'validation.integer';
    default:
      return 'validation.invalid';
  }
}

function withParams(key: string, value: unknown, name = 'min'): string {
  return `${key}|${JSON.stringify({ [name]: typeof value === 'bigint' ? Number(value) : value })}`;
}

/** Splits `key|{"min":3}` into its key and parameters. Plain text passes through as the key. */
export function decodeMessage(message: string): { key: string; params: Record<string, unknown> } {
  const bar = message.indexOf('|');
  if (bar < 0) return { key: message, params: {} };
  try {
    return {
      key: message.slice(0, bar),
      params: JSON.parse(message.slice(bar + 1)) as Record<string, unknown>,
    };
  } catch {
    return { key: message, params: {} };
  }
}

/** Field errors as the contract sends them: `{ "email": ["Invalid email"] }`, one path per key. */
export function fieldErrors(
  error: z.ZodError,
  t: (key: string, params: Record<string, unknown>) => string,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const { key, params } = decodeMessage(issue.message);
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) (out[[...issue.path, k].join('.')] ??= []).push(t(key, params));
      continue;
    }
    const field = issue.path.length ? issue.path.join('.') : '_';
    const list = (out[field] ??= []);
    const text = t(key, params);
    if (!list.includes(text)) list.push(text);
  }
  return out;
}
