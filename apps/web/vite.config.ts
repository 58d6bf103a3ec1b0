import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress.ts';

/** The API (and the embedded identity provider) during `npm run dev -w @shk/web`. */
const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), precompress()],
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      '/v1': { target: apiTarget, changeOrigin: false },
      '/auth': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 1000,
    // Everything the first page loads statically in one chunk: 2 requests instead of ~25 small ones before the
    // first render (slow mobile networks pay a round trip per request); route chunks are split as before.
    rolldownOptions: {
      output: {
        codeSplitting: { groups: [{ name: 'shell', tags: ['$initial'] }] },
      },
    },
  },
});
