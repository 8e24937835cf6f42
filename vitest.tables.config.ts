import { defineConfig } from 'vitest/config';

// The tests StrykerJS runs for each table mutant (npm run mutation:tables): the rules' unit tests and
// the router tests that render their replies, nothing that starts a process or a server.
export default defineConfig({
  test: {
    include: [
      'tests/unit/asl-*.test.ts',
      'tests/unit/hearts-of-tin-*.test.ts',
      'tests/unit/lightning-war-*.test.ts',
      'tests/unit/war-fatigue.test.ts',
      'tests/unit/dice-*.test.ts',
      'tests/unit/tally.test.ts',
      'tests/unit/result-labels.test.ts',
      'tests/commands/replies.test.ts',
      'tests/commands/tables.test.ts',
      'tests/commands/rules-third-pass.test.ts',
      'tests/commands/asl*.test.ts',
      'tests/commands/rally.test.ts',
      'tests/commands/morale-disorder-brigade.test.ts',
    ],
    testTimeout: 20_000,
    pool: 'forks',
  },
});
