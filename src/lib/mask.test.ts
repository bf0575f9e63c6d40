import { describe, expect, it } from 'vitest';
import { maskEmail, maskIdCard, maskPhone } from './mask.ts';

describe('maskPhone', () => {
  it('keeps the first 3 and last 4 characters', () => {
    expect(maskPhone('13812345678')).toBe('138****5678');
  });
  it('leaves short or empty values alone', () => {
    expect(maskPhone('1234567')).toBe('1234567');
    expect(maskPhone('')).toBe('');
    expect(maskPhone(null)).toBe('');
  });
});

describe('maskIdCard', () => {
  it('keeps the first 6 characters and those from index 14', () => {
    expect(maskIdCard('11010119900307123X')).toBe('110101********123X');
  });
  it('hides the middle of a 15-digit card', () => {
    expect(maskIdCard('110101900307123')).toBe('110101********3');
  });
  it('leaves short or empty values alone', () => {
    expect(maskIdCard('110101')).toBe('110101');
    expect(maskIdCard(undefined)).toBe('');
  });
});

describe('maskEmail', () => {
  it('keeps the first and last characters of a local part longer than 2', () => {
    expect(maskEmail('zhangsan@example.com')).toBe('z******n@example.com');
    expect(maskEmail('abc@example.com')).toBe('a*c@example.com');
  });
  it('leaves local parts of 2 characters or fewer alone', () => {
    expect(maskEmail('ab@example.com')).toBe('ab@example.com');
    expect(maskEmail('a@example.com')).toBe('a@example.com');
  });
  it('leaves values without @ alone', () => {
    expect(maskEmail('not-an-email')).toBe('not-an-email');
    expect(maskEmail(null)).toBe('');
  });
});
