import { afterAll, describe, expect, it } from 'vitest';
import type { ChannelQuery } from '../../src/ledger/contract.js';
import { InteractionTakenError } from '../../src/ledger/errors.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { PgStore } from '../../src/ledger/postgres/pg-store.js';
import { sqliteStore, type LedgerStore } from '../../src/ledger/store.js';
import type { LedgerTx } from '../../src/ledger/transaction.js';
import { ledgerEntry, testGame } from '../helpers/ledger.js';
import { freshDatabase, testPostgres } from '../helpers/postgres.js';
import { tmpDb } from '../helpers/tmp.js';

// A unit of work starts with its interaction's claim and asks for what it decides from at once
// (channelState): on PostgreSQL the claim goes with the guild's lock and the read is one statement;
// SQLite runs its several. Whatever the backend, the claim is made once, and the answer is what the
// reads it stands for answer one by one in the same transaction: the channel's game, the server's
// settings, the named unit (or the first of its name to have left the roster), the roll's numbers.
const server = await testPostgres();
afterAll(() => server?.stop());

const backends: [string, (now?: () => Date) => Promise<LedgerStore>][] = [
  ['SQLite', async (now) => sqliteStore(Ledger.open(tmpDb(), now ? { now } : {}))],
  ['PostgreSQL', async (now) => PgStore.connect(await freshDatabase(server!), now ? { now } : {})],
];
const at = '2026-11-30T12:00:00.000Z';
const unit = (name: string, owner = 'u1') => ({ game_id: 'game1', name, owner_id: owner, owner_name: owner, side: null, fields: { ml: 7 }, at });

/** The reads channelState stands for, one by one (trackedUnit's refusal reads every unit and finds the first gone). */
async function oneByOne(tx: LedgerTx, q: ChannelQuery) {
  const game = await tx.roster.activeGame(q.guildId, q.channelId);
  const live = game && q.unit !== undefined ? await tx.roster.unitByName(game.id, q.unit) : undefined;
  const key = q.unit?.trim().toLowerCase();
  const gone =
    game && q.unit !== undefined && !live ? (await tx.roster.everyUnit(game.id)).find((u) => u.removed_at !== null && u.name.toLowerCase() === key) : undefined;
  return {
    game,
    ...(game && q.unit !== undefined ? { named: { name: q.unit, unit: live, gone } } : {}),
    ...(game && q.roller !== undefined
      ? { numbers: { nextGameSeq: await tx.nextGameSeq(game.id), playerRollCount: await tx.playerRollCount(game.id, q.roller) } }
      : {}),
  };
}

describe.each(backends)('channelState on %s', (name, open) => {
  const skip = name === 'PostgreSQL' && !server;

  it.skipIf(skip)('answers what the reads it stands for answer one by one', async () => {
    const store = await open();
    await store.transaction(async (tx) => {
      await tx.append(ledgerEntry());
      await tx.settings.setLogChannel('g1', 'log');
      await tx.roster.startGame(testGame('game1'));
      await tx.roster.addUnit(unit('Guard'));
      for (const owner of ['first', 'second']) {
        const old = await tx.roster.addUnit(unit('Old Guard', owner));
        await tx.roster.removeUnit(old.id, at);
      }
      await tx.append(ledgerEntry({ gameId: 'game1', gameSeq: 1, userId: 'alice' }));
      await tx.append(ledgerEntry({ gameId: 'game1', gameSeq: 2, userId: 'alice', kind: 'reroll' }));
      await tx.append(ledgerEntry({ gameId: 'game1', userId: 'alice', kind: 'check' }));
    }, 'g1');
    const queries: ChannelQuery[] = [
      { guildId: 'g1', channelId: 'c1' },
      { guildId: 'g1', channelId: 'c1', unit: ' guard ', roller: 'alice' },
      { guildId: 'g1', channelId: 'c1', unit: 'OLD GUARD', roller: 'bob' },
      { guildId: 'g1', channelId: 'c1', unit: 'Nobody' },
      { guildId: 'g1', channelId: 'c9', unit: 'Guard', roller: 'alice' },
      { guildId: 'g2', channelId: 'c1', unit: 'Guard', roller: 'alice' },
    ];
    for (const q of queries) {
      const { settings, ...state } = await store.transaction((tx) => tx.channelState(q), q.guildId);
      expect(settings).toEqual(await store.settings.get(q.guildId));
      expect(state, JSON.stringify(q)).toEqual(await store.transaction((tx) => oneByOne(tx, q), q.guildId));
    }
    const named = await store.transaction((tx) => tx.channelState(queries[2]!), 'g1');
    // The first of the name to leave the roster, whatever its case.
    expect(named.named).toMatchObject({ unit: undefined, gone: { name: 'Old Guard', owner_id: 'first' } });
    expect(named.numbers).toEqual({ nextGameSeq: 3, playerRollCount: 0 });
    expect((await store.transaction((tx) => tx.channelState(queries[1]!), 'g1')).numbers).toEqual({ nextGameSeq: 3, playerRollCount: 2 });
    expect((await store.transaction((tx) => tx.channelState(queries[1]!), 'g1')).settings).toEqual({
      gm_role_id: null,
      gm_channel_id: null,
      log_channel_id: 'log',
    });
    await store.close();
  });

  it.skipIf(skip)(
    'a transaction claims its interaction first: once; taken, it throws before its work; every 500th claim prunes those over an hour old',
    async () => {
      let now = Date.parse(at);
      const store = await open(() => new Date(now));
      const claimIn = async (id: string, guildId: string | undefined = 'g1') => {
        const claim = { id, guildId: 'g1', claimed: false };
        let ran = false;
        try {
          await store.transaction(
            () => {
              ran = true;
            },
            guildId,
            claim,
          );
          return { ran, claimed: claim.claimed };
        } catch (err) {
          return { ran, taken: err instanceof InteractionTakenError };
        }
      };
      expect(await claimIn('old')).toEqual({ ran: true, claimed: true });
      expect(await claimIn('old')).toEqual({ ran: false, taken: true });
      // A transaction of no guild claims too (without the guild's lock).
      expect(await claimIn('old', undefined)).toEqual({ ran: false, taken: true });
      now += 2 * 60 * 60 * 1000;
      expect(await claimIn('recent')).toEqual({ ran: true, claimed: true });
      now += 30 * 60 * 1000;
      for (let i = 5; i < 500; i++) await claimIn(`i${i}`);
      // The 500th claim prunes first: 'old' (2.5 hours) is free again, 'recent' (half an hour) is kept.
      expect(await claimIn('old')).toEqual({ ran: true, claimed: true });
      expect(await claimIn('recent')).toEqual({ ran: false, taken: true });
      await store.close();
    },
  );
});
