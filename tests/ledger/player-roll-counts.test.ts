import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/app.js';
import type { Actor, Reply } from '../../src/core/command.js';
import type { Request } from '../../src/core/router.js';
import { PLAYER_ROLLS_SQL } from '../../src/ledger/common-sql.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { migrate, readMigrations } from '../../src/ledger/migrate.js';
import { openDatabase } from '../../src/ledger/database.js';
import { PgLedger, numbered } from '../../src/ledger/postgres/pg-ledger.js';
import { PgStore } from '../../src/ledger/postgres/pg-store.js';
import { sqliteStore, type LedgerStore } from '../../src/ledger/store.js';
import { createLogger } from '../../src/log.js';
import { alice, bob, gm, queueRoller } from '../helpers/app.js';
import { freshDatabase, testPostgres } from '../helpers/postgres.js';
import { tmpDb } from '../helpers/tmp.js';

// The k of a player's next roll in a game of per-player dice is their game rolls so far plus one.
// The ledger keeps that count beside the rows (player_roll_counts) instead of counting the
// player's rows at every roll: it must always equal the count (PLAYER_ROLLS_SQL), on both
// backends, after rolls, re-rolls, voids, sealed rolls, rolls outside games, and rolls racing from
// several processes; and the migration that adds it fills it from the rows already on record.
const server = await testPostgres();
afterAll(() => server?.stop());

type Sql = { rows<T>(sql: string, params?: unknown[]): Promise<T[]> };
type Backend = { store: LedgerStore; sql: Sql; close(): Promise<void> };

const backends: [string, () => Promise<Backend>][] = [
  [
    'SQLite',
    async () => {
      const ledger = Ledger.open(tmpDb());
      const sql: Sql = { rows: async <T>(s: string, p: unknown[] = []) => ledger.db.prepare(s).all(...p) as T[] };
      return { store: sqliteStore(ledger), sql, close: async () => ledger.close() };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const store = await PgStore.connect(await freshDatabase(server!));
      const sql: Sql = { rows: async <T>(s: string, p: unknown[] = []) => (await store.ledger.pool.query(numbered(s), p)).rows as T[] };
      return { store, sql, close: () => store.close() };
    },
  ],
];

type Count = { game_id: string; user_id: string; n: number };

/** Every (game, player) the rows count, with the count, and the kept counts: they must be the same. */
async function counts(sql: Sql): Promise<{ counted: Count[]; kept: Count[] }> {
  const pairs = await sql.rows<{ game_id: string; user_id: string }>('SELECT DISTINCT game_id, user_id FROM rolls WHERE game_id IS NOT NULL ORDER BY 1, 2');
  const counted: Count[] = [];
  for (const p of pairs) {
    const n = Number((await sql.rows<{ n: number | string }>(PLAYER_ROLLS_SQL, [p.game_id, p.user_id]))[0]!.n);
    if (n) counted.push({ ...p, n });
  }
  const kept = (await sql.rows<Count>('SELECT game_id, user_id, n FROM player_roll_counts ORDER BY 1, 2')).map((r) => ({ ...r, n: Number(r.n) }));
  return { counted, kept };
}

const other: Actor = { ...alice, channelId: 'c2' };
const say = (router: ReturnType<typeof createRouter>, actor: Actor, name: string, options: Record<string, unknown>, subcommand?: string) =>
  router.handle({ type: 'command', name, options, actor, ...(subcommand ? { subcommand } : {}) } as Request);
const buttonOf = (r: Reply) => (r.type === 'message' ? r.buttons[0]?.custom_id : undefined);
const rollIdOf = (r: Reply) => (r.type === 'message' ? r.record?.roll_id : undefined);

describe.each(backends)('the game roll count kept on %s', (name, open) => {
  const skip = name === 'PostgreSQL' && !server;

  it.skipIf(skip)('equals the count of the rows after rolls, a re-roll, a void, a sealed roll, rulings, and rolls outside the game', async () => {
    const b = await open();
    const dice = queueRoller();
    const router = createRouter({ ledger: b.store, log: createLogger({ level: 'silent' }), roller: dice, gameRoller: () => dice });
    await say(router, alice, 'game', { system: 'hearts-of-tin', name: 'Waterloo' }, 'start');
    await say(router, other, 'game', { system: 'asl', name: 'Bastogne' }, 'start');
    dice.push(1);
    const failed = await say(router, alice, 'rally', { disorder: 2, commander_near: true });
    dice.push(5);
    await router.handle({ type: 'button', customId: buttonOf(failed)!, actor: gm });
    dice.push(4, 6);
    await say(router, bob, 'rally', { disorder: 1 });
    const sealed = await say(router, bob, 'rally', { disorder: 1, sealed: true });
    await say(router, gm, 'void', { id: rollIdOf(sealed), reason: 'wrong unit' });
    await say(router, bob, 'disorder', { strength: 4, lost: 1, melee: 'defeated' });
    dice.push(3, 3, 2, 5);
    await say(router, { ...alice, channelId: 'c3' }, 'mc', { unit: 'German 4-6-7' });
    await say(router, other, 'mc', { unit: 'German 4-6-7' });
    expect(dice.pending()).toBe(0);
    const { counted, kept } = await counts(b.sql);
    // alice's rally, gm's re-roll, bob's two rallies in Waterloo; alice's MC in Bastogne.
    expect(counted.map((c) => c.n).sort()).toEqual([1, 1, 1, 2]);
    expect(kept).toEqual(counted);
    await b.close();
  });

  it.skipIf(skip)('is filled from the rows on record by the migration that adds it', async () => {
    const rows = [
      ['r1', 'g1', 'alice', 'roll'],
      ['r2', 'g1', 'alice', 'reroll'],
      ['r3', 'g1', 'bob', 'roll'],
      ['r4', 'g1', 'bob', 'check'],
      ['r5', 'g1', 'gm', 'void'],
      ['r6', 'g2', 'alice', 'roll'],
      ['r7', null, 'alice', 'roll'],
    ];
    const expected = [
      { game_id: 'g1', user_id: 'alice', n: 2 },
      { game_id: 'g1', user_id: 'bob', n: 1 },
      { game_id: 'g2', user_id: 'alice', n: 1 },
    ];
    const insert = `INSERT INTO rolls (id, guild_id, guild_seq, channel_id, user_id, user_name, game_id, command, kind, input, dice, outcome, created_at, prev_hash, hash)
      VALUES (?, 'g', ?, 'c', ?, 'U', ?, 'rally', ?, '{}', '[]', '{}', 'T', 'p', 'h')`;
    if (name === 'SQLite') {
      const db = openDatabase(tmpDb());
      migrate(
        db,
        readMigrations().filter((m) => m.name !== 'player_roll_counts'),
      );
      for (const [i, [id, game, user, kind]] of rows.entries()) db.prepare(insert).run(id, i + 1, user, game, kind);
      migrate(db);
      expect(db.prepare('SELECT game_id, user_id, n FROM player_roll_counts ORDER BY 1, 2').all()).toEqual(expected);
      db.close();
      return;
    }
    // PostgreSQL: the rows written where the migrations before it left the database, then the ledger opened as the bot opens it.
    const url = await freshDatabase(server!);
    const first = await PgLedger.connect(url);
    await first.close();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    // The database as the migrations before this one left it: this one's table and record gone.
    await c.query("DROP TABLE player_roll_counts; DELETE FROM schema_migrations WHERE name = 'player_roll_counts'");
    for (const [i, [id, game, user, kind]] of rows.entries()) await c.query(numbered(insert), [id, i + 1, user, game, kind]);
    await c.end();
    const ledger = await PgLedger.connect(url);
    expect((await ledger.pool.query('SELECT game_id, user_id, n FROM player_roll_counts ORDER BY 1, 2')).rows).toEqual(expected);
    await ledger.close();
  });
});

describe.skipIf(!server)('the game roll count on PostgreSQL, rolls racing', () => {
  it('three processes rolling at once in one game: the counts equal the rows, and every roll used its own k (the game verifies)', async () => {
    const url = await freshDatabase(server!);
    const stores = await Promise.all([1, 2, 3].map(() => PgStore.connect(url, { max: 4 })));
    // Each process with its own router and the bot's own dice: the game's seeded per-player dice.
    const routers = stores.map((store) => createRouter({ ledger: store, log: createLogger({ level: 'silent' }) }));
    const players = ['p1', 'p2', 'p3', 'p4'].map((id): Actor => ({ ...alice, userId: id, userName: id }));
    expect((await say(routers[0]!, players[0]!, 'game', { system: 'asl', name: 'Race' }, 'start')).type).toBe('message');
    const rolls = Array.from({ length: 36 }, (_, i) => say(routers[i % 3]!, players[i % 4]!, 'dr', {}));
    for (const r of await Promise.all(rolls)) expect(r.type).toBe('message');
    const sql: Sql = { rows: async <T>(s: string, p: unknown[] = []) => (await stores[0]!.ledger.pool.query(numbered(s), p)).rows as T[] };
    const { counted, kept } = await counts(sql);
    expect(counted.map((c) => c.n)).toEqual([9, 9, 9, 9]);
    expect(kept).toEqual(counted);
    // /verify recomputes every die from each player's own sequence: a k used twice or skipped fails it.
    const verified = await say(routers[1]!, gm, 'verify', {});
    expect(JSON.stringify(verified)).toContain('Ledger intact');
    await Promise.all(stores.map((s) => s.close()));
  });
});
