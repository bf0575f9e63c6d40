import { Readable } from 'node:stream';
import type { Socket } from 'node:net';
import type { Connection } from 'pg';

/** Message codes of the COPY OUT sub-protocol (https://www.postgresql.org/docs/current/protocol-flow.html). */
const COPY_DATA = 0x64; // 'd'
const COPY_DONE = 0x63; // 'c'
/** Messages the server may send in the middle of a COPY OUT (besides CopyData): skipped. */
const INTERSPERSED = new Set([0x48 /* H, CopyOutResponse */, 0x53 /* S */, 0x4e /* N */, 0x41 /* A */]);

/** What pg's Client hands a submittable query: its protocol writer and the socket under it. */
interface PgConnection {
  stream: Socket;
  query(text: string): void;
}

/**
 * `COPY ... TO STDOUT` as a Readable of the rows' bytes, submitted to a pg `Client` (`client.query(copy)`),
 * doing what pg-copy-streams' `to()` does with less work per row: it takes the socket over from pg while the
 * COPY runs and strips the 5-byte header of each CopyData message (one per row) in place in the chunk the
 * socket gave (`copyWithin`), instead of slicing and concatenating a Buffer per row. Chunks are pushed once
 * they reach `chunkSize` bytes (fewer, larger writes downstream). When the stream is not read, the socket is
 * not read either, so the server waits (TCP back-pressure). An ErrorResponse, and everything after CopyDone,
 * goes back to pg, which reports the error (`handleError`) or the row count (`handleCommandComplete`).
 */
export class CopyOut extends Readable {
  /** Rows copied, once the COPY has completed. */
  rowCount = 0;
  private connection: PgConnection | null = null;
  private pgOnData: ((chunk: Buffer) => void) | null = null;
  /** The end of the previous chunk when it stopped inside a message header. */
  private partial: Buffer | null = null;
  /** The current message's code and how many bytes of its content are still to come. */
  private code = 0;
  private left = 0;
  private parts: Buffer[] = [];
  private size = 0;
  private wanted = false;
  private forwarding = false;
  private readonly onReadable = () => this.forward();

  constructor(
    private readonly text: string,
    private readonly chunkSize = 1 << 16,
  ) {
    super({ highWaterMark: chunkSize * 4 });
  }

  /** Called by pg's Client when this query's turn comes. */
  submit(pgConnection: Connection): void {
    const connection = pgConnection as unknown as PgConnection;
    this.connection = connection;
    const socket = connection.stream;
    const listeners = socket.listeners('data') as ((chunk: Buffer) => void)[];
    if (listeners.length !== 1) throw new Error('CopyOut: expected one data listener on the connection');
    this.pgOnData = listeners[0]!;
    socket.removeListener('data', this.pgOnData);
    socket.pause();
    socket.on('readable', this.onReadable);
    connection.query(this.text);
    this.forward();
  }

  override _read(): void {
    this.wanted = true;
    this.forward();
  }

  /** Reads the socket while the stream wants data. */
  private forward(): void {
    if (this.forwarding || !this.wanted || !this.connection || this.pgOnData === null) return;
    this.forwarding = true;
    const socket = this.connection.stream;
    let chunk: Buffer | null;
    while (this.wanted && this.pgOnData !== null && (chunk = socket.read() as Buffer | null) !== null)
      this.parse(chunk);
    this.forwarding = false;
  }

  private parse(input: Buffer): void {
    let chunk = input;
    if (this.partial) {
      chunk = Buffer.concat([this.partial, chunk]);
      this.partial = null;
    }
    const len = chunk.length;
    let r = 0;
    let w = 0;
    while (r < len) {
      if (this.left > 0) {
        const n = Math.min(this.left, len - r);
        if (this.code === COPY_DATA) {
          if (w !== r) chunk.copyWithin(w, r, r + n);
          w += n;
        }
        r += n;
        this.left -= n;
        continue;
      }
      if (len - r < 5) {
        this.partial = Buffer.from(chunk.subarray(r));
        break;
      }
      const code = chunk[r]!;
      if (code !== COPY_DATA && !INTERSPERSED.has(code)) {
        // CopyDone (consumed here), an ErrorResponse or anything else: the rest is pg's.
        const rest = chunk.subarray(code === COPY_DONE ? r + 5 : r);
        this.collect(chunk, w);
        this.finish(rest, code === COPY_DONE);
        return;
      }
      this.code = code;
      this.left = chunk.readUInt32BE(r + 1) - 4;
      r += 5;
    }
    this.collect(chunk, w);
    if (this.size >= this.chunkSize) this.flush();
  }

  private collect(chunk: Buffer, end: number): void {
    if (end === 0) return;
    this.parts.push(end === chunk.length ? chunk : chunk.subarray(0, end));
    this.size += end;
  }

  private flush(): void {
    const data = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    this.wanted = this.push(data);
  }

  /** Gives the socket back to pg with the bytes that are its; ends the stream after CopyDone. */
  private finish(rest: Buffer, done: boolean): void {
    const socket = this.connection!.stream;
    const pgOnData = this.pgOnData!;
    this.pgOnData = null;
    socket.removeListener('readable', this.onReadable);
    socket.on('data', pgOnData);
    if (rest.length > 0) pgOnData(rest);
    // pg's handler may pause the socket on a full buffer while it runs; resume once it has returned.
    process.nextTick(() => socket.resume());
    if (!done) return;
    if (this.size > 0) this.flush();
    this.push(null);
  }

  /** pg: the COPY failed (an ErrorResponse, or the connection). */
  handleError(error: Error): void {
    this.destroy(error);
  }

  /** pg: `COPY <n>`. */
  handleCommandComplete(msg: { text?: string } | undefined): void {
    const match = /COPY (\d+)/.exec(msg?.text ?? '');
    if (match) this.rowCount = Number(match[1]);
  }

  handleReadyForQuery(): void {}
}
