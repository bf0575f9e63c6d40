/** One server-sent event as a test sees it. */
export interface SseEvent {
  id: string | null;
  event: string;
  data: unknown;
}

export interface SseStream {
  status: number;
  events: SseEvent[];
  /** Raw text received so far (comments included), for heartbeat checks. */
  text(): string;
  /** Resolves with the first event (already received or coming) that passes `match`. */
  waitFor(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves once the server's first comment (`: connected`) has come: its subscription is in place. */
  connected(timeoutMs?: number): Promise<void>;
  /** Resolves once the server has ended the stream (not on `close()`). */
  ended(timeoutMs?: number): Promise<void>;
  close(): void;
}

/**
 * Opens `GET /api/v1/events` on a listening server with fetch streaming, as the browser client does.
 * Example: `const s = await openSse(base, token); await s.waitFor((e) => e.event === 'record');`
 */
export async function openSse(
  baseUrl: string,
  token: string | null,
  { lastEventId }: { lastEventId?: string } = {},
): Promise<SseStream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (lastEventId) headers['last-event-id'] = lastEventId;
  const response = await fetch(`${baseUrl}/api/v1/events`, { headers, signal: controller.signal });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  let raw = '';
  let isEnded = false;
  if (response.ok && response.body) {
    void (async () => {
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) {
            isEnded = true;
            for (const wake of waiters) wake();
            break;
          }
          const chunk = decoder.decode(value, { stream: true });
          raw += chunk;
          buffer += chunk;
          let at: number;
          while ((at = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, at);
            buffer = buffer.slice(at + 2);
            const parsed = parseBlock(block);
            if (parsed) events.push(parsed);
          }
          for (const wake of waiters) wake();
        }
      } catch {
        // Aborted by close().
      }
    })();
  }
  /** Resolves with `found()`'s first defined value, checked now and on every chunk received. */
  const until = <T>(found: () => T | undefined, timeoutMs: number, failure: () => string) =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        const value = found();
        if (value === undefined) return;
        cleanup();
        resolve(value);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(failure()));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return {
    status: response.status,
    events,
    text: () => raw,
    waitFor(match, timeoutMs = 5_000) {
      return until(
        () => events.find(match),
        timeoutMs,
        () => `no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`,
      );
    },
    async connected(timeoutMs = 5_000) {
      await until(
        () => (raw.includes(': connected') ? true : undefined),
        timeoutMs,
        () => `not connected within ${timeoutMs} ms (status ${response.status}); got ${JSON.stringify(raw)}`,
      );
    },
    async ended(timeoutMs = 5_000) {
      await until(
        () => (isEnded ? true : undefined),
        timeoutMs,
        () => `the server did not end the stream within ${timeoutMs} ms; got ${JSON.stringify(raw)}`,
      );
    },
    close: () => controller.abort(),
  };
}

function parseBlock(block: string): SseEvent | null {
  let id: string | null = null;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || !line) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  const text = data.join('\n');
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Plain text data.
  }
  return { id, event, data: parsed };
}
