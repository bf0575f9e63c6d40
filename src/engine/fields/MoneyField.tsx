import { useLocaleState, useRecordContext } from 'react-admin';
import { formatPrice } from '../../lib/price.ts';
import { useSiteConfig } from '../../providers/useSiteConfig.ts';

/** Minor units (2499) -> major units (24.99), exactly enough for display and inputs. */
export const toMajor = (minor: unknown): number | '' =>
  minor === null || minor === undefined || minor === '' ? '' : Number(minor) / 100;

/** Major units typed in a form (`24.99`) -> minor units (2499); blank -> null. */
export const toMinor = (major: unknown): number | null => {
  if (major === null || major === undefined || major === '') return null;
  const n = typeof major === 'number' ? major : Number(String(major).replace(/,/g, ''));
  return Number.isFinite(n) ? Math.round(n * 100) : null;
};

/**
 * A `money()` value in the site's currency (settings `currency`, `decimals` fraction digits), in the
 * interface language's style: 2499 -> `¥25` (CNY, 0 decimals) or `$24.99`.
 */
export function MoneyField({ source }: { source: string; label?: string; sortable?: boolean }) {
  const record = useRecordContext<Record<string, unknown>>();
  const { currency, decimals } = useSiteConfig();
  const [locale] = useLocaleState();
  const value = record?.[source];
  if (value === null || value === undefined || value === '') return null;
  return <span>{formatPrice(value as number, { currency, decimals, locale })}</span>;
}
