import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // e2e tests each start a fake Discord and a client; two cores do not gain from more workers.
    pool: 'forks',
    globalSetup: ['tests/setup/build.ts'],
  },
});
