/** Field errors as the contract sends them: `{ "<field>": ["<message>", ...] }`. */
export type FieldErrors = Record<string, string[]>;

/**
 * A failed call: `status` is the envelope code (or the HTTP status when there is no envelope), `body` the
 * parsed response (react-admin reads `error.body.errors` to put server messages on form fields).
 */
export interface HttpError extends Error {
  name: 'HttpError';
  status: number;
  errors: FieldErrors;
  body: unknown;
}

export function createHttpError({
  status,
  message,
  errors = {},
  body = null,
}: {
  status: number;
  message: string;
  errors?: FieldErrors;
  body?: unknown;
}): HttpError {
  const error = new Error(message) as HttpError;
  error.name = 'HttpError';
  error.status = status;
  error.errors = errors;
  error.body = body;
  return error;
}

export function isHttpError(value: unknown): value is HttpError {
  return value instanceof Error && value.name === 'HttpError' && 'status' in value;
}
