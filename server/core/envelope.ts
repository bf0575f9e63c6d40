/** Success envelope of the contract: `{ code: 200, data }` (also for HTTP 201 creates). */
export function ok<T>(data: T): { code: 200; data: T } {
  return { code: 200, data };
}

export interface ErrorEnvelope {
  code: number;
  message: string;
  /** null, except the current record in a stale version's 409 (contract: "Nothing lost"). */
  data: unknown;
  errors?: Record<string, string[] | number>;
}
