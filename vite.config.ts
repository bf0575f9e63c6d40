import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import { LOCALES, bundleOfFile } from './locales/languages.ts';
import { resourceDescriptors } from './scripts/lib/resourceDescriptors.ts';
import { leanDependencies } from './scripts/lib/vite-lean-deps.ts';

const apiTarget = process.env.API_URL ?? `http://127.0.0.1:${process.env.API_PORT ?? 3001}`;

export default defineConfig({
  plugins: [react(), leanDependencies(), resourceDescriptors(), precompress()],
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    // Terser rather than esbuild: about 3% less JS after gzip (10.6 kB on the first list page, measured with
    // `npm run bench:bundle`) for 12-23 s more per build. Vite sets `module` for ES output itself.
    minify: 'terser',
    terserOptions: { ecma: 2020, compress: { passes: 2 }, format: { comments: false } },
    rollupOptions: {
      onLog: quietThirdPartyComments,
      output: {
        manualChunks: (id) => messagesChunk(id) ?? raCoreUtilChunk(id),
        onlyExplicitManualChunks: true,
      },
    },
  },
  server: {
    port: Number(process.env.PORT ?? 5173),
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
});

/**
 * The browser downloads the catalogues per language and bundle (src/i18n/messages.ts): one chunk each,
 * `messages-<lang>-public`, `-admin`, `-settings` and `-system`, instead of one chunk per JSON file.
 */
function messagesChunk(id: string): string | undefined {
  const match = /\/locales\/([^/]+)\/([^/]+\.json)$/.exec(id);
  if (!match || !(LOCALES as readonly string[]).includes(match[1]!)) return undefined;
  return `messages-${match[1]}-${bundleOfFile(match[2]!)}`;
}

/**
 * ra-core's `util/index.js` re-exports `FieldTitle.js`, which imports ra-core's i18n, which imports `util/index.js`
 * again: left to itself Rollup puts the two files in different chunks and prints one "circular dependency"
 * warning per module importing FieldTitle through the index (nine, plus LocaleDateInput). Kept in one chunk,
 * the re-export stays inside it (issue 34, item 7). `onlyExplicitManualChunks`: the manual chunks hold only the
 * files named here; without it Rollup adds every static dependency of those two files (React, lodash, ...) to
 * the chunk, and the sign-in page downloaded it (207 kB gzip against 108 kB with the option, issue 37 item 6).
 */
function raCoreUtilChunk(id: string): string | undefined {
  return /\/ra-core\/dist\/util\/(index|FieldTitle)\.js$/.test(id) ? 'ra-core-util' : undefined;
}

/**
 * zod's published files carry two comments that talk about `@__PURE__` in prose (util.js, regexes.js); Rollup
 * reads them as misplaced annotations, drops them and says so in eight lines on every build, a newcomer's first
 * `npm start` included. Only that message, only for files under node_modules, is left out; every other log
 * passes through.
 */
function quietThirdPartyComments(...[level, log, handler]: Parameters<Rollup.LogHandlerWithDefault>): void {
  if (log.code === 'INVALID_ANNOTATION' && log.id?.includes('/node_modules/')) return;
  handler(level, log);
}

/** Text files worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt)$/;

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of the build (over 1 KiB), once, at
 * build time with the strongest settings, so the server (@fastify/static `preCompressed`) sends them with
 * no compression work per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' })) {
        const full = path.join(outDir, file);
        if (!COMPRESSIBLE.test(file) || !fs.statSync(full).isFile()) continue;
        const source = fs.readFileSync(full);
        if (source.length < 1024) continue;
        const brotli = zlib.brotliCompressSync(source, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        });
        fs.writeFileSync(`${full}.br`, brotli);
        fs.writeFileSync(`${full}.gz`, zlib.gzipSync(source, { level: zlib.constants.Z_BEST_COMPRESSION }));
      }
    },
  };
}
