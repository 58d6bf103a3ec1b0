import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: the multi-node tests (apps/api/test/cluster) on Debian's PostgreSQL server, two API nodes
 * and haproxy. One file, one worker: the cluster takes the machine's two cores.
 */
export default defineConfig({
  test: {
    include: ['apps/api/test/cluster/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 200_000,
    hookTimeout: 300_000,
    reporters: ['default'],
  },
});
