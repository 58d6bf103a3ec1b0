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
  },
});
