import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // CI shares its two cores with whatever else the machine runs: a test failed there is tried once more, so that
    // the log says whether it is flaky or broken. Either way the run fails: the flaky reporter names every test that
    // passed only on its second try and sets a non-zero exit code (the CI summary repeats them). Without CI, as
    // `npm test` runs for anyone, a test has one try.
    retry: process.env.CI ? 1 : 0,
    reporters: ['default', path.join(import.meta.dirname, 'test/support/flakyReporter.ts')],
  },
});
