import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../../../schemas/bytes.ts';

/**
 * A task run's result as labelled figures (`system.tasks.result.<key>`: "Tokens removed 3"), never raw
 * JSON: numbers in the interface language's format, byte counts in kB/MB, nested results (a part of the
 * task) with their own labels. A key without a label shows as it is.
 *
 * @example
 * <TaskResult result={{ removed: 12, bytes: 4096 }} />
 */
export function TaskResult({ result }: { result: unknown }) {
  const { t, i18n } = useTranslation();
  const pairs = figures(result, '');
  if (pairs.length === 0) return null;
  // A nested figure names its part first: "Orphaned files · Removed".
  const label = (key: string) =>
    key
      .split('.')
      .map((part) => t(`system.tasks.result.${part}`, { defaultValue: part }))
      .join(' · ');
  const value = (key: string, raw: unknown) => {
    if (typeof raw === 'number') {
      return /(^|\.)bytes$/.test(key) ? formatBytes(raw) : raw.toLocaleString(i18n.language);
    }
    if (typeof raw === 'boolean') return t(raw ? 'system.tasks.result.yes' : 'system.tasks.result.no');
    return raw === null || raw === undefined ? '—' : String(raw);
  };
  return (
    <Box
      component="dl"
      sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1.5, rowGap: 0.25, m: 0 }}
    >
      {pairs.map(([key, raw]) => (
        <Box key={key} sx={{ display: 'contents' }}>
          <Box component="dt" sx={{ color: 'text.secondary' }}>
            {label(key)}
          </Box>
          <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {value(key, raw)}
          </Box>
        </Box>
      ))}
    </Box>
  );
}

/** The result's leaves as `[path, value]`; a bare value is one figure. */
function figures(result: unknown, prefix: string): [string, unknown][] {
  if (result === null || result === undefined) return [];
  if (typeof result !== 'object' || Array.isArray(result)) return [[prefix || 'value', result]];
  return Object.entries(result as Record<string, unknown>).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? figures(value, prefix ? `${prefix}.${key}` : key)
      : [[prefix ? `${prefix}.${key}` : key, value] as [string, unknown]],
  );
}
