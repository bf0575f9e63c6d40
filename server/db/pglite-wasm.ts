/**
 * PGlite's WebAssembly (pglite.wasm, 9 MB), read and compiled once per process, in the background (issue 37
 * item 3). PGlite reads and compiles it only once its own JavaScript has loaded and its file-system bundle
 * is read, and the start then waited idle for the compile. Started first, as openDatabase does before it
 * loads PGlite, the compile runs on V8's compiler threads while the rest of the server loads. This module
 * imports nothing of PGlite, so starting the compile costs only the read.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

let compiling: Promise<WebAssembly.Module> | null = null;

/**
 * The compiled pglite.wasm of the installed @electric-sql/pglite (the file beside its entry point), for
 * PGlite's `pgliteWasmModule` option; the first call starts the read and the compile, later calls share it.
 */
export function pgliteWasmModule(): Promise<WebAssembly.Module> {
  if (!compiling) {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    // Read at once (about 7 ms), not through the thread pool: the compile must not wait for the main thread
    // to be free for the read's callback, which it is not while the server loads.
    try {
      compiling = WebAssembly.compile(fs.readFileSync(path.join(path.dirname(entry), 'pglite.wasm')));
    } catch (error) {
      compiling = Promise.reject(error);
    }
    compiling.catch(() => undefined); // awaited by openPglite, which reports a failure
  }
  return compiling;
}
