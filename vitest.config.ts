import { defineConfig } from 'vitest/config';

// Two layers: fast Node unit tests for lib/ (and the lab), and real-browser end-to-end tests that need a build.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/lab/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // Browsers are heavy on 2 cores: one test file at a time.
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
