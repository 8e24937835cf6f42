import { describe, expect, it } from 'vitest';
import { recountTally, tallyDelta, tallyOf, type TallySource } from '../../src/ledger/tally.js';

// The dice report's aggregates: what each kind of row adds, written out here — a morale
// roll by its Original DR per system, a /dr or /roll dice by what it declares, filed under its
// category and side; nothing for a ruling, a sealed roll, or Wacht am Rhein.
const row = (over: Partial<TallySource>): TallySource => ({
  guild_id: 'g',
  channel_id: 'c',
  game_id: null,
  user_id: 'u',
  system: 'asl',
  command: 'mc',
  kind: 'roll',
  created_at: '2026-12-01T16:42:07.000Z',
  dice: [],
  outcome: { steps: [] },
  ...over,
});
const key = { guild_id: 'g', channel_id: 'c', game_id: '', side: '', user_id: 'u', category: '', hour: '2026-12-01T16' };

describe('what a row adds to the report', () => {
  it.each([
    // ASL: the first two dice (a Wound dr or a chained HoB DR after them is left out)
    [
      { system: 'asl', command: 'mc', dice: [3, 4, 6] },
      { system: 'asl', command: 'mc', shape: '2d6', total: 7 },
    ],
    [
      { system: 'asl', command: 'hob', dice: [1, 1, 2, 5] },
      { system: 'asl', command: 'hob', shape: '2d6', total: 2 },
    ],
    // Hearts of Tin: the first d6; a commander re-roll is its own roll
    [
      { system: 'hearts-of-tin', command: 'rally', dice: [5] },
      { system: 'hearts-of-tin', command: 'rally', shape: '1d6', total: 5 },
    ],
    [
      { system: 'hearts-of-tin', command: 'rally', kind: 'reroll', dice: [2] },
      { system: 'hearts-of-tin', command: 'rally', shape: '1d6', total: 2 },
    ],
    // Lightning War: 3d6
    [
      { system: 'lightning-war', command: 'morale', dice: [6, 6, 1] },
      { system: 'lightning-war', command: 'morale', shape: '3d6', total: 13 },
    ],
    // A declared roll, filed under its category and side, in its game
    [
      { system: 'asl', command: 'dr', game_id: 'gm', dice: [2, 5], outcome: { tally: { shape: '2d6', total: 7 }, category: 'TH', side: 'axis' } },
      { system: 'asl', command: 'dr', shape: '2d6', total: 7, category: 'TH', side: 'axis', game_id: 'gm' },
    ],
    [
      { system: null, command: 'roll', dice: [6, 1, 4, 3], outcome: { tally: { shape: '4d6kh3+2', total: 15 } } },
      { system: '', command: 'roll', shape: '4d6kh3+2', total: 15 },
    ],
  ] as const)('%j', (over, added) => {
    expect(tallyOf(row(over as unknown as Partial<TallySource>))).toEqual({ ...key, ...added });
  });

  it.each([
    ['a ruling', { kind: 'check', dice: [] }],
    ['a sealed roll', { dice: [], outcome: { sealed: true, commitment: 'x' } }],
    ['Wacht am Rhein', { system: 'wacht-am-rhein', command: 'fatigue', dice: [4] }],
    ['too few dice for the system', { system: 'asl', dice: [4] }],
    ['a game change', { kind: 'game', dice: [] }],
  ] as const)('%s adds nothing', (_, over) => {
    expect(tallyOf(row(over as unknown as Partial<TallySource>))).toBeUndefined();
  });

  it('a reveal adds its roll unless voided; a void takes a counted roll away, a sealed unrevealed one nothing', () => {
    const sealed = row({ system: 'hearts-of-tin', command: 'rally', outcome: { sealed: true } });
    const payload = { dice: [3], outcome: { steps: [] } };
    const reveal = { ...row({ kind: 'reveal', command: 'reveal' }), input: { payload } };
    expect(tallyDelta(reveal, { row: sealed, voided: false })).toEqual({ tally: expect.objectContaining({ shape: '1d6', total: 3 }), delta: 1 });
    expect(tallyDelta(reveal, { row: sealed, voided: true })).toBeUndefined();
    const voiding = { ...row({ kind: 'void', command: 'void' }), input: {} };
    expect(tallyDelta(voiding, { row: sealed, voided: false })).toBeUndefined();
    expect(tallyDelta(voiding, { row: sealed, voided: false, revealed: payload })).toEqual({ tally: expect.objectContaining({ total: 3 }), delta: -1 });
    const open = row({ system: 'hearts-of-tin', command: 'rally', dice: [6] });
    expect(tallyDelta(voiding, { row: open, voided: false })).toEqual({ tally: expect.objectContaining({ total: 6 }), delta: -1 });
  });

  it('the recount reads a row the same way: voided never, sealed by its reveal', () => {
    const base = { ...row({ system: 'hearts-of-tin', command: 'rally', dice: [4] }), seq: 1, voided: 0, reveal_input: null };
    expect(recountTally(base)).toMatchObject({ shape: '1d6', total: 4 });
    expect(recountTally({ ...base, voided: 1 })).toBeUndefined();
    const sealed = { ...base, dice: [], outcome: { sealed: true } };
    expect(recountTally(sealed)).toBeUndefined();
    expect(recountTally({ ...sealed, reveal_input: JSON.stringify({ payload: { dice: [2], outcome: {} } }) })).toMatchObject({ total: 2 });
  });
});
