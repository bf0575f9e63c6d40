import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { SECURITY_HEADERS, helmetHeaders } from './security-headers.ts';

/** Fastify's own headers on an answer; everything else a plain app's answer carries came from helmet. */
const FASTIFY_OWN = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/** What @fastify/helmet sets per request in a real app with `options`, in the order the answer has them. */
async function fromHelmetPlugin(options: typeof SECURITY_HEADERS): Promise<[string, string][]> {
  const app = Fastify({ logger: false });
  try {
    await app.register(helmet, options);
    app.get('/', async () => '');
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    return Object.entries(res.headers).flatMap(([name, value]) =>
      FASTIFY_OWN.has(name) || value === undefined ? [] : [[name, String(value)] as [string, string]],
    );
  } finally {
    await app.close();
  }
}

// Issue 37 item 3: the headers are computed without building a throwaway app; they must stay helmet's own,
// byte for byte and in the same order, for the product's options and for helmet's defaults.
describe('helmetHeaders', () => {
  it("gives exactly the headers @fastify/helmet sets with the product's options", async () => {
    const expected = await fromHelmetPlugin(SECURITY_HEADERS);
    expect(expected.map(([name]) => name)).toContain('content-security-policy');
    expect(Object.entries(await helmetHeaders(SECURITY_HEADERS))).toEqual(expected);
  });

  it("gives exactly helmet's defaults with no options, HSTS included", async () => {
    const expected = await fromHelmetPlugin({});
    expect(expected.map(([name]) => name)).toContain('strict-transport-security');
    expect(Object.entries(await helmetHeaders({}))).toEqual(expected);
  });
});
