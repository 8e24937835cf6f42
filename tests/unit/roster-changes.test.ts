import { describe, expect, it } from 'vitest';
import { rallyRosterChange } from '../../src/rules/hearts-of-tin/roster.js';
import { moraleRosterChange } from '../../src/rules/lightning-war/roster.js';

// What a roll does to a roster unit is decided in the rules layer for every system (ASL's in
// asl/roster.ts); each branch pinned here.
describe('Hearts of Tin: what a rally does to a roster unit', () => {
  it.each([
    ['huzzah', undefined, false, { fields: { disorder: 0 }, why: 'Rallied: all disorder removed' }],
    ['rally', undefined, true, { fields: { disorder: 0, pending_rout: null }, why: 'Rallied: all disorder removed' }],
    [
      'rout',
      'r1',
      false,
      {
        fields: { pending_rout: 'r1' },
        why: 'Routed on the first roll: the commander re-roll is offered until the end of the turn; untaken, the rout stands',
      },
    ],
    ['rout', undefined, false, { remove: true, why: 'Routed: off the field' }],
    ['rout_commander_lost', undefined, true, { remove: true, why: 'Routed: off the field' }],
    ['retreat', undefined, true, { fields: { pending_rout: null }, why: 'The commander re-roll settled it: it stays disordered' }],
    ['retreat', undefined, false, undefined],
  ] as const)('%s (pending as %s, was pending %s)', (result, pendingAs, wasPending, change) => {
    expect(rallyRosterChange(result, pendingAs, wasPending)).toEqual(change);
  });
});

describe('Lightning War: what a check does to a roster unit', () => {
  const unit = { casualties: 1, original: 5, state: 'steady' as const };
  it.each([
    ['eliminated', undefined, { remove: true, why: 'Eliminated' }],
    ['surrender', undefined, { remove: true, why: 'Surrendered' }],
    ['rout', undefined, { fields: { state: 'routing' }, why: 'Now routing' }],
    ['retreat', 2, { fields: { state: 'retreating', casualties: 2 }, why: 'Now retreating; casualties 2/5' }],
    ['firm', 3, { fields: { casualties: 3 }, why: 'casualties 3/5' }],
    ['firm', 1, undefined],
    ['pinned', undefined, undefined],
  ] as const)('%s (casualties reported %s)', (result, reported, change) => {
    expect(moraleRosterChange(unit, result, reported)).toEqual(change);
  });

  it('a rally brings a routing unit back to steady; a steady one stays as it is', () => {
    expect(moraleRosterChange({ ...unit, state: 'routing' }, 'rallied', undefined)).toEqual({ fields: { state: 'steady' }, why: 'Rallied' });
    expect(moraleRosterChange(unit, 'rallied', undefined)).toBeUndefined();
  });
});
