import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'apps/api/src/**/*.test.ts',
            'apps/api/test/**/*.test.ts',
            'packages/contracts/src/**/*.test.ts',
            'apps/web/src/**/*.test.ts',
            'apps/web/*.test.ts',
            // Helpers of the browser tests (dates near midnight and month ends).
            'e2e/support/*.test.ts',
          ],
          // The multi-node tests start their own cluster: `npm run test:cluster` (vitest.cluster.config.ts).
          exclude: ['**/node_modules/**', 'apps/api/test/cluster/**'],
          globalSetup: ['apps/api/test/global-setup.ts'],
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The SPA's component tests (*.test.tsx): rendered in jsdom with Testing Library, no database.
        test: {
          name: 'web-components',
          include: ['apps/web/src/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['apps/web/src/test/setup-dom.ts'],
          pool: 'forks',
          testTimeout: 30_000,
        },
      },
    ],
  },
});
