/**
 * The one error type operations throw. The error handler turns it into the contract's envelope with the
 * message translated into the request's language. Example:
 * `throw new AppError(404, 'errors.not_found')`, `throw AppError.validation({ email: ['validation.email'] })`.
 */
export class AppError extends Error {
  readonly status: number;
  readonly key: string;
  readonly params: Record<string, unknown>;
  /** Field -> message keys (translated when the response is written). */
  readonly fields: Record<string, string[]> | undefined;
  /**
   * Field -> values written as they are (not message keys), e.g. the ids a bulk call did not find, or the
   * count of a record's holders (`holders`, a number).
   */
  readonly literal: Record<string, string[] | number> | undefined;
  readonly headers: Record<string, string> | undefined;
  /** The envelope's `data` (null unless given): a stale version's 409 carries the current record. */
  readonly data: unknown;

  constructor(
    status: number,
    key: string,
    opts: {
      params?: Record<string, unknown>;
      fields?: Record<string, string[]>;
      literal?: Record<string, string[] | number>;
      headers?: Record<string, string>;
      data?: unknown;
    } = {},
  ) {
    super(key);
    this.name = 'AppError';
    this.status = status;
    this.key = key;
    this.params = opts.params ?? {};
    this.fields = opts.fields;
    this.literal = opts.literal;
    this.headers = opts.headers;
    this.data = opts.data ?? null;
  }

  static validation(fields: Record<string, string[]>): AppError {
    return new AppError(422, 'errors.validation', { fields });
  }
  static unauthenticated(): AppError {
    return new AppError(401, 'errors.unauthenticated');
  }
  static forbidden(): AppError {
    return new AppError(403, 'errors.forbidden');
  }
  static notFound(): AppError {
    return new AppError(404, 'errors.not_found');
  }
  /** A unique value is taken; `field` is named in the message and in `errors`. */
  static conflict(field: string, label = field): AppError {
    return new AppError(409, 'errors.conflict', {
      params: { field: label },
      fields: { [field]: ['validation.unique'] },
    });
  }
}
