import { describe, expect, it } from 'vitest';
import { readEvents, type LiveEvent } from './eventStream.ts';

/** A response body that delivers `chunks` one read at a time, as a network would. */
function body(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function read(chunks: string[]): Promise<{ event: LiveEvent; id: string | null }[]> {
  const seen: { event: LiveEvent; id: string | null }[] = [];
  await readEvents(body(chunks), (event, id) => seen.push({ event, id }));
  return seen;
}

describe('readEvents', () => {
  it('dispatches each event with its type, JSON data and id, skipping comments', async () => {
    expect(
      await read([
        'retry: 3000\n: connected\n\n',
        'id: 1a2b3c4d.1\nevent: record\ndata: {"resource":"staff","id":"7","action":"create"}\n\n',
        ': ping\n\n',
        'event: reset\ndata: {}\n\n',
      ]),
    ).toEqual([
      {
        event: { type: 'record', data: { resource: 'staff', id: '7', action: 'create' } },
        id: '1a2b3c4d.1',
      },
      { event: { type: 'reset', data: {} }, id: null },
    ]);
  });

  it('joins an event split across reads, in the middle of a line and of a multi-byte character', async () => {
    const text = 'event: log\ndata: {"msg":"日志"}\n\n';
    const bytes = new TextEncoder().encode(text);
    const cut = bytes.indexOf(0xe6) + 1; // inside the first character of 日志
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 5));
        controller.enqueue(bytes.slice(5, cut));
        controller.enqueue(bytes.slice(cut));
        controller.close();
      },
    });
    const seen: LiveEvent[] = [];
    await readEvents(stream, (event) => seen.push(event));
    expect(seen).toEqual([{ type: 'log', data: { msg: '日志' } }]);
  });

  it('accepts CRLF line ends, joins multi-line data with \\n and keeps non-JSON data as text', async () => {
    expect(await read(['event: note\r\ndata: first\r\ndata: second\r\n\r\n'])).toEqual([
      { event: { type: 'note', data: 'first\nsecond' }, id: null },
    ]);
  });

  it('calls an event without a type "message", and ignores an event without data', async () => {
    expect(await read(['event: empty\n\n', 'data: 42\n\n'])).toEqual([
      { event: { type: 'message', data: 42 }, id: null },
    ]);
  });

  it('does not dispatch an event the stream ended before finishing', async () => {
    expect(await read(['event: record\ndata: {"id":"1"}\n'])).toEqual([]);
  });

  it('takes a field without a colon as a field with an empty value, and one leading space off values', async () => {
    expect(await read(['data\nevent:  spaced\n\n'])).toEqual([
      { event: { type: ' spaced', data: '' }, id: null },
    ]);
  });
});
