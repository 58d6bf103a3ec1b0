import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress.ts';
import { analyseFirstPages, firstPageGroups } from './first-page-chunks.ts';
import { mantineCssPerComponent } from './mantine-css-per-component.ts';

/** The API (and the embedded identity provider) during `npm run dev -w @shk/web`. */
const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

/**
 * The entry script with `fetchpriority="low"` (Vite writes the tag itself and drops attributes of the source's tag).
 * The first paint is the static header of index.html and needs only the stylesheet; at low priority the browser
 * fetches that first, and Lighthouse's simulation no longer treats the script as render-blocking for the first paint.
 */
function entryScriptLowPriority(): Plugin {
  return {
    name: 'shk-entry-script-low-priority',
    transformIndexHtml: {
      order: 'post',
      handler: (html) =>
        html.replace(
          /<script type="module" crossorigin src=/,
          '<script type="module" crossorigin fetchpriority="low" src=',
        ),
    },
  };
}

/**
 * The libraries and shared app layers used by the route pages (Mantine, floating-ui, the app's ui/api/lib, the
 * contracts). The OIDC user manager stays out: it is loaded on its own (main.tsx's loadOidc) with oidc-client-ts.
 */
const COMMON =
  /node_modules[\\/](@mantine[\\/](core|hooks|carousel)|@floating-ui|@tabler|react-number-format|embla-carousel)|[\\/]src[\\/](ui|api|lib)[\\/](?!user-manager\.ts)|packages[\\/]contracts/;

// The contracts' zod schemas are built at module evaluation (z.object(…) calls). Marked side-effect free, the ones the
// SPA never uses are dropped instead of being constructed on every page load (the shared chunk built ~10 schema modules
// the first page did not need; the API keeps its own build with all of them).
const treeshake = { manualPureFunctions: ['z'] };

export default defineConfig(async ({ command }) => ({
  plugins: [react(), mantineCssPerComponent(), precompress(), entryScriptLowPriority()],
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
    // The entry in one chunk; then per route what its first render needs, in a few chunks shared by exactly the pages
    // that load them (slow mobile networks pay for every byte and every round trip before the first content).
    rolldownOptions: {
      treeshake,
      output: {
        codeSplitting: {
          groups: [
            // The entry's modules first: the first-page groups below also take their modules' dependencies (React,
            // Mantine's core), which must stay in the entry.
            { name: 'shell', tags: ['$initial'], priority: 1000 },
            // zod and the contracts' schemas apart from `common`, split by the routes that use them: a page without a
            // form (home, product) no longer downloads them (~27 kB brotli) nor builds the schemas at load
            // (~25 ms of main thread); their dependencies (statuses, texts) stay where the pages need them.
            {
              name: 'schemas',
              test: /node_modules[\\/]zod[\\/]|packages[\\/]contracts[\\/]src[\\/]schemas[\\/]/,
              minShareCount: 2,
              includeDependenciesRecursively: false,
              entriesAware: true,
              entriesAwareMergeThreshold: 8000,
            },
            // What the first pages (home, search, product) load before their first render, in chunks named after the
            // pages that share them (first-page-chunks.ts; only `vite build`, from an analysis build of a few seconds).
            ...(command === 'build'
              ? firstPageGroups(await analyseFirstPages(import.meta.dirname, treeshake), COMMON)
              : []),
            // Everything else the route chunks share (other pages, dialogs, drawers, suggestions): one chunk instead of
            // ~60 small ones. Over HTTP/1.1 a browser opens 6 connections, so 60 requests cost about 10 round trips
            // on a mobile network; the merged chunk costs some kB more on a few pages.
            {
              name: 'common',
              test: COMMON,
              minShareCount: 2,
            },
          ],
        },
      },
    },
  },
}));
