import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { LOCALES, bundleOfNamespace, namespaceOfFile } from './locales/languages.ts';

const apiTarget = process.env.API_URL ?? `http://127.0.0.1:${process.env.API_PORT ?? 3001}`;

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: { manualChunks: messagesChunk },
    },
  },
  server: {
    port: Number(process.env.PORT ?? 5173),
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
});

/**
 * The browser downloads the catalogues per language and bundle (src/i18n/messages.ts): one chunk each,
 * `messages-<lang>-public` and `messages-<lang>-admin`, instead of one chunk per JSON file.
 */
function messagesChunk(id: string): string | undefined {
  const match = /\/locales\/([^/]+)\/([^/]+\.json)$/.exec(id);
  if (!match || !(LOCALES as readonly string[]).includes(match[1]!)) return undefined;
  return `messages-${match[1]}-${bundleOfNamespace(namespaceOfFile(match[2]!))}`;
}
