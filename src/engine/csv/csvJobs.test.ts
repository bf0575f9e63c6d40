import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch } from '../testing/fakeFetch.ts';
import { isJobTicket, outputOf, waitForCsvJob, type CsvJobStatus } from './csvJobs.ts';

const status = (over: Partial<CsvJobStatus>): CsvJobStatus => ({
  id: 'job-1',
  state: 'active',
  progress: null,
  output: null,
  error: null,
  ...over,
});

afterEach(() => vi.unstubAllGlobals());

describe('csvJobs', () => {
  it('tells a job ticket from a file answer', () => {
    expect(isJobTicket({ job_id: 'a', queue: 'csv-export', state: 'queued' })).toBe(true);
    expect(isJobTicket({ id: 'a' })).toBe(false);
    expect(isJobTicket(null)).toBe(false);
  });

  it("gives a completed job's output, and the job's message otherwise", () => {
    expect(outputOf(status({ state: 'completed', output: { rows: 3 } }))).toEqual({ rows: 3 });
    expect(() =>
      outputOf(status({ state: 'failed', error: 'The uploaded file is no longer available' })),
    ).toThrow('The uploaded file is no longer available');
    expect(() => outputOf(status({ state: 'cancelled' }))).toThrow('cancelled');
  });

  it('polls the job until it ends, reporting each progress, then resolves with its final status', async () => {
    const answers = [
      status({ progress: 10 }),
      status({ progress: 60 }),
      status({ state: 'completed', progress: 100, output: { rows: 6 } }),
    ];
    const calls = fakeFetch(() => ({ body: { code: 200, data: answers.shift() } }));
    const seen: number[] = [];
    const final = await waitForCsvJob('v1/test/gadgets', 'export', 'job-1', (p) => seen.push(p), {
      pollMs: 1,
    });
    expect(final).toMatchObject({ state: 'completed', output: { rows: 6 } });
    expect(seen).toEqual([10, 60, 100]);
    expect(calls.map((c) => c.path)).toEqual(Array(3).fill('/api/v1/test/gadgets/export/job-1'));
  });
});
