import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * What the real servers do not change. The second run (TEST_MONGODB_URL and TEST_TEMPORAL_ADDRESS set: FerretDB's read
 * store and Temporal's workflows) runs again only what they serve: storage, read models, queries, workflows and their
 * faults. Rendering, mixing, speech and its quality, media intake, the documents, the browser pages and the WordPress
 * plugin depend on none of them (a generation's activities are the same code on either runner), and run once, in the
 * embedded run (README, Tests).
 */
const SERVER_INDEPENDENT = [
  'test/audio/**',
  'test/browser/**',
  'test/contract/**',
  'test/media/**',
  'test/speech/**',
  'test/video/**',
  'test/voices/**',
  'test/generation/{firstAudio,kokoro,listenWhileMade,listenWhileMadeNeural,loudness,normalizedSpeech,outboundFetch,render,sentences,textPreparation,videoPlan,videos,voices}.test.ts',
  'test/speech-languages/**',
  'test/contentFilters/{apply,decider,postedBody}.test.ts',
  // The real plugin speaks only the REST API, whose answers the servers do not change.
  'test/wordpress/**',
  'test/hostile/{mediaIntake,mediaLoad}.test.ts',
  // Pure: the CMS integration's decider and its reading of Ghost's and WordPress's payloads.
  'test/cmsIntegration/decider.test.ts',
  'test/summaries/{extractive,decider}.test.ts',
  // A million events imported into the event store, which is SQLite in both runs.
  'test/analytics/millionImport.test.ts',
  // FerretDB 1.24 ends up holding all 50 of its PostgreSQL connections under the load of these two (thousands of
  // imported events projected, a kill -9 amid 150 concurrent posts) and then answers nothing, which would fail every
  // later file of the run. The analytics figures on the MongoDB read store are covered by figures.test.ts.
  'test/analytics/{ingest,rebuild}.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...(process.env.TEST_MONGODB_URL ? SERVER_INDEPENDENT : [])],
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
