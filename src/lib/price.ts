export interface PriceOptions {
  /** ISO 4217 code; the site default is CNY. */
  currency?: string;
  /** Fraction digits shown; the site default is 0. */
  decimals?: number;
  /** BCP 47 locale of the interface. */
  locale?: string;
}

/**
 * Formats an amount held in minor units (fen, cents) as currency: divided by 100, CNY and no decimals by
 * default, in the interface locale's style.
 *
 * @example
 * formatPrice(123456, { locale: 'zh-CN' }); // '¥1,235'
 */
export function formatPrice(minor: number | string | null | undefined, options: PriceOptions = {}): string {
  const { currency = 'CNY', decimals = 0, locale = 'zh-CN' } = options;
  const amount = Number(minor ?? 0);
  const value = Number.isFinite(amount) ? amount / 100 : 0;
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  }).format(value);
}
