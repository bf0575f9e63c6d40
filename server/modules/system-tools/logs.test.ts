import { describe, expect, it } from 'vitest';
import { LOG_COUNT_CAP, pageOfLines } from './logs.ts';

/** `n` pino lines, newest first, as the file readers hand them over. */
async function* lines(n: number): AsyncGenerator<[string, string]> {
  for (let i = n; i > 0; i -= 1) {
    const time = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    yield [JSON.stringify({ level: i % 10 === 0 ? 'warn' : 'info', time, msg: `line ${i}` }), 'app.log'];
  }
}

describe('pageOfLines', () => {
  it('counts every line of a short file', async () => {
    const page = await pageOfLines(lines(120), { page: 2, size: 50 });
    expect(page.data.map((e) => e.msg)).toEqual(Array.from({ length: 50 }, (_, i) => `line ${70 - i}`));
    expect(page.meta.pagination).toEqual({
      total: 120,
      count: 50,
      per_page: 50,
      current_page: 2,
      total_pages: 3,
    });
  });

  it('stops counting at the cap past the page, and says so', async () => {
    const page = await pageOfLines(lines(LOG_COUNT_CAP * 5), { page: 1, size: 50 });
    expect(page.data).toHaveLength(50);
    expect(page.data[0]!.msg).toBe(`line ${LOG_COUNT_CAP * 5}`);
    expect(page.meta.pagination.total).toBe(50 + LOG_COUNT_CAP);
    expect(page.meta.pagination.total_is_capped).toBe(true);
  });

  it('still reaches a page beyond the cap', async () => {
    const n = LOG_COUNT_CAP * 3;
    const page = await pageOfLines(lines(n), { page: 30, size: 50 });
    expect(page.data[0]!.msg).toBe(`line ${n - 29 * 50}`);
    expect(page.meta.pagination.total_is_capped).toBe(true);
  });

  it('counts filtered lines only, without a cap when all fit', async () => {
    const page = await pageOfLines(lines(500), { page: 1, size: 20, level: 'warn' });
    expect(page.meta.pagination.total).toBe(50);
    expect(page.meta.pagination).not.toHaveProperty('total_is_capped');
  });
});
