import { currentLocale } from '../i18n/locale.ts';
import { API_BASE } from '../providers/httpClient.ts';
import { getToken } from '../providers/token.ts';

/** One event of `GET /api/v1/events`: `record`, `monitor`, `job`, `log`, `modules` or `reset`. */
export interface LiveEvent {
  type: string;
  data: unknown;
}

/**
 * The data of a `record` event. A CSV import sends one `import` event (id null) listing the updated ids, and a
 * bulk call one `update`/`delete` event (id null) listing its records; `ids: null` when too many to list.
 */
export type RecordEvent =
  | { resource: string; id: string; action: 'create' | 'update' | 'delete'; actor_id: string }
  | {
      resource: string;
      id: null;
      action: 'import' | 'update' | 'delete';
      ids: string[] | null;
      actor_id: string;
    };

export type LiveListener = (event: LiveEvent) => void;

const MAX_BACKOFF_MS = 30_000;
/** Keep the connection briefly after the last subscriber leaves, so page changes do not reconnect. */
const LINGER_MS = 5_000;

const listeners = new Set<LiveListener>();
let controller: AbortController | null = null;
let lastEventId: string | null = null;
let lingerTimer: ReturnType<typeof setTimeout> | null = null;
const statusListeners = new Set<(isConnected: boolean) => void>();
let isConnectedNow = false;

/**
 * Subscribes to the one shared event stream of this tab (opened on the first subscriber, closed a few seconds
 * after the last leaves). It is read with fetch streaming so the Bearer token stays in a header; it reconnects
 * with backoff and sends Last-Event-ID so the server replays what was missed. Example:
 * `const stop = subscribeLive((e) => e.type === 'record' && refresh()); ... stop();`
 */
export function subscribeLive(listener: LiveListener): () => void {
  listeners.add(listener);
  if (lingerTimer) clearTimeout(lingerTimer);
  lingerTimer = null;
  if (!controller) connect();
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    lingerTimer = setTimeout(() => {
      if (listeners.size === 0) disconnect();
    }, LINGER_MS);
  };
}

/** Whether the stream is connected now (events sent from here on reach this tab). */
export function isLiveConnected(): boolean {
  return isConnectedNow;
}

/** Follows whether the stream is connected (for a "reconnecting" hint). */
export function subscribeLiveStatus(fn: (isConnected: boolean) => void): () => void {
  statusListeners.add(fn);
  return () => statusListeners.delete(fn);
}

/** Closes the stream at once (sign-out, tests). */
export function disconnect(): void {
  controller?.abort();
  controller = null;
  lastEventId = null;
  isConnectedNow = false;
}

function connect(): void {
  const abort = new AbortController();
  controller = abort;
  void (async () => {
    let failures = 0;
    while (!abort.signal.aborted) {
      const token = getToken();
      if (!token) break;
      try {
        const headers: Record<string, string> = {
          Accept: 'text/event-stream',
          'Accept-Language': currentLocale(),
          Authorization: `Bearer ${token}`,
        };
        if (lastEventId) headers['Last-Event-ID'] = lastEventId;
        const response = await fetch(`${API_BASE}v1/events`, { headers, signal: abort.signal });
        // A signed-out or refused session (or a server without events) has nothing to listen to; the next
        // subscriber tries again.
        if ([401, 403, 404].includes(response.status)) break;
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        failures = 0;
        setStatus(true);
        await readEvents(response.body, (event, id) => {
          if (id) lastEventId = id;
          for (const listener of [...listeners]) listener(event);
        });
      } catch {
        if (abort.signal.aborted) break;
      }
      setStatus(false);
      failures += 1;
      const delay = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** Math.min(failures, 5)) * (0.5 + Math.random() / 2);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
    if (controller === abort) controller = null;
  })();
}

function setStatus(isConnected: boolean): void {
  isConnectedNow = isConnected;
  for (const fn of statusListeners) fn(isConnected);
}

/**
 * Parses a text/event-stream body (the WHATWG rules that matter here: `id`, `event`, multi-line `data`,
 * comments, CRLF or LF) and calls `onEvent` per dispatched event.
 */
export async function readEvents(
  body: ReadableStream<Uint8Array>,
  onEvent: (event: LiveEvent, id: string | null) => void,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let type = '';
  let data: string[] = [];
  let id: string | null = null;
  const dispatch = () => {
    if (data.length) {
      const text = data.join('\n');
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // Plain text data stays a string.
      }
      onEvent({ type: type || 'message', data: parsed }, id);
    }
    type = '';
    data = [];
    id = null;
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r?\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(buffer[newline] === '\r' ? newline + 2 : newline + 1);
      if (line === '') dispatch();
      else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const rest = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') type = rest;
        else if (field === 'data') data.push(rest);
        else if (field === 'id') id = rest;
      }
    }
  }
}
