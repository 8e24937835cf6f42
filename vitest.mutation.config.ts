import { defineConfig } from 'vitest/config';

// The suite StrykerJS runs against each mutant: everything but the tests that start processes or a
// fake Discord (e2e, newcomer, crash, Discord faults), whose children would not run the mutant anyway.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'tests/console/newcomer.test.ts', 'tests/fault/crash.test.ts', 'tests/fault/discord-faults.test.ts', '**/node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
  },
});
