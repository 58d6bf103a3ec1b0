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
        codeSplitting: {
          groups: [
            { name: 'shell', tags: ['$initial'] },
            // What the route pages share (Mantine components, floating-ui, the app's ui/api layers, contracts): one
            // chunk instead of ~60 small ones per page. Over HTTP/1.1 a browser opens 6 connections, so 60 requests
            // cost about 10 round trips on a mobile network; the merged chunk costs some kB more on a few pages.
            {
              name: 'common',
              test: /node_modules[\\/](@mantine[\\/](core|hooks)|@floating-ui|@tabler|react-number-format)|[\\/]src[\\/](ui|api)[\\/]|packages[\\/]contracts/,
              minShareCount: 2,
            },
          ],
        },
      },
    },
  },
});
