import { describe, expect, it } from 'vitest';
import { ASL_FIELD_DEFAULTS, aslRosterChange, type AslFields } from '../../src/rules/asl/roster.js';

// How one /mc or /hob changes a tracked ASL unit (this module was once reached by no test of
// its own). Steps are written as the rules module returns them; only the fields read here are set.
const unit = (counter: string, more: Partial<AslFields> = {}): AslFields => ({ counter, ...ASL_FIELD_DEFAULTS, ...more });
const mc = (label: string, becomes?: object, unit_after?: string) =>
  ({ kind: 'mc', label, ...(becomes ? { becomes } : {}), ...(unit_after ? { unit_after } : {}) }) as never;
const rally = (label: string, becomes?: object) => ({ kind: 'rally', label, ...(becomes ? { becomes } : {}) }) as never;
const wound = (result: 'wounded' | 'killed', becomes: object) => ({ kind: 'wound', result, becomes }) as never;
const hob = (result: string, more: object = {}) => ({ kind: 'hob', result, ...more }) as never;

describe('aslRosterChange', () => {
  it('nothing lasting (a pass, a pin, an unknown step): no change', () => {
    expect(aslRosterChange(unit('4-6-7'), [mc('Pass')])).toBeUndefined();
    expect(aslRosterChange(unit('4-6-7'), [{ kind: 'ntc' }])).toBeUndefined();
    // A step that sets a field to what it already is changes nothing.
    expect(aslRosterChange(unit('4-6-7', { broken: true }), [mc('Broken', { broken: true })])).toBeUndefined();
  });

  it('a failed check breaks the unit; a rally unbreaks it, and clears Disrupted', () => {
    expect(aslRosterChange(unit('4-6-7'), [mc('Broken', { broken: true })])).toEqual({ fields: { broken: true }, why: 'Broken' });
    expect(aslRosterChange(unit('4-6-7', { broken: true, disrupted: true }), [rally('Rallied', { broken: false, disrupted: false })])).toEqual({
      fields: { broken: false, disrupted: false },
      why: 'Rallied',
    });
  });

  it('casualty reduction and ELR replace the counter; a squad into two half-squads says to add the second', () => {
    expect(aslRosterChange(unit('4-6-7'), [mc('Replaced (ELR)', { counter: '4-4-7' }, '4-4-7')])).toEqual({
      fields: { counter: '4-4-7' },
      why: 'Replaced (ELR)',
    });
    expect(aslRosterChange(unit('4-6-7'), [mc('Casualty Reduction', { counter: '2-3-7', broken: true, two: true }, '2-3-7')])).toEqual({
      fields: { counter: '2-3-7', broken: true },
      why: 'Casualty Reduction (a second 2-3-7 joins it: add it with /unit add)',
    });
    // "two" without a counter name after says nothing of a second one.
    expect(aslRosterChange(unit('4-6-7'), [mc('Halved', { counter: '2-3-7', two: true })])?.why).toBe('Halved');
  });

  it('berserk and wounds set their flags; elimination and a killing wound remove the unit, with every why so far', () => {
    expect(aslRosterChange(unit('4-6-7'), [mc('Berserk', { berserk: true })])).toEqual({ fields: { berserk: true }, why: 'Berserk' });
    expect(aslRosterChange(unit('4-6-7', { berserk: true }), [mc('Calmed', { berserk: false })])).toEqual({ fields: { berserk: false }, why: 'Calmed' });
    expect(aslRosterChange(unit('German 8-0'), [wound('wounded', { wounded: true })])).toEqual({ fields: { wounded: true }, why: 'Wounded' });
    expect(aslRosterChange(unit('German 8-0'), [mc('Broken', { broken: true }), wound('killed', { eliminated: true })])).toEqual({
      remove: true,
      why: 'Broken; Killed (Wound Severity)',
    });
    expect(aslRosterChange(unit('4-6-7'), [mc('Eliminated', { eliminated: true })])).toEqual({ remove: true, why: 'Eliminated' });
    // wounded: false is not a change a step can make (a wound never heals here).
    expect(aslRosterChange(unit('German 8-0', { wounded: true }), [mc('Pass', { wounded: false })])).toBeUndefined();
  });

  it('Heat of Battle: battle hardening replaces the counter and unbreaks, with an undo; a leader becomes heroic', () => {
    expect(aslRosterChange(unit('4-4-7', { broken: true }), [hob('battle_hardening', { unit_after: '4-6-7' })])).toEqual({
      fields: { counter: '4-6-7', broken: false },
      why: 'Battle hardened into 4-6-7',
      undo: { counter: '4-4-7', broken: true, fanatic: false },
    });
    // Battle hardening alone makes no hero, even of a leader.
    expect(aslRosterChange(unit('German 8-0'), [hob('battle_hardening', { unit_after: 'German 8-1' })])).toEqual({
      fields: { counter: 'German 8-1' },
      why: 'Battle hardened into German 8-1',
      undo: { counter: 'German 8-0', broken: false, fanatic: false },
    });
    expect(aslRosterChange(unit('German 8-0', { broken: true }), [hob('hero')])).toEqual({ fields: { heroic: true, broken: false }, why: 'Heroic' });
    expect(aslRosterChange(unit('German 8-0'), [hob('hero_and_battle_hardening', { unit_after: 'German 8-1' })])).toEqual({
      fields: { heroic: true, counter: 'German 8-1' },
      why: 'Heroic; Battle hardened into German 8-1',
      undo: { counter: 'German 8-0', broken: false, fanatic: false },
    });
    // A squad's "hero" result creates a hero counter elsewhere: the squad itself does not change.
    expect(aslRosterChange(unit('4-6-7'), [hob('hero')])).toBeUndefined();
  });

  it('Heat of Battle: a unit at its best goes Fanatic instead, with an undo', () => {
    expect(aslRosterChange(unit('6-5-8'), [hob('battle_hardening', { fanatic: true })])).toEqual({
      fields: { fanatic: true },
      why: 'Fanatic',
      undo: { counter: '6-5-8', broken: false, fanatic: false },
    });
  });

  it('Heat of Battle: berserk unbreaks, disrupted breaks, surrender removes; the order of steps holds', () => {
    expect(aslRosterChange(unit('4-6-7', { broken: true }), [hob('berserk')])).toEqual({ fields: { berserk: true, broken: false }, why: 'Berserk' });
    expect(aslRosterChange(unit('4-6-7'), [hob('disrupted')])).toEqual({ fields: { broken: true, disrupted: true }, why: 'Broken and Disrupted' });
    expect(aslRosterChange(unit('4-6-7'), [mc('Broken', { broken: true }), hob('surrender')])).toEqual({ remove: true, why: 'Broken; Surrendered' });
    // Broken by the check, then hardened by the HoB that followed it: hardened and unbroken at the end.
    expect(aslRosterChange(unit('4-4-7'), [mc('Broken', { broken: true }), hob('battle_hardening', { unit_after: '4-6-7' })])).toEqual({
      fields: { counter: '4-6-7' },
      why: 'Broken; Battle hardened into 4-6-7',
      undo: { counter: '4-4-7', broken: true, fanatic: false },
    });
  });

  it('a field the roster never stored counts as its default', () => {
    const before = { counter: '4-6-7' } as AslFields;
    expect(aslRosterChange(before, [mc('Pass', { broken: false })])).toBeUndefined();
    expect(aslRosterChange(before, [mc('Broken', { broken: true })])).toEqual({ fields: { broken: true }, why: 'Broken' });
  });
});
