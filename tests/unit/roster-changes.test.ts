import { describe, expect, it } from 'vitest';
import { disorderRosterChange, rallyRosterChange, shakenBrigadeChange } from '../../src/rules/hearts-of-tin/roster.js';
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

describe('Hearts of Tin: what a disorder report and a shaken brigade do to a roster unit', () => {
  const unit = { disorder: 2, strength: 8, turn_marked: true };
  const report = { lost: 3, turn: 4, turnStrength: 10, lostEarlier: 1, sameTurn: true };
  it('gone when its strength is spent', () => {
    expect(disorderRosterChange(unit, { result: 'gone', markers: 0, causes: [] }, report)).toEqual({
      remove: true,
      why: 'All its strength lost: gone from the field',
    });
  });
  it('markers and losses added up over the turn; marked once heavy losses came in this turn', () => {
    expect(disorderRosterChange(unit, { result: 'disorder', markers: 2, causes: ['lost 25% or more'] }, { ...report, sameTurn: false })).toEqual({
      fields: { disorder: 4, strength: 5, turn_of: 4, turn_strength: 10, turn_lost: 4, turn_marked: true },
      why: '2 disorder markers gained, 3 lost',
    });
    expect(disorderRosterChange(unit, { result: 'disorder', markers: 1, causes: ['melee'] }, { ...report, sameTurn: false })?.fields?.turn_marked).toBe(false);
    expect(disorderRosterChange(unit, { result: 'disorder', markers: 1, causes: ['melee'] }, report)?.fields?.turn_marked).toBe(true);
  });
  it('never past the sanity bound of 30 markers; nothing when nothing was gained or lost', () => {
    expect(disorderRosterChange({ ...unit, disorder: 29 }, { result: 'disorder', markers: 3, causes: [] }, report)?.fields?.disorder).toBe(30);
    expect(disorderRosterChange(unit, { result: 'no_disorder', markers: 0, causes: [] }, { ...report, lost: 0 })).toBeUndefined();
    expect(shakenBrigadeChange(30, 'shaken')).toEqual({ fields: { disorder: 30, brigade_shaken: true }, why: 'shaken' });
    expect(shakenBrigadeChange(4, 'shaken')).toEqual({ fields: { disorder: 5, brigade_shaken: true }, why: 'shaken' });
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
