import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/core/command.js';
import { GuildPresence, RetentionSweeper } from '../../src/core/retention.js';
import { PG_ONLY } from '../../src/ledger/postgres/pg-retention.js';
import { GUILD_TABLES, ROLL_CHILD_TABLES } from '../../src/ledger/retention.js';
import type { LedgerStore } from '../../src/ledger/store.js';
import { createLogger } from '../../src/log.js';
import { testPostgres } from '../helpers/postgres.js';
import { fillServer, nextInteraction, postgresBackend, routerOver, sqliteBackend, type Backend, type Row } from '../helpers/retention.js';

// Retention: a server's data is deleted a while after the bot leaves it, on both backends, as the
// sweep does it. The clock is the test's: every departure and sweep is at a time it names.
const server = await testPostgres();
afterAll(() => server?.stop());

const G1 = '910000000000000001';
const G2 = '910000000000000002';
const G3 = '910000000000000003';
const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2027-03-01T12:00:00.000Z');
const at = (ms: number) => () => new Date(ms);

const BACKENDS: [string, () => Promise<Backend>][] = [
  ['SQLite', sqliteBackend],
  ['PostgreSQL', () => (server ? postgresBackend(server) : Promise.reject(new Error('no PostgreSQL')))],
];

/** A column that holds a roll's id: a table with one holds a server's rows whatever else it has. */
const ROLL_ID = /(^|_)roll_id$|^parent_id$|^answer_id$/;

/** Every table's rows, each table sorted, so two readings compare whatever order a backend returns. */
async function dump(b: Backend): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of await b.tables()) out[t] = (await b.rows(t)).map((r) => JSON.stringify(r)).sort();
  return out;
}

/** Whether a row is the server's: its own column, or a roll or game of it named. */
function ofServer(guildId: string, rolls: Set<string>, games: Set<string>) {
  return (json: string) => {
    const r = JSON.parse(json) as Row;
    return r.guild_id === guildId || rolls.has(String(r.roll_id)) || games.has(String(r.game_id));
  };
}

const idsOf = (rows: string[], guildId: string) =>
  new Set(rows.map((j) => JSON.parse(j) as Row).flatMap((r) => (r.guild_id === guildId ? [String(r.id)] : [])));

function logged() {
  const logs: string[] = [];
  return {
    logs,
    log: createLogger({ level: 'debug', write: (l) => logs.push(l) }),
    purges: () => logs.filter((l) => l.includes('deleted the data of a server')),
  };
}

const gmOf = (guildId: string): Actor => ({ guildId, channelId: `${guildId}-c1`, userId: `${guildId}-gm`, userName: 'Game Master', isGm: true });

async function setDays(store: LedgerStore, guildId: string, days: number) {
  const r = await routerOver(store).router.handle({ type: 'command', name: 'config', subcommand: 'retention', options: { days }, actor: gmOf(guildId) });
  expect(r.type).toBe('message');
}

describe.each(BACKENDS)('retention on %s', (name, make) => {
  const skip = name === 'PostgreSQL' && !server;
  let b: Backend | undefined;
  afterEach(async () => {
    await b?.close();
    b = undefined;
  });

  it.skipIf(skip)('a server left 31 days ago is deleted at the sweep, every table empty of it; the other server untouched, its chain whole', async () => {
    b = await make();
    await fillServer(b.store, G1);
    await fillServer(b.store, G2);
    const before = await dump(b);
    const g2Rows = (await b.store.verifyInChunks(G2)).count;
    await new GuildPresence(b.store, logged().log, at(NOW - 31 * DAY)).left(G1);
    const { log, purges } = logged();
    expect(await new RetentionSweeper(b.store, 30, log, at(NOW)).sweep()).toBe(1);

    const after = await dump(b);
    const mine = ofServer(G1, idsOf(before.rolls!, G1), idsOf(before.games!, G1));
    for (const [table, rows] of Object.entries(after)) {
      expect(rows.filter(mine), `${table} still holds the server's rows`).toEqual([]);
      // Nothing else changed: every other row is as it was, none added.
      expect(rows, `${table}: the other rows as they were`).toEqual(before[table]!.filter((r) => !mine(r)));
    }
    // Nothing left pointing at a roll or a game that is gone.
    const rolls = new Set((after.rolls ?? []).map((j) => String((JSON.parse(j) as Row).id)));
    for (const [table, rows] of Object.entries(after))
      for (const r of rows.map((j) => JSON.parse(j) as Row))
        for (const [col, v] of Object.entries(r)) if (ROLL_ID.test(col) && v !== null) expect(rolls.has(String(v)), `${table}.${col} ${v}`).toBe(true);

    const removed = Object.entries(before).reduce((n, [t, rows]) => n + rows.length - after[t]!.length, 0);
    expect(purges()).toHaveLength(1);
    const line = JSON.parse(purges()[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ guild: G1, rows: removed, days: 30 });
    // The server's id and a count: no player's or server's name.
    for (const named of ['Alice', 'Bob', 'Game Master', 'Waterloo', '1st Foot']) expect(purges()[0]).not.toContain(named);

    expect(await b.store.verifyInChunks(G2)).toMatchObject({ ok: true, count: g2Rows });
    const verified = await routerOver(b.store).router.handle({ type: 'command', name: 'verify', options: {}, actor: gmOf(G2) });
    expect(JSON.stringify(verified)).toContain('Ledger intact');
    expect(await b.store.verifyInChunks(G1)).toMatchObject({ ok: true, count: 0 });
    expect(await b.store.retention.departures('', '', 10)).toEqual([]);
    // A server the bot joins again starts a chain of its own from nothing.
    const again = await routerOver(b.store).router.handle({ type: 'command', name: 'config', subcommand: 'gm-role', options: { role: '5' }, actor: gmOf(G1) });
    expect(again.type).toBe('message');
    expect(await b.store.verifyInChunks(G1)).toMatchObject({ ok: true, count: 1 });
  });

  it.skipIf(skip)('a server the bot came back to is not deleted; nor one whose time is not up', async () => {
    b = await make();
    await fillServer(b.store, G1);
    await fillServer(b.store, G2);
    const before = await dump(b);
    const presence = (ms: number) => new GuildPresence(b!.store, logged().log, at(ms));
    await presence(NOW - 40 * DAY).left(G1);
    expect(await presence(NOW - 39 * DAY).back(G1)).toBe(true);
    await presence(NOW - 29 * DAY).left(G2);
    const { log, purges } = logged();
    expect(await new RetentionSweeper(b.store, 30, log, at(NOW)).sweep()).toBe(0);
    expect(purges()).toEqual([]);
    expect(await dump(b)).toEqual({
      ...before,
      guild_departures: [JSON.stringify({ guild_id: G2, left_at: new Date(NOW - 29 * DAY).toISOString(), purging: 0 })],
    });
    // A day on, G2's time is up.
    expect(await new RetentionSweeper(b.store, 30, log, at(NOW + DAY)).sweep()).toBe(1);
  });

  it.skipIf(skip)("a server's own /config retention replaces RETENTION_DAYS, either way; 0 deletes at the next sweep", async () => {
    b = await make();
    for (const g of [G1, G2, G3]) await fillServer(b.store, g);
    await setDays(b.store, G1, 3);
    await setDays(b.store, G2, 60);
    const leave = (g: string, daysAgo: number) => new GuildPresence(b!.store, logged().log, at(NOW - daysAgo * DAY)).left(g);
    await leave(G1, 5);
    await leave(G2, 40);
    await leave(G3, 0);
    const { log, purges } = logged();
    // The host keeps 30 days: G1's own 3 are up, G2's own 60 are not, G3 (none of its own) has 30 to go.
    expect(await new RetentionSweeper(b.store, 30, log, at(NOW)).sweep()).toBe(1);
    expect(purges().map((l) => JSON.parse(l).guild)).toEqual([G1]);
    // The host keeps none: G3 goes at the next sweep; G2 keeps its own 60 days.
    expect(await new RetentionSweeper(b.store, 0, log, at(NOW)).sweep()).toBe(1);
    expect(purges().map((l) => JSON.parse(l).guild)).toEqual([G1, G3]);
    expect((await b.store.retention.departures('', '', 10)).map((d) => [d.guild_id, d.retention_days])).toEqual([[G2, 60]]);
  });

  it.skipIf(skip)('two sweeps at once, as two processes on one database: the server is deleted once', async () => {
    b = await make();
    await fillServer(b.store, G1);
    await fillServer(b.store, G2);
    await new GuildPresence(b.store, logged().log, at(NOW - 31 * DAY)).left(G1);
    const other = await b.other();
    const { log, purges } = logged();
    let second: LedgerStore = other;
    if (name === 'SQLite') {
      // One thread holds both connections here: the second purge starts once the first has
      // committed (each process has its own thread, and SQLite's write lock makes them take turns).
      let firstDone: () => void = () => undefined;
      const done = new Promise<void>((r) => {
        firstDone = r;
      });
      const first = b.store;
      b.store = new Proxy(first, {
        get: (t, p) => (p === 'purgeGuild' ? (g: string, l: string) => t.purgeGuild(g, l).finally(firstDone) : Reflect.get(t, p, t)),
      });
      second = new Proxy(other, {
        get: (t, p) => (p === 'purgeGuild' ? async (g: string, l: string) => done.then(() => t.purgeGuild(g, l)) : Reflect.get(t, p, t)),
      });
    }
    const counts = await Promise.all([new RetentionSweeper(b.store, 30, log, at(NOW)).sweep(), new RetentionSweeper(second, 30, log, at(NOW)).sweep()]);
    expect(counts.sort()).toEqual([0, 1]);
    expect(purges()).toHaveLength(1);
    expect(await b.store.verifyInChunks(G1)).toMatchObject({ count: 0 });
    expect((await b.store.verifyInChunks(G2)).ok).toBe(true);
  });

  it.skipIf(skip)("another server's roll made while a purge runs is recorded, its chain whole", async () => {
    b = await make();
    await fillServer(b.store, G1);
    await fillServer(b.store, G2);
    const g2Rows = (await b.store.verifyInChunks(G2)).count;
    await new GuildPresence(b.store, logged().log, at(NOW - 31 * DAY)).left(G1);
    const { router, dice } = routerOver(b.store);
    dice.push(3, 4);
    const [purged, roll] = await Promise.all([
      new RetentionSweeper(b.store, 30, logged().log, at(NOW)).sweep(),
      router.handle({ type: 'command', name: 'dr', options: {}, actor: gmOf(G2), interactionId: nextInteraction() }),
    ]);
    expect(purged).toBe(1);
    expect(roll.type).toBe('message');
    expect(await b.store.verifyInChunks(G2)).toMatchObject({ ok: true, count: g2Rows + 1 });
    expect(await b.store.verifyInChunks(G1)).toMatchObject({ count: 0 });
  });

  it.skipIf(skip)('a plain DELETE of the chain or a sealed payload is still refused: of a server here, of one left, after a purge', async () => {
    b = await make();
    await fillServer(b.store, G1);
    await fillServer(b.store, G2);
    const refused = /append-only/;
    const tryDelete = (g: string) => b!.raw(`DELETE FROM rolls WHERE guild_id = ${b!.name === 'sqlite' ? '?' : '$1'}`, [g]);
    const trySealed = (g: string) => b!.raw(`DELETE FROM sealed_payloads WHERE guild_id = ${b!.name === 'sqlite' ? '?' : '$1'}`, [g]);
    await expect(tryDelete(G2)).rejects.toThrow(refused);
    await expect(trySealed(G2)).rejects.toThrow(refused);
    await expect(b.raw("UPDATE rolls SET result = 'huzzah'")).rejects.toThrow(refused);
    // Left, and waiting for its sweep: still refused (only the purge's own transaction marks it).
    await new GuildPresence(b.store, logged().log, at(NOW - 31 * DAY)).left(G1);
    await expect(tryDelete(G1)).rejects.toThrow(refused);
    await expect(trySealed(G1)).rejects.toThrow(refused);
    await new RetentionSweeper(b.store, 30, logged().log, at(NOW)).sweep();
    // Back, with a new chain: its rows are refused as any.
    await setDays(b.store, G1, 10);
    await expect(tryDelete(G1)).rejects.toThrow(refused);
    await expect(tryDelete(G2)).rejects.toThrow(refused);
  });

  it.skipIf(skip)('every table with a server id, a roll id or a key to such a table is one the purge empties (read from the schema)', async () => {
    b = await make();
    const purged = new Set([
      'rolls',
      'guild_departures',
      ...ROLL_CHILD_TABLES,
      ...GUILD_TABLES.map((t) => t.table),
      ...(name === 'PostgreSQL' ? PG_ONLY.map((t) => t.table) : []),
    ]);
    const holding: string[] = [];
    for (const table of await b.tables()) {
      const columns = await b.columns(table);
      const refers = await b.refersTo(table);
      if (columns.includes('guild_id') || columns.some((c) => ROLL_ID.test(c)) || refers.some((t) => purged.has(t))) holding.push(table);
    }
    expect(
      holding.filter((t) => !purged.has(t)),
      'tables that hold a server’s rows and that the purge leaves',
    ).toEqual([]);
    // The check sees what it must: the tables known to hold a server's rows are found by it.
    expect(holding).toEqual(expect.arrayContaining(['rolls', 'units', 'roll_messages', 'roll_deliveries', 'dice_tallies', 'interaction_evidence']));
    expect(holding).not.toContain('signing_keys');
  });

  it.skipIf(skip)(
    'the listing of the bot’s servers marks the ones it left and clears the ones it is back in; an older listing clears no newer departure',
    async () => {
      b = await make();
      for (const g of [G1, G2]) await fillServer(b.store, g);
      const presence = (ms: number) => new GuildPresence(b!.store, logged().log, at(ms));
      // Discord lists G2 alone: G1, which the ledger knows, is left from now.
      expect(await presence(NOW - 10 * DAY).reconcile(new Set([G2]), new Date(NOW - 10 * DAY).toISOString())).toEqual({ left: 1, back: 0 });
      expect(await presence(NOW - 9 * DAY).reconcile(new Set([G2]), new Date(NOW - 9 * DAY).toISOString())).toEqual({ left: 0, back: 0 });
      expect((await b.store.retention.departures('', '', 10)).map((d) => d.left_at)).toEqual([new Date(NOW - 10 * DAY).toISOString()]);
      // Listed again: back.
      expect(await presence(NOW - 8 * DAY).reconcile(new Set([G1, G2]), new Date(NOW - 8 * DAY).toISOString())).toEqual({ left: 0, back: 1 });
      expect(await b.store.retention.departures('', '', 10)).toEqual([]);
      // A listing taken before the bot left (and answered after) does not undo that departure.
      await presence(NOW - 5 * DAY).left(G1);
      expect(await presence(NOW - 4 * DAY).reconcile(new Set([G1, G2]), new Date(NOW - 6 * DAY).toISOString())).toEqual({ left: 0, back: 0 });
      expect((await b.store.retention.departures('', '', 10)).map((d) => d.guild_id)).toEqual([G1]);
      // A listing that speaks for other servers (another shard's) leaves this one as it is.
      await presence(NOW - 3 * DAY).back(G1);
      expect(await presence(NOW - 2 * DAY).reconcile(new Set([G2]), new Date(NOW - 2 * DAY).toISOString(), (g) => g !== G1)).toEqual({ left: 0, back: 0 });
      expect(await b.store.retention.departures('', '', 10)).toEqual([]);
    },
  );

  it.skipIf(skip)('departures are read a page at a time: the sweep reaches past the first page', async () => {
    b = await make();
    const presence = new GuildPresence(b.store, logged().log, at(NOW - 31 * DAY));
    // 450 servers with a setting each (and nothing else): three pages of departures.
    const ids = Array.from({ length: 450 }, (_, i) => String(920000000000000000n + BigInt(i)));
    await b.store.transaction(async (tx) => {
      for (const g of ids) {
        await tx.settings.setGmRole(g, '7');
        await tx.retention.markLeft(g, new Date(NOW - 31 * DAY).toISOString());
      }
    });
    expect((await b.store.retention.knownGuilds()).length).toBe(450);
    await presence.left(G1);
    expect(await new RetentionSweeper(b.store, 30, logged().log, at(NOW)).sweep()).toBe(451);
    expect(await b.store.retention.knownGuilds()).toEqual([]);
  });
});

it('the interaction ids the fixture uses are new each time', () => {
  expect(nextInteraction()).not.toBe(nextInteraction());
});
