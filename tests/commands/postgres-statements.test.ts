import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/app.js';
import type { Actor } from '../../src/core/command.js';
import type { Request } from '../../src/core/router.js';
import { openStore } from '../../src/ledger/open-store.js';
import { PgStore } from '../../src/ledger/postgres/pg-store.js';
import { createLogger } from '../../src/log.js';
import { alice, queueRoller } from '../helpers/app.js';
import { fakeDiscordKey } from '../helpers/beacon-game.js';
import { freshDatabase, testPostgres } from '../helpers/postgres.js';

// A plain roll on PostgreSQL is one transaction of at most five statements, each a named
// (prepared) statement the server parses and plans once per connection: BEGIN, the guild's lock
// with the interaction's claim, one read of what the roll decides from, one write of the row with
// everything that goes with it, COMMIT. Every statement the bot sends is counted here, from the
// router's request to its reply, by wrapping node-postgres's query.
const server = await testPostgres();
afterAll(() => server?.stop());

type Sent = { name: string | undefined; text: string };
const sent: Sent[] = [];
const realQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
  const named = typeof config === 'object' && config !== null ? (config as { name?: string; text: string }) : undefined;
  sent.push({ name: named?.name, text: named ? named.text : String(config) });
  return (realQuery as (...a: unknown[]) => unknown).call(this, config, ...rest);
} as typeof realQuery;
afterAll(() => {
  pg.Client.prototype.query = realQuery;
});

let store: PgStore | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

let interaction = 0;
/** What the request sent to the server, and its reply. */
async function counted(router: ReturnType<typeof createRouter>, actor: Actor, name: string, options: Record<string, unknown>, subcommand?: string) {
  sent.length = 0;
  const reply = await router.handle({
    type: 'command',
    name,
    options,
    actor,
    interactionId: `i${++interaction}`,
    ...(subcommand ? { subcommand } : {}),
  } as Request);
  return { reply, statements: sent.splice(0) };
}

async function bot() {
  store = await PgStore.connect(await freshDatabase(server!));
  const dice = queueRoller();
  return { router: createRouter({ ledger: store, log: createLogger({ level: 'silent' }), roller: dice, gameRoller: () => dice }), dice, store };
}

/** One transaction, at most five statements, every one prepared under a name. */
function expectOnePreparedTransaction(statements: Sent[]) {
  const shown = statements.map((s) => `[${s.name ?? 'unnamed'}] ${s.text.replace(/\s+/g, ' ').slice(0, 80)}`);
  expect(statements.length, shown.join('\n')).toBeLessThanOrEqual(5);
  expect(
    statements.filter((s) => !s.name),
    shown.join('\n'),
  ).toEqual([]);
  expect(statements.map((s) => s.text).filter((t) => /^(BEGIN|COMMIT|ROLLBACK)$/.test(t))).toEqual(['BEGIN', 'COMMIT']);
  expect(statements[0]!.text).toBe('BEGIN');
  expect(statements.at(-1)!.text).toBe('COMMIT');
}

describe.skipIf(!server)('a roll on PostgreSQL, statement by statement', () => {
  it('/mc in a game of per-player dice: BEGIN, lock and claim, the read, the write, COMMIT', async () => {
    const { router, dice, store } = await bot();
    await counted(router, alice, 'game', { system: 'asl', name: 'Bastogne' }, 'start');
    for (const faces of [
      [3, 3],
      [2, 4],
      [5, 1],
    ]) {
      dice.push(...faces);
      const { reply, statements } = await counted(router, alice, 'mc', { unit: 'German 4-6-7' });
      expect(reply.type).toBe('message');
      expectOnePreparedTransaction(statements);
      expect(statements.map((s) => s.name)).toEqual(['begin', 'claim_locked', 'channel_state', 'append_tally_unit_counted_card', 'commit']);
    }
    expect(dice.pending()).toBe(0);
    const kept = await store.ledger.pool.query('SELECT n FROM player_roll_counts');
    expect(kept.rows).toEqual([{ n: 3 }]);
  });

  it('/dr with the request Discord signed (HTTP mode, as a tournament plays): the request is kept in the row’s statement', async () => {
    const { router, dice, store } = await bot();
    await counted(router, alice, 'game', { system: 'asl', name: 'Bastogne' }, 'start');
    const key = fakeDiscordKey();
    dice.push(3, 4);
    const req = { type: 'command' as const, name: 'dr', options: {}, actor: alice, interactionId: '1445000000000000001' };
    sent.length = 0;
    expect((await router.handle({ ...req, evidence: key.sign(req, Date.now()) })).type).toBe('message');
    expectOnePreparedTransaction(sent);
    expect(sent.map((s) => s.name)).toContain('append_tally_counted_evidence_card');
    expect((await store.ledger.pool.query('SELECT interaction_id FROM interaction_evidence')).rows).toEqual([{ interaction_id: req.interactionId }]);
  });

  it('/rally naming a roster unit (a result that leaves it as it is): the unit is read with the game', async () => {
    const { router, dice } = await bot();
    await counted(router, alice, 'game', { system: 'hearts-of-tin', name: 'Waterloo' }, 'start');
    await counted(router, alice, 'unit', { name: 'Guard', fields: 'disorder:2 quality:regular original:4 strength:4' }, 'add');
    dice.push(3);
    const { reply, statements } = await counted(router, alice, 'rally', { unit: 'Guard' });
    expect(JSON.stringify(reply)).toContain('Rally · Guard');
    expectOnePreparedTransaction(statements);
  });

  it('the lock is a statement of its own: a roll that waited for it decides from what the holder committed', async () => {
    const { router, dice, store } = await bot();
    await counted(router, alice, 'game', { system: 'hearts-of-tin', name: 'Waterloo' }, 'start');
    await counted(router, alice, 'unit', { name: 'Guard', fields: 'disorder:2 quality:regular original:4 strength:4' }, 'add');
    // Another process's transaction of the guild: it holds the lock and gives the unit to bob.
    const holder = await store.ledger.pool.connect();
    await holder.query('BEGIN');
    await holder.query("SELECT pg_advisory_xact_lock(hashtext('guild:' || $1::text))", [alice.guildId]);
    await holder.query("UPDATE units SET owner_id = 'bob', owner_name = 'Bob' WHERE name_key = 'guard'");
    dice.push(3);
    const roll = router.handle({ type: 'command', name: 'rally', options: { unit: 'Guard' }, actor: alice, interactionId: 'waits' });
    // Committed once the roll waits for the lock (a statement that waited for it inside would read the snapshot before).
    const waiting = "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted";
    await expect.poll(async () => (await store.ledger.pool.query(waiting)).rows[0].n, { timeout: 60_000 }).toBe(1);
    await holder.query('COMMIT');
    holder.release();
    expect(await roll).toMatchObject({ type: 'error', message: expect.stringContaining('Bob') });
    dice.clear();
  });

  it('a second delivery of the same interaction: refused in the lock’s own statement, nothing read, nothing written', async () => {
    const { router, dice, store } = await bot();
    await counted(router, alice, 'game', { system: 'asl', name: 'Bastogne' }, 'start');
    dice.push(3, 3);
    const req = { type: 'command', name: 'mc', options: { unit: 'German 4-6-7' }, actor: alice, interactionId: 'twice' } as Request;
    expect((await router.handle(req)).type).toBe('message');
    sent.length = 0;
    const again = await router.handle(req);
    expect(again).toMatchObject({ type: 'error', code: 'duplicate' });
    expect(sent.map((s) => s.name)).toEqual(['begin', 'claim_locked', 'rollback']);
    expect((await store.ledger.pool.query("SELECT count(*)::int AS n FROM rolls WHERE kind = 'roll'")).rows).toEqual([{ n: 1 }]);
  });
});

describe.skipIf(!server)("the bot's pool of connections", () => {
  it("opened as the serving bot opens it: every connection open before the first roll, kept while idle, with TCP keepalive; an admin command's opens only what it uses", async () => {
    const url = await freshDatabase(server!);
    const bots = (await openStore({ databaseUrl: url, databasePath: '' }, undefined, { keepOpen: true })) as PgStore;
    // An admin command's (npm run keys) opens only what it uses.
    const other = (await openStore({ databaseUrl: url, databasePath: '' })) as PgStore;
    try {
      const pool = bots.ledger.pool;
      expect([pool.totalCount, pool.idleCount]).toEqual([10, 10]);
      // Not closed when idle: a turn that ends for everyone after a quiet spell finds them open.
      const options = (pool as unknown as { options: { min: number; keepAlive?: boolean } }).options;
      expect([options.min, options.keepAlive]).toEqual([10, true]);
      expect(other.ledger.pool.totalCount).toBeLessThanOrEqual(1);
    } finally {
      await other.close();
      await bots.close();
    }
  });
});
