// npm run mutation: StrykerJS over the rules and the ledger, not in CI (it takes a while).
// Each mutant runs only the tests that reach it (perTest coverage); the e2e and process tests are
// left out (vitest.mutation.config.ts): they start servers and processes and cover the same code
// through the router tests.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  coverageAnalysis: 'perTest',
  mutate: ['src/rules/**/*.ts', 'src/ledger/**/*.ts', '!src/**/*.d.ts'],
  // A mutant in a module-level table runs every test again; they are reported, not run.
  ignoreStatic: true,
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  thresholds: { high: 95, low: 90, break: null },
  // Re-runs only the mutants whose code or tests changed since the last run.
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
