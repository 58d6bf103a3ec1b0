import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'apps/api/src/**/*.test.ts',
      'apps/api/test/**/*.test.ts',
      'packages/contracts/src/**/*.test.ts',
      'apps/web/src/**/*.test.ts',
      'apps/web/*.test.ts',
    ],
    // The multi-node tests start their own cluster: `npm run test:cluster` (vitest.cluster.config.ts).
    exclude: ['**/node_modules/**', 'apps/api/test/cluster/**'],
    globalSetup: ['apps/api/test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
