/**
 * Formula escaping of CSV cells, shared by export (csv/format.ts, csv/references.ts) and import
 * (csv/parse-row.ts). The SQL form of the same test is in csv/format.ts.
 */

/** A cell that a spreadsheet would run as a formula gets a leading quote (OWASP CSV injection). */
export function escapeFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** Reads back what `escapeFormula` wrote, so an exported file imports as the values it came from. */
export function unescapeFormula(text: string): string {
  return /^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}
