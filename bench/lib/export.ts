import { spawn } from 'node:child_process';

/** The export's client, in a process of its own: the server's CPU and RSS are then the server's alone. */
const CLIENT = `
const headers = { authorization: 'Bearer ' + process.env.BENCH_TOKEN, 'accept-encoding': 'identity' };
if (process.env.BENCH_LANG) headers['accept-language'] = process.env.BENCH_LANG;
const res = await fetch(process.env.BENCH_URL, { headers });
if (res.status !== 200) {
  console.log(JSON.stringify({ error: res.status + ' ' + (await res.text()).slice(0, 200) }));
} else {
  let bytes = 0, lines = 0;
  for await (const chunk of res.body) {
    bytes += chunk.length;
    const b = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) lines++;
  }
  console.log(JSON.stringify({ bytes, lines }));
}`;

export interface HttpExportResult {
  /** Data rows (lines minus the header). */
  rows: number;
  bytes: number;
  seconds: number;
  /** Peak growth of this process's RSS while the export ran (the server's, when it runs in this process). */
  rssGrowth: number;
}

/**
 * `GET <url>` (a CSV export) read by a client in another process, which counts bytes and lines; the wall
 * time covers the whole download. Throws when the export does not answer 200.
 */
export async function httpExport(
  url: string,
  token: string,
  { lang }: { lang?: string } = {},
): Promise<HttpExportResult> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', CLIENT], {
    env: { ...process.env, BENCH_URL: url, BENCH_TOKEN: token, BENCH_LANG: lang ?? '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const result = JSON.parse(out || '{"error":"no output"}') as {
    bytes: number;
    lines: number;
    error?: string;
  };
  if (result.error) throw new Error(`export answered ${result.error}`);
  return { rows: result.lines - 1, bytes: result.bytes, seconds, rssGrowth: peak - base };
}
