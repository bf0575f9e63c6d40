import type * as z from 'zod';
import { issueKey } from '../../schemas/messages.ts';
import { AppError } from './errors.ts';

/**
 * Validates `input` with a zod schema; a 422 with per-field messages (in the caller's language, by the error
 * handler of core/http.ts) when it fails. Fastify-free, so operations and jobs use it too. Example:
 * `const data = validate(z.object({ name: z.string() }), body)`
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {}, { error: (iss) => issueKey(iss) });
  if (result.success) return result.data;
  throw new ZodAppError(result.error);
}

/** A failed `validate`: the zod issues, translated field by field when the error is answered. */
export class ZodAppError extends AppError {
  readonly zod: z.ZodError;
  constructor(error: z.ZodError) {
    super(422, 'errors.validation');
    this.zod = error;
  }
}
