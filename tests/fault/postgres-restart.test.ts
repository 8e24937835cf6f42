import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/app.js';
import { openStore } from '../../src/ledger/open-store.js';
import { createLogger } from '../../src/log.js';
import { alice, expectError, expectMessage, queueRoller } from '../helpers/app.js';
import { freshDatabase, ownPostgres } from '../helpers/postgres.js';

// A PostgreSQL fast shutdown killed the bot ("uncaught exception: Connection terminated
// unexpectedly"): a client checked out for a transaction had no error listener. And a bot started
// while the database was down exited at once. The server here is this file's own, stopped and
// started as an administrator would.
const server = await ownPostgres();
afterAll(() => server?.stop());

const GUILD_LOCK = "SELECT pg_advisory_xact_lock(hashtext('guild:' || $1::text))";

describe.skipIf(!server)('the bot through PostgreSQL restarts', () => {
  it('a fast shutdown during a roll: that roll is "could not be recorded", the process goes on, and rolls land again once the server is back', async () => {
    const url = await freshDatabase(server!);
    const logs: string[] = [];
    const log = createLogger({ level: 'debug', write: (l) => logs.push(l) });
    const store = await openStore({ databaseUrl: url, databasePath: '' }, log);
    const dice = queueRoller();
    const router = createRouter({ ledger: store, log, roller: dice, gameRoller: () => dice });
    // Another connection holds the guild's lock, so the roll's transaction is checked out and waiting when the server stops.
    const holder = new pg.Client({ connectionString: url });
    holder.on('error', () => undefined);
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query(GUILD_LOCK, ['g1']);
    dice.push(4);
    const inFlight = router.handle({ type: 'command', name: 'rally', options: { disorder: 1 }, actor: alice });
    await new Promise((resolve) => setTimeout(resolve, 300));
    server!.down('fast');
    expect(expectError(await inFlight)).toMatch(/could not be recorded/);
    expect(logs.join('\n')).toContain('the database dropped a connection');
    server!.up();
    dice.clear();
    dice.push(5);
    const after = expectMessage(await router.handle({ type: 'command', name: 'rally', options: { disorder: 1 }, actor: alice }));
    expect(after.record?.result).toBe('rally');
    expect(await store.verifyInChunks('g1')).toMatchObject({ ok: true, count: 1 });
    await store.close();
  }, 120_000);

  it('started while the server is down, the bot waits for it (saying so) instead of exiting, and opens the ledger once it is up', async () => {
    const url = await freshDatabase(server!);
    server!.down('fast');
    const logs: string[] = [];
    const log = createLogger({ level: 'debug', write: (l) => logs.push(l) });
    const opening = openStore({ databaseUrl: url, databasePath: '' }, log);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const waits = logs.filter((l) => l.includes('the database cannot be reached yet'));
    expect(waits.length).toBeGreaterThanOrEqual(2);
    // Waiting twice as long each time: 500 ms, 1,000 ms, …
    expect(waits.slice(0, 2).map((l) => JSON.parse(l).retry_in_ms)).toEqual([500, 1_000]);
    // No address or password of the database in what it says.
    expect(waits.join('\n')).not.toContain('127.0.0.1');
    server!.up();
    const store = await opening;
    const dice = queueRoller();
    dice.push(6);
    const router = createRouter({ ledger: store, log, roller: dice, gameRoller: () => dice });
    expect(expectMessage(await router.handle({ type: 'command', name: 'rally', options: { disorder: 1 }, actor: alice })).record?.result).toBe('rally');
    await store.close();
  }, 120_000);
});
