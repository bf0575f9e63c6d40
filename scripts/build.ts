/**
 * `npm run build`: a production build of the front end into dist/ (DIST_DIR moves it), stamped with its
 * inputs like the build `npm start` makes when stale, so that whatever runs next (`npm start`, the browser
 * suite, `npm run bench:bundle`) finds it fresh and builds nothing. CI builds once this way and reuses it.
 */
import path from 'node:path';
import { buildFrontend, repoRoot } from './lib/frontend.ts';

const distDir = path.resolve(repoRoot, process.env.DIST_DIR || 'dist');
const ms = await buildFrontend({ root: repoRoot, distDir });
process.stdout.write(
  `[build] built ${path.relative(repoRoot, distDir) || distDir}/ in ${(ms / 1000).toFixed(1)} s\n`,
);
