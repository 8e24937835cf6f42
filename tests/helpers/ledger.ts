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
