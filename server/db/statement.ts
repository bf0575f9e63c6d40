/**
 * What a failed statement was, for the log line of an unexpected error: its verb and the first table it
 * names (`DELETE scheduled_tasks`), never the SQL text or bound values. Attached to the error as `statement`.
 */
export function tagStatement(error: unknown, sql: string): unknown {
  if (error && typeof error === 'object' && !('statement' in error)) {
    Object.defineProperty(error, 'statement', { value: summarize(sql), enumerable: false });
  }
  return error;
}

export function summarize(sql: string): string {
  const text = sql.replace(/\s+/g, ' ').trim();
  const verb = /^\w+/.exec(text)?.[0]?.toUpperCase() ?? '?';
  const table = /\b(?:FROM|INTO|UPDATE|TABLE|JOIN)\s+("?[\w.]+"?)/i.exec(text)?.[1]?.replace(/"/g, '');
  return table ? `${verb} ${table}` : verb;
}
