import { afterAll, describe, expect, it } from 'vitest';
import { AlreadyRecordedError } from '../../src/ledger/errors.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { PgStore } from '../../src/ledger/postgres/pg-store.js';
import { DuplicateUnitError, GameRunningError } from '../../src/ledger/roster.js';
import type { NewEntry } from '../../src/ledger/rows.js';
import { sqliteStore, type LedgerStore } from '../../src/ledger/store.js';
import { ledgerEntry, testGame } from '../helpers/ledger.js';
import { freshDatabase, testPostgres } from '../helpers/postgres.js';
import { tmpDb } from '../helpers/tmp.js';
import { readiness } from '../../src/ops/readiness.js';
import { recountTally, TallyCount, tallyId, type StoredTally } from '../../src/ledger/tally.js';

// The ledger as the bot uses it (LedgerStore), one suite for both backends. Every
// expectation is the same on SQLite and on PostgreSQL: what the bot sees must not depend on it.
const server = await testPostgres();
afterAll(() => server?.stop());

const backends: [string, () => Promise<LedgerStore>][] = [
  ['SQLite', async () => sqliteStore(Ledger.open(tmpDb()))],
  ['PostgreSQL', async () => PgStore.connect(await freshDatabase(server!))],
];
const at = '2026-11-30T12:00:00.000Z';
const game = testGame;
const unit = (gameId: string, name: string, fields: Record<string, unknown> = {}) => ({
  game_id: gameId,
  name,
  owner_id: 'u1',
  owner_name: 'U',
  side: null,
  fields,
  at,
});

describe.each(backends)('the ledger store on %s', (name, open) => {
  const skip = name === 'PostgreSQL' && !server;
  const append = (store: LedgerStore, over: Partial<NewEntry> = {}) => store.transaction((tx) => tx.append(ledgerEntry(over)), over.guildId ?? 'g1');

  it.skipIf(skip)('rows: appended in transactions, read back by guild; a failed transaction leaves nothing', async () => {
    const store = await open();
    const a = await append(store, { unit: 'Rifles' });
    const b = await append(store, { parentId: a.id, kind: 'reroll', onceKey: `reroll:${a.id}` });
    expect((await store.get('g1', a.id))?.id).toBe(a.id);
    expect(await store.get('g2', a.id)).toBeUndefined();
    expect((await store.children('g1', a.id)).map((r) => r.id)).toEqual([b.id]);
    await expect(append(store, { parentId: a.id, kind: 'reroll', onceKey: `reroll:${a.id}` })).rejects.toEqual(
      new AlreadyRecordedError(`reroll:${a.id} was already recorded`),
    );
    // Everything in a transaction that throws is undone, rows and roster alike.
    await expect(
      store.transaction(async (tx) => {
        await tx.append(ledgerEntry());
        await tx.roster.startGame(game('x'));
        throw new RangeError('changed my mind');
      }, 'g1'),
    ).rejects.toThrow('changed my mind');
    expect(await store.roster.activeGame('g1', 'c1')).toBeUndefined();
    expect(await store.verifyInChunks('g1')).toMatchObject({ ok: true, count: 2 });
    // The metrics' row total: every guild's rows, the failed transaction's not among them.
    await append(store, { guildId: 'g2' });
    expect(await store.rowTotal()).toBe(3);
    await store.close();
  });

  it.skipIf(skip)('receipt keys: registered once, listed oldest first, retired once', async () => {
    const store = await open();
    const a = { fingerprint: 'aaaa', public_key: 'A'.repeat(43), valid_from: '2026-11-01T00:00:00.000Z', valid_until: null };
    const b = { fingerprint: 'bbbb', public_key: 'B'.repeat(43), valid_from: '2026-11-20T00:00:00.000Z', valid_until: null };
    await store.transaction(async (tx) => {
      await tx.keys.register(b);
      await tx.keys.register(a);
      await tx.keys.register({ ...a, public_key: 'C'.repeat(43) });
    });
    expect(await store.keys.list()).toEqual([a, b]);
    await store.transaction(async (tx) => {
      await tx.keys.retire('aaaa', '2026-11-20T00:00:00.000Z');
      await tx.keys.retire('aaaa', '2026-11-30T00:00:00.000Z');
    });
    expect(await store.keys.list()).toEqual([{ ...a, valid_until: '2026-11-20T00:00:00.000Z' }, b]);
    await store.close();
  });

  it.skipIf(skip)('readiness (/readyz, the heartbeat): writable while open, not once the database is gone, with the reason', async () => {
    const store = await open();
    expect(await readiness('http', () => true, store)).toEqual({ ready: true, mode: 'http', serving: true, writable: true });
    expect(await readiness('gateway', () => false, store)).toEqual({
      ready: false,
      mode: 'gateway',
      serving: false,
      writable: true,
      reason: 'not connected to the Discord gateway',
    });
    await store.close();
    const closed = await readiness('http', () => true, store);
    expect(closed).toMatchObject({ ready: false, serving: true, writable: false });
    expect(closed.reason).toMatch(/^the ledger is not writable: ./);
  });

  it.skipIf(skip)('games: one running per channel, turns, seeds, the end; their rolls counted and numbered', async () => {
    const store = await open();
    await store.transaction((tx) => tx.roster.startGame(game('a')), 'g1');
    await expect(store.transaction((tx) => tx.roster.startGame(game('b')), 'g1')).rejects.toBeInstanceOf(GameRunningError);
    await store.transaction(async (tx) => {
      await tx.roster.setTurn('a', 3, 'Rally Phase');
      await tx.roster.setSeedCommitments('a', [
        { user_id: 'u1', user_name: 'A', commitment: 'c1', seed: 'one' },
        { user_id: 'u2', user_name: 'B', commitment: 'c2', seed: null },
      ]);
    }, 'g1');
    expect(await store.roster.activeGame('g1', 'c1')).toMatchObject({ id: 'a', turn: 3, phase: 'Rally Phase', player_seeds: '["one"]' });
    const seqs = [];
    for (let i = 0; i < 3; i++) {
      seqs.push(
        await store.transaction(async (tx) => {
          const seq = await tx.nextGameSeq('a');
          await tx.append(ledgerEntry({ gameId: 'a', gameSeq: seq, kind: i === 2 ? 'check' : 'roll' }));
          return seq;
        }, 'g1'),
      );
    }
    expect(seqs).toEqual([1, 2, 3]);
    expect([await store.gameRollCount('g1', 'a'), await store.gameRulingCount('g1', 'a')]).toEqual([2, 1]);
    await store.transaction((tx) => tx.roster.endGame('a', at), 'g1');
    expect(await store.roster.activeGame('g1', 'c1')).toBeUndefined();
    expect(await store.roster.game('g1', 'a')).toMatchObject({ ended_at: at });
    expect(await store.roster.game('g2', 'a')).toBeUndefined();
    await store.close();
  });

  it.skipIf(skip)("game rows: a player's game rolls counted, the unrevealed sealed ones listed, the scheme kept", async () => {
    const store = await open();
    await store.transaction((tx) => tx.roster.startGame({ ...game('a'), dice_scheme: 'player-v1' }), 'g1');
    expect((await store.roster.game('g1', 'a'))!.dice_scheme).toBe('player-v1');
    await store.transaction((tx) => tx.roster.startGame(game('b', 'c2')), 'g1');
    expect((await store.roster.game('g1', 'b'))!.dice_scheme).toBeNull();
    const inGame = { gameId: 'a', gameSeq: 1 };
    await append(store, { ...inGame, userId: 'alice' });
    await append(store, { ...inGame, userId: 'alice', kind: 'reroll' });
    await append(store, { ...inGame, userId: 'alice', kind: 'check' });
    await append(store, { ...inGame, userId: 'bob' });
    await append(store, { gameId: 'b', gameSeq: 1, userId: 'alice' });
    const sealedA = await append(store, { ...inGame, userId: 'bob', sealed: { effects: [] } });
    const sealedB = await append(store, { ...inGame, userId: 'bob', sealed: { effects: [] } });
    await append(store, { kind: 'reveal', parentId: sealedA.id, onceKey: `reveal:${sealedA.id}` });
    const counts = await store.transaction(
      async (tx) => [
        await tx.playerRollCount('a', 'alice'),
        await tx.playerRollCount('a', 'bob'),
        await tx.playerRollCount('a', 'carol'),
        await tx.playerRollCount('b', 'alice'),
      ],
      'g1',
    );
    expect(counts).toEqual([2, 3, 0, 1]);
    const unrevealed = await store.transaction((tx) => tx.unrevealedSealed('g1', 'a'), 'g1');
    expect(unrevealed.map((r) => r.id)).toEqual([sealedB.id]);
    expect(await store.transaction((tx) => tx.unrevealedSealed('g2', 'a'), 'g1')).toEqual([]);
    await store.close();
  });

  // The dice report's aggregates, kept by the append of a roll, its reveal and its void.
  it.skipIf(skip)('dice tallies: a public roll counts at once, a sealed one at its reveal, a voided one never; sums filter and group', async () => {
    const store = await open();
    const sum = async (f: Partial<Parameters<LedgerStore['tallySums']>[0]> = {}, by?: 'user' | 'side' | 'category' | 'command') =>
      (await store.tallySums({ guildId: 'g1', ...f }, by)).map((t) => [t.shape, t.grp, Number(t.total), Number(t.n)]).sort();
    const dr = (over: Partial<NewEntry>, total: number, side: string, category: string) =>
      append(store, {
        command: 'dr',
        system: 'asl',
        dice: [1, total - 1],
        outcome: { steps: [], tally: { shape: '2d6', total }, category, side },
        result: String(total),
        ...over,
      });
    const a = await append(store, { dice: [4] });
    await append(store, { dice: [4], userId: 'u2' });
    await dr({}, 7, 'axis', 'IFT');
    await dr({ userId: 'u2' }, 9, 'allied', 'TH');
    // Not a roll, no dice, another guild: nothing.
    await append(store, { kind: 'check', dice: [] });
    await append(store, { guildId: 'g2', dice: [6] });
    expect(await sum()).toEqual([
      ['1d6', '', 4, 2],
      ['2d6', '', 7, 1],
      ['2d6', '', 9, 1],
    ]);
    expect(await sum({}, 'side')).toEqual([
      ['1d6', '', 4, 2],
      ['2d6', 'allied', 9, 1],
      ['2d6', 'axis', 7, 1],
    ]);
    expect(await sum({ category: 'IFT' })).toEqual([['2d6', '', 7, 1]]);
    expect(await sum({ userId: 'u2' }, 'command')).toEqual([
      ['1d6', 'rally', 4, 1],
      ['2d6', 'dr', 9, 1],
    ]);
    // A sealed roll counts only once revealed; a void takes a counted roll out.
    const sealed = await append(store, { dice: [2], outcome: { steps: [] }, sealed: { effects: [] } });
    expect((await sum()).find((t) => t[2] === 2)).toBeUndefined();
    const payload = (await store.sealedPayloads('g1', [sealed.id])).get(sealed.id)!.payload;
    await append(store, { kind: 'reveal', command: 'reveal', parentId: sealed.id, input: { roll: sealed.id, payload }, dice: [], result: 'revealed' });
    expect((await sum()).find((t) => t[2] === 2)).toEqual(['1d6', '', 2, 1]);
    await append(store, { kind: 'void', command: 'void', parentId: a.id, input: { reason: 'x' }, dice: [], result: 'voided' });
    expect((await sum()).find((t) => t[2] === 4)).toEqual(['1d6', '', 4, 1]);
    // A sealed roll voided before its reveal is never counted, even once revealed.
    const hidden = await append(store, { dice: [3], sealed: { effects: [] } });
    await append(store, { kind: 'void', command: 'void', parentId: hidden.id, input: { reason: 'y' }, dice: [], result: 'voided' });
    const hiddenPayload = (await store.sealedPayloads('g1', [hidden.id])).get(hidden.id)!.payload;
    await append(store, {
      kind: 'reveal',
      command: 'reveal',
      parentId: hidden.id,
      input: { roll: hidden.id, payload: hiddenPayload },
      dice: [],
      result: 'revealed',
    });
    expect((await sum()).find((t) => t[2] === 3)).toBeUndefined();
    // Keyed down to the hour of the roll; the stored tallies are what a recount of the rows gives.
    const hour = a.created_at.slice(0, 13);
    expect(await sum({ sinceHour: hour, untilHour: hour })).toEqual(await sum());
    expect(await sum({ sinceHour: '2999-01-01T00' })).toEqual([]);
    const count = new TallyCount();
    for (const row of await store.recountRows('g1', 0, 1000)) count.add(recountTally(row));
    const byId = (ts: StoredTally[]) => ts.map((t) => [tallyId(t), t.n]).sort();
    expect(byId(await store.guildTallies('g1'))).toEqual(byId(count.entries()));
    expect(
      count
        .entries()
        .map((t) => t.n)
        .reduce((x, y) => x + y, 0),
    ).toBe(4);
    await store.close();
  });

  it.skipIf(skip)('interaction ids: claimed once; those older than an hour pruned every 500th claim', async () => {
    const store = await open();
    const claim = (id: string, when: string) => store.transaction((tx) => tx.claimInteraction(id, 'g1', when), 'g1');
    expect(await claim('old', at)).toBe(true);
    expect(await claim('old', at)).toBe(false);
    const later = '2026-11-30T14:00:00.000Z';
    const recent = '2026-11-30T13:30:00.000Z';
    expect(await claim('recent', recent)).toBe(true);
    // Claims 4 to 499: no prune yet, so 'old' is still taken.
    for (let i = 4; i < 500; i++) await claim(`i${i}`, later);
    expect(await claim('old', later)).toBe(true); // the 500th claim prunes first: 'old' is free again
    expect(await claim('recent', later)).toBe(false); // within the hour: kept
    await store.close();
  });

  it.skipIf(skip)('rosters: names unique ignoring case, trimmed, renamed, removed; prefixes read literally; paging', async () => {
    const store = await open();
    await store.transaction(async (tx) => {
      await tx.roster.startGame(game('a'));
      for (const n of ['  Able ', 'Baker', 'A_1', 'A%2']) await tx.roster.addUnit(unit('a', n, { ml: 7 }));
    }, 'g1');
    await expect(store.transaction((tx) => tx.roster.addUnit(unit('a', 'ABLE')), 'g1')).rejects.toEqual(
      new DuplicateUnitError('there is already a unit named ABLE in this game'),
    );
    const able = (await store.roster.unitByName('a', 'able'))!;
    expect(able).toMatchObject({ name: 'Able', fields: { ml: 7 }, removed_at: null });
    await store.transaction((tx) => tx.roster.patchUnit(able.id, { name: 'Charlie', fields: { ml: 8 } }, at), 'g1');
    // A rename to another unit's name is refused; to its own name, differently written, it is not.
    await expect(store.transaction((tx) => tx.roster.patchUnit(able.id, { name: 'baker' }, at), 'g1')).rejects.toEqual(
      new DuplicateUnitError('there is already a unit named Baker in this game'),
    );
    expect((await store.transaction((tx) => tx.roster.patchUnit(able.id, { name: ' charlie ' }, at), 'g1')).name).toBe('charlie');
    await store.transaction((tx) => tx.roster.patchUnit(able.id, { name: 'Charlie' }, at), 'g1');
    expect(await store.roster.unitByName('a', 'CHARLIE')).toMatchObject({ id: able.id, fields: { ml: 8 } });
    // A patch writes only what it names: the other fields and columns stay as stored.
    await store.transaction((tx) => tx.roster.patchUnit(able.id, { fields: { broken: true, pending: null } }, at), 'g1');
    await store.transaction((tx) => tx.roster.patchUnit(able.id, { side: 'Blue', owner_id: 'bob', owner_name: 'Bob' }, at), 'g1');
    expect(await store.roster.unit(able.id)).toMatchObject({
      name: 'Charlie',
      side: 'Blue',
      owner_id: 'bob',
      owner_name: 'Bob',
      fields: { ml: 8, broken: true, pending: null },
    });
    expect(await store.roster.unitNames('a', 'a_', 10)).toEqual(['A_1']);
    expect(await store.roster.unitNames('a', '', 10)).toEqual(['A%2', 'A_1', 'Baker', 'Charlie']);
    expect((await store.roster.units('a', 2, 1)).map((u) => u.name)).toEqual(['A_1', 'Baker']);
    await store.transaction((tx) => tx.roster.removeUnit(able.id, at), 'g1');
    expect(await store.roster.countUnits('a')).toBe(3);
    expect((await store.roster.everyUnit('a')).map((u) => [u.name, u.removed_at])).toEqual([
      ['Charlie', at],
      ['Baker', null],
      ['A_1', null],
      ['A%2', null],
    ]);
    await store.close();
  });

  it.skipIf(skip)('settings and saved queries: per server; a query lasts a day', async () => {
    const store = await open();
    expect(await store.settings.get('g1')).toEqual({ gm_role_id: null, gm_channel_id: null, log_channel_id: null });
    await store.transaction(async (tx) => {
      await tx.settings.setGmRole('g1', 'r1');
      await tx.settings.setGmChannel('g1', 'c5');
      await tx.settings.setGmRole('g1', 'r2');
      await tx.settings.setLogChannel('g1', 'log1');
    }, 'g1');
    expect(await store.settings.get('g1')).toEqual({ gm_role_id: 'r2', gm_channel_id: 'c5', log_channel_id: 'log1' });
    expect(await store.settings.get('g2')).toEqual({ gm_role_id: null, gm_channel_id: null, log_channel_id: null });
    const q = { id: 'q1', guild_id: 'g1', channel_id: 'c1', user_id: 'u1', params: { scope: 'channel' }, created_at: at };
    await store.queries.save(q);
    expect(await store.queries.get('g1', 'q1', at)).toEqual(q);
    expect(await store.queries.get('g2', 'q1', at)).toBeUndefined();
    expect(await store.queries.get('g1', 'q1', '2026-12-01T12:00:00.001Z')).toBe('expired');
    await store.close();
  });

  it.skipIf(skip)('history: every filter, newest first, counted to a cap; chunks oldest first; voids, reveals and message links', async () => {
    const store = await open();
    const rows: Awaited<ReturnType<typeof append>>[] = [];
    const shapes: Partial<NewEntry>[] = [
      { userId: 'u1', command: 'rally', system: 'hearts-of-tin', result: 'rally' },
      { userId: 'u2', command: 'mc', system: 'asl', result: 'broken', channelId: 'c2' },
      { userId: 'u1', command: 'morale', system: 'lightning-war', result: 'pass', gameId: 'gx', gameSeq: 1 },
      { userId: 'u2', command: 'rally', system: 'hearts-of-tin', result: 'retreat' },
      { userId: 'u1', command: 'disorder', system: 'hearts-of-tin', kind: 'check', result: 'disorder' },
      { guildId: 'g2', userId: 'u1' },
    ];
    for (const s of shapes) rows.push(await append(store, s));
    const ids = async (f: object) => (await store.history.page({ guildId: 'g1', ...f }, 10, 0)).rows.map((r) => rows.indexOf(rows.find((x) => x.id === r.id)!));
    expect(await ids({})).toEqual([4, 3, 2, 1, 0]);
    expect(await ids({ channelId: 'c1' })).toEqual([4, 3, 2, 0]);
    expect(await ids({ userId: 'u2' })).toEqual([3, 1]);
    expect(await ids({ system: 'hearts-of-tin' })).toEqual([4, 3, 0]);
    expect(await ids({ command: 'rally', result: 'retreat' })).toEqual([3]);
    expect(await ids({ gameId: 'gx' })).toEqual([2]);
    expect(await ids({ kinds: ['check'] })).toEqual([4]);
    expect(await ids({ until: '2000-01-01T00:00:00.000Z' })).toEqual([]);
    expect(await ids({ since: '2000-01-01T00:00:00.000Z' })).toEqual([4, 3, 2, 1, 0]);
    expect(await store.history.page({ guildId: 'g1' }, 2, 1, 4)).toMatchObject({ total: 4, capped: true });
    expect((await store.history.page({ guildId: 'g1' }, 2, 1, 5)).rows.map((r) => r.id)).toEqual([rows[3]!.id, rows[2]!.id]);
    const chunked = [];
    for await (const c of store.history.chunks({ guildId: 'g1' })) chunked.push(...c.map((r) => r.id));
    expect(chunked).toEqual(rows.slice(0, 5).map((r) => r.id));
    // The raw chunks keep the JSON columns as the text that was hashed.
    const raw = [];
    for await (const c of store.history.rawChunks({ guildId: 'g1', userId: 'u2' })) raw.push(...c.map((r) => [r.id, r.input]));
    expect(raw).toEqual([
      [rows[1]!.id, '{}'],
      [rows[3]!.id, '{}'],
    ]);
    const [a, b] = [rows[0]!, rows[1]!];
    await append(store, { kind: 'void', parentId: a.id, input: { reason: 'misclick' }, onceKey: `void:${a.id}` });
    await append(store, { kind: 'reveal', parentId: b.id, input: { payload: { dice: [3], outcome: {}, result: 'r', effects: [] } } });
    await store.transaction(async (tx) => {
      await tx.history.linkMessage(a.id, 'm1');
      await tx.history.linkMessage(a.id, 'm2');
    }, 'g1');
    expect(await store.history.voided('g1', [a.id, b.id])).toEqual(new Map([[a.id, 'misclick']]));
    expect(await store.history.voided('g2', [a.id])).toEqual(new Map());
    expect(await store.history.revealedPayloads('g1', [a.id, b.id])).toEqual(new Map([[b.id, { dice: [3], outcome: {}, result: 'r', effects: [] }]]));
    expect(await store.history.messages([a.id, b.id])).toEqual(new Map([[a.id, 'm1']]));
    await store.close();
  });

  it.skipIf(skip)('rolls never shown: found in their window, claimed by one process, settled, marked', async () => {
    const store = await open();
    const shown = await append(store);
    const ghost = await append(store);
    const ruling = await append(store, { kind: 'check' });
    const later = await append(store);
    await store.transaction((tx) => tx.history.linkMessage(shown.id, 'm1'), 'g1');
    const before = new Date(Date.parse(later.created_at) + 1).toISOString();
    const ids = async (since: string, until: string) => (await store.history.unshownRolls(since, until, 10)).map((r) => r.id);
    // Only rolls and re-rolls, only those no message showed, oldest first, within [since, before).
    expect(await ids('2000-01-01T00:00:00.000Z', before)).toEqual([ghost.id, later.id]);
    // (Two rows may share a millisecond: from the later one's time, the later one is among them.)
    expect(await ids(later.created_at, before)).toContain(later.id);
    expect(await ids('2000-01-01T00:00:00.000Z', ghost.created_at)).toEqual([]);
    expect(ruling.kind).toBe('check');
    // One claim wins; the claimed roll is no longer looked for, and reads as not delivered until settled.
    expect(await store.transaction((tx) => tx.history.claimDelivery(ghost.id, at), 'g1')).toBe(true);
    expect(await store.transaction((tx) => tx.history.claimDelivery(ghost.id, at), 'g1')).toBe(false);
    expect(await ids('2000-01-01T00:00:00.000Z', before)).toEqual([later.id]);
    expect(await store.history.undelivered([ghost.id, later.id])).toEqual(new Map([[ghost.id, 'not delivered: the bot stopped while posting it']]));
    await store.transaction((tx) => tx.history.settleDelivery(ghost.id, 'posted'), 'g1');
    expect(await store.history.undelivered([ghost.id])).toEqual(new Map());
    await store.transaction(async (tx) => {
      await tx.history.claimDelivery(later.id, at);
      await tx.history.settleDelivery(later.id, 'not delivered: Missing Permissions');
    }, 'g1');
    expect(await store.history.undelivered([ghost.id, later.id])).toEqual(new Map([[later.id, 'not delivered: Missing Permissions']]));
    await store.close();
  });

  it.skipIf(skip)('beacon bindings: kept pending, oldest first, settled once whoever races', async () => {
    const store = await open();
    const binding = (id: string, created_at: string) => ({
      interaction_id: id,
      guild_id: 'g1',
      channel_id: 'c1',
      user_id: 'alice',
      round: 23_927_296,
      request: JSON.stringify({ type: 'command', name: 'rally', options: { disorder: 1 } }),
      created_at,
    });
    const [a, b] = [binding('1445000000000000001', '2026-12-02T10:00:00.000Z'), binding('1445000000000000002', '2026-12-02T10:00:01.000Z')];
    await store.transaction((tx) => tx.history.bindBeacon(b), 'g1');
    await store.transaction((tx) => tx.history.bindBeacon(a), 'g1');
    expect(await store.history.pendingBindings(10)).toEqual([a, b]);
    expect(await store.history.pendingBindings(1)).toEqual([a]);
    // A binding is an interaction's: the same one twice is refused.
    await expect(store.transaction((tx) => tx.history.bindBeacon(a), 'g1')).rejects.toThrow();
    // Two processes settling one binding at once: one wins.
    const settled = await Promise.all([
      store.transaction((tx) => tx.history.settleBinding(a.interaction_id, 'rolled', 'roll1', at), 'g1'),
      store.transaction((tx) => tx.history.settleBinding(a.interaction_id, 'expired', null, at), 'g1'),
    ]);
    expect(settled.sort()).toEqual([false, true]);
    expect(await store.history.pendingBindings(10)).toEqual([b]);
    expect([await store.history.bindingPending(a.interaction_id), await store.history.bindingPending(b.interaction_id)]).toEqual([false, true]);
    expect(await store.history.bindingPending('1445000000000000009')).toBe(false);
    await store.close();
  });

  it.skipIf(skip)('units a channel rolled, newest first, by prefix; sealed payloads to whoever may see them', async () => {
    const store = await open();
    for (const u of ['Rifles', 'Guards', 'rifles', 'Grenadiers']) await append(store, { unit: u });
    await append(store, { unit: 'Elsewhere', channelId: 'c2' });
    expect(await store.recentUnits('g1', 'c1', '', 10, 'hearts-of-tin')).toEqual(['Grenadiers', 'rifles', 'Guards']);
    expect(await store.recentUnits('g1', 'c1', 'G', 10, 'hearts-of-tin')).toEqual(['Grenadiers', 'Guards']);
    expect(await store.recentUnits('g1', 'c1', 'r', 1, 'hearts-of-tin')).toEqual(['rifles']);
    expect(await store.recentUnits('g1', 'c1', '', 10, 'asl')).toEqual([]);
    const sealed = await append(store, { sealed: { effects: [] } } as Partial<NewEntry>);
    const kept = (await store.sealedPayloads('g1', [sealed.id])).get(sealed.id)!;
    expect(kept.salt).toMatch(/^[0-9a-f]{64}$/);
    expect(kept.payload).toEqual({ dice: [4], outcome: { steps: [] }, result: 'rally', effects: [] });
    expect(await store.sealedPayloads('g2', [sealed.id])).toEqual(new Map());
    expect(await store.verifyInChunks('g1', 3)).toMatchObject({ ok: true, count: 3 });
    await store.close();
  });

  it.skipIf(skip)('names its backend, and once closed answers no more', async () => {
    const store = await open();
    expect(store.backend).toBe(name === 'SQLite' ? 'sqlite' : 'postgres');
    await store.close();
    await expect(store.get('g1', 'x')).rejects.toThrow();
  });
});
