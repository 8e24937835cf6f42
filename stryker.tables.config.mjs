// npm run mutation:tables: the rules' module-level tables with static mutants ON, so a
// band's label, effect sentence or tone that no test pins shows up as a survivor. Static mutants
// run the whole test set again, so the set is the rules and command tests that read these tables
// (vitest.tables.config.ts), and only the tables' lines are mutated. Slow; not in CI.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.tables.config.ts' },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/rules/asl/hob-table.ts',
    'src/rules/hearts-of-tin/rally-chart.ts',
    'src/rules/lightning-war/morale-table.ts',
    'src/rules/asl/traits.ts',
    // The tables inside modules that also hold code: CLASS_NAMES, the HoB statuses and labels, the WaR phases, events and tones.
    'src/rules/asl/catalog.ts:10-18',
    'src/rules/asl/hob.ts:29-39',
    'src/rules/asl/hob.ts:234-236',
    // The names /odds and /history give a Morale Check's and a Rally's results.
    'src/rules/asl/mc.ts:754-754',
    'src/rules/wacht-am-rhein/fatigue.ts:44-55',
    'src/rules/wacht-am-rhein/fatigue.ts:86-123',
    'src/rules/wacht-am-rhein/fatigue.ts:135-135',
    // /dr's notes, SAN exclusions and booby-trap levels; the sides' names; the dice grammar's
    // limits and example; the first dice each system's morale roll is counted by in the dice report.
    'src/rules/asl/dr.ts:45-70',
    'src/rules/sides.ts',
    'src/rules/dice/expression.ts:18-19',
    'src/rules/systems.ts:7-13',
  ],
  ignoreStatic: false,
  concurrency: 2,
  timeoutMS: 30_000,
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/tables.json' },
  thresholds: { high: 95, low: 95, break: null },
  tempDirName: '.stryker-tmp-tables',
  cleanTempDir: 'always',
};
