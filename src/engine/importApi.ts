import { httpClient } from '../providers/httpClient.ts';
import type { Resource } from '../../resources/define.ts';

export interface DryRunResult {
  total: number;
  valid: number;
  errors: { row: number; errors: Record<string, string[]> }[];
}

export interface ImportResult {
  created: number;
  updated: number;
}

/** Checks every row of a CSV file with the resource's schema; writes nothing. */
export function dryRunImport(resource: Resource, file: File): Promise<DryRunResult> {
  return httpClient<DryRunResult>(`${resource.endpoint}/import`, {
    method: 'POST',
    query: { dry_run: 1 },
    body: formWith(file),
  });
}

/** Imports the file in one transaction (all rows or none). */
export function runImport(resource: Resource, file: File): Promise<ImportResult> {
  return httpClient<ImportResult>(`${resource.endpoint}/import`, { method: 'POST', body: formWith(file) });
}

function formWith(file: File): FormData {
  const form = new FormData();
  form.append('file', file);
  return form;
}
