import type { NewEntry } from '../../src/ledger/rows.js';

/** A ledger entry with every field a test does not care about filled in. */
export const ledgerEntry = (over: Partial<NewEntry> = {}): NewEntry => ({
  guildId: 'g1',
  channelId: 'c1',
  userId: 'u1',
  userName: 'U',
  command: 'rally',
  system: 'hearts-of-tin',
  kind: 'roll',
  input: {},
  dice: [4],
  outcome: { steps: [] },
  result: 'rally',
  ...over,
});

/** A game's row as /game start writes it, in guild g1. */
export const testGame = (id: string, channel = 'c1') => ({
  id,
  guild_id: 'g1',
  channel_id: channel,
  system: 'asl',
  name: `Game ${id}`,
  started_by: 'u1',
  started_at: '2026-11-30T12:00:00.000Z',
  server_seed: 's'.repeat(64),
});
