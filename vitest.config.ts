import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Limits set from what the slowest tests need on two busy cores: a test that waits for
    // something polls for it and goes on at once, so a generous limit costs nothing when all is well.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // e2e tests each start a fake Discord and a client; two cores do not gain from more workers.
    pool: 'forks',
    globalSetup: ['tests/setup/build.ts'],
    // No internet here: the bot's default beacon (drand's public relays) is never reached. Processes
    // the tests start inherit this; a test of beacon games names its own chain and local relay.
    env: { BEACON_CHAIN: 'off' },
  },
});
