import { createRouter } from '../../src/app.js';
import type { Actor, Reply } from '../../src/core/command.js';
import type { Request } from '../../src/core/router.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { PgStore } from '../../src/ledger/postgres/pg-store.js';
import { sqliteStore, type LedgerStore } from '../../src/ledger/store.js';
import { createLogger, type Logger } from '../../src/log.js';
import { queueRoller } from './app.js';
import { fakeDiscordKey } from './beacon-game.js';
import { freshDatabase, type TestPostgres } from './postgres.js';
import { tmpDb } from './tmp.js';

/** A row as a table holds it (columns by name). */
export type Row = Record<string, unknown>;

/** One backend as the retention tests drive it: the store, a second store on the same data (another process), and its schema read raw. */
export type Backend = {
  name: 'sqlite' | 'postgres';
  store: LedgerStore;
  /** Another process's store on the same database. */
  other(): Promise<LedgerStore>;
  tables(): Promise<string[]>;
  columns(table: string): Promise<string[]>;
  /** The tables each table's foreign keys name. */
  refersTo(table: string): Promise<string[]>;
  rows(table: string): Promise<Row[]>;
  /** Runs raw SQL as an operator (or an attacker with the file) would, past the bot's code. */
  raw(sql: string, params?: unknown[]): Promise<unknown>;
  close(): Promise<void>;
};

export async function sqliteBackend(): Promise<Backend> {
  const file = tmpDb();
  const ledger = Ledger.open(file);
  const others: Ledger[] = [];
  const all = (sql: string, ...p: unknown[]) => ledger.db.prepare(sql).all(...p) as Row[];
  return {
    name: 'sqlite',
    store: sqliteStore(ledger),
    other: async () => {
      const l = Ledger.open(file);
      others.push(l);
      return sqliteStore(l);
    },
    tables: async () => all("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%' ORDER BY name").map((r) => String(r.name)),
    columns: async (t) => all('SELECT name FROM pragma_table_info(?)', t).map((r) => String(r.name)),
    refersTo: async (t) => all('SELECT DISTINCT "table" AS t FROM pragma_foreign_key_list(?)', t).map((r) => String(r.t)),
    rows: async (t) => all(`SELECT * FROM ${t}`),
    raw: async (sql, params = []) => ledger.db.prepare(sql).run(...params),
    close: async () => {
      for (const l of others) l.close();
      ledger.close();
    },
  };
}

export async function postgresBackend(server: TestPostgres): Promise<Backend> {
  const url = await freshDatabase(server);
  const store = await PgStore.connect(url);
  const others: PgStore[] = [];
  const all = async (sql: string, params: unknown[] = []) => (await store.ledger.pool.query(sql, params)).rows as Row[];
  return {
    name: 'postgres',
    store,
    other: async () => {
      const s = await PgStore.connect(url);
      others.push(s);
      return s;
    },
    tables: async () =>
      (await all("SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1")).map((r) =>
        String(r.t),
      ),
    columns: async (t) =>
      (await all("SELECT column_name AS c FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1", [t])).map((r) => String(r.c)),
    refersTo: async (t) =>
      (
        await all(
          `SELECT DISTINCT ccu.table_name AS t FROM information_schema.table_constraints tc
           JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name
           WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_name = $1`,
          [t],
        )
      ).map((r) => String(r.t)),
    rows: (t) => all(`SELECT * FROM ${t}`),
    raw: (sql, params = []) => store.ledger.pool.query(sql, params),
    close: async () => {
      for (const s of others) await s.close();
      await store.close();
    },
  };
}

let interaction = 1_445_100_000_000_000_000n;
/** A Discord interaction id, new each time (each is claimed once, in `interactions`). */
export const nextInteraction = () => String(++interaction);

/** The router over a store, with dice the test feeds, and the logs it writes. */
export function routerOver(store: LedgerStore, o: { retentionDays?: number } = {}) {
  const dice = queueRoller();
  const logs: string[] = [];
  const log: Logger = createLogger({ level: 'debug', write: (l) => logs.push(l) });
  const router = createRouter({ ledger: store, log, roller: dice, gameRoller: () => dice, ...o });
  return { router, dice, logs, log };
}

function expectMessage(r: Reply): Extract<Reply, { type: 'message' | 'update' }> {
  if (r.type !== 'message' && r.type !== 'update') throw new Error(`expected a message, got ${JSON.stringify(r)}`);
  return r;
}

/**
 * A server with a row in every table that holds a server's data, made as players make them
 * (through the router, each request its own interaction), plus what the bot writes beside them:
 * a message link, a late delivery's mark, a beacon binding.
 */
export async function fillServer(store: LedgerStore, guildId: string, channelId = `${guildId}-c1`): Promise<void> {
  const { router, dice } = routerOver(store);
  const alice: Actor = { guildId, channelId, userId: `${guildId}-alice`, userName: 'Alice', isGm: false };
  const bob: Actor = { ...alice, userId: `${guildId}-bob`, userName: 'Bob' };
  const gm: Actor = { ...alice, userId: `${guildId}-gm`, userName: 'Game Master', isGm: true };
  type Asked = Request extends infer R ? (R extends unknown ? Omit<R, 'actor' | 'interactionId'> : never) : never;
  const send = async (actor: Actor, req: Asked, faces: number[] = []) => {
    dice.push(...faces);
    return expectMessage(await router.handle({ ...req, actor, interactionId: nextInteraction() } as Request));
  };
  const sub = (actor: Actor, name: string, subcommand: string, options: Record<string, unknown>, faces: number[] = []) =>
    send(actor, { type: 'command', name, subcommand, options } as Asked, faces);
  const cmd = (actor: Actor, name: string, options: Record<string, unknown>, faces: number[] = []) => send(actor, { type: 'command', name, options }, faces);

  await sub(alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Waterloo' });
  await sub(alice, 'unit', 'add', { name: '1st Foot', fields: 'disorder:2 quality:regular original:4 strength:4' });
  const rally = await cmd(alice, 'rally', { unit: '1st Foot', commander_near: true }, [1]);
  await send(gm, { type: 'button', customId: rally.buttons[0]!.custom_id }, [5]);
  const sealed = await cmd(bob, 'rally', { disorder: 1, sealed: true }, [4]);
  await cmd(gm, 'reveal', { id: sealed.record!.roll_id });
  await cmd(alice, 'dr', { category: 'IFT' }, [3, 4]);
  await sub(gm, 'config', 'gm-role', { role: '123456789012345678' });
  for (let i = 0; i < 11; i++) await cmd(bob, 'morale', { morale: 'professional' }, [2, 2, 2]);
  await cmd(gm, 'history', { scope: 'server' });
  const users = { [bob.userId]: { name: 'Bob', bot: false, member: true } };
  await send(alice, { type: 'command', name: 'game', subcommand: 'clock', options: { remind_after: '12h' }, users } as Asked);
  await send(alice, { type: 'command', name: 'game', subcommand: 'turn', options: { number: 2, player: bob.userId }, users } as Asked);
  await send(alice, { type: 'command', name: 'ask', subcommand: 'roll', options: { player: bob.userId, roll: 'rally disorder:1' }, users } as Asked);
  // Discord's signed request, kept beside the roll it asked for.
  const signed = { name: 'dr', options: {}, actor: alice, interactionId: nextInteraction() };
  dice.push(2, 5);
  expectMessage(await router.handle({ type: 'command', ...signed, evidence: fakeDiscordKey().sign(signed, Date.now()) }));
  const at = store.timestamp();
  await store.transaction(async (tx) => {
    await tx.history.linkMessage(rally.record!.roll_id, '1111111111111111111');
    await tx.history.claimDelivery(sealed.record!.roll_id, at);
    await tx.history.settleDelivery(sealed.record!.roll_id, 'not delivered: Missing Access');
    await tx.history.bindBeacon({
      interaction_id: nextInteraction(),
      guild_id: guildId,
      channel_id: channelId,
      user_id: alice.userId,
      round: 23927296,
      request: JSON.stringify({ type: 'command', name: 'rally', options: { disorder: 1 }, actor: alice }),
      created_at: at,
    });
  }, guildId);
}
