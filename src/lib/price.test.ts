import { describe, expect, it } from 'vitest';
import { formatPrice } from './price.ts';

// Intl may use narrow no-break spaces; compare with plain spaces.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('formatPrice', () => {
  it('divides minor units by 100 and shows CNY without decimals by default', () => {
    expect(formatPrice(123456, { locale: 'zh-CN' })).toBe('¥1,235');
    expect(formatPrice(1000)).toBe('¥10');
  });

  it('follows the interface locale', () => {
    expect(plain(formatPrice(123456, { locale: 'en' }))).toBe('CN¥1,235');
    expect(plain(formatPrice(123456, { locale: 'de', currency: 'EUR' }))).toBe('1.235 €');
  });

  it('honours the currency and decimals settings', () => {
    expect(formatPrice(1999, { locale: 'en', currency: 'USD', decimals: 2 })).toBe('$19.99');
  });

  it('treats missing or invalid amounts as zero', () => {
    expect(formatPrice(null)).toBe('¥0');
    expect(formatPrice('abc')).toBe('¥0');
    expect(formatPrice('2500')).toBe('¥25');
  });
});
