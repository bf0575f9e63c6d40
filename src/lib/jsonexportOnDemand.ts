/**
 * jsonexport's function, loading the library on the first call (scripts/lib/vite-lean-deps.ts gives this
 * module to react-admin's `defaultExporter` in place of `jsonexport/dist/index.js`). The arguments are passed
 * on as they came, since jsonexport reads their count: `(data, [options], [callback])`; without a callback
 * the returned promise gives what jsonexport returns.
 */
type Callback = (error: Error | null, csv?: string) => void;

export default function jsonExport(...args: unknown[]): Promise<unknown> {
  const running = import('jsonexport/dist/index.js').then((module) => module.default(...args));
  const callback = args.findLast((arg): arg is Callback => typeof arg === 'function');
  // With a callback, a failed load reaches it like any other error, and the promise never rejects.
  return callback
    ? running.catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))))
    : running;
}
