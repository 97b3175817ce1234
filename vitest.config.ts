import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // CI shares its two cores with whatever else the machine runs: a test failed there is tried once more, and
    // the flaky reporter names every test that passed only then (the CI summary repeats them).
    retry: process.env.CI ? 1 : 0,
    reporters: ['default', './test/support/flakyReporter.ts'],
  },
});
