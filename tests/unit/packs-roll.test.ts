import { describe, expect, it } from 'vitest';
import { fixedRoller } from '../../src/dice/roller.js';
import { format } from '../../src/rules/odds.js';
import { changedUnit, resolveInput, type ResolvedInput } from '../../src/rules/packs/input.js';
import type { PackInput } from '../../src/rules/packs/modifiers.js';
import { packDistribution } from '../../src/rules/packs/odds.js';
import { rollPack } from '../../src/rules/packs/roll.js';
import { loaded, nervePack } from '../helpers/packs.js';
import type { Said } from '../../src/i18n/said.js';
import { sayIn } from '../../src/i18n/speak.js';

const pack = loaded();
const input = (over: Record<string, string | number | boolean> = {}): PackInput => ({ nerve: 7, pins: 0, leader: 'none', in_cover: false, ...over });
const roll = (over: Record<string, string | number | boolean>, dice: number[]) => rollPack(pack, input(over), fixedRoller(dice));

describe('a pack roll, with fixed dice', () => {
  it('a target test: total at most the target passes; the target modifiers are shown beside the target', () => {
    const o = roll({ pins: 2 }, [3, 2]);
    expect(o.result).toBe('pass');
    expect(o.steps[0]).toMatchObject({
      kind: 'check',
      dice: [3, 2],
      original: 5,
      final: 5,
      label: 'Holds',
      tone: 'good',
      modifiers: [],
      ref: 'House rules, p. 3',
    });
    expect(o.steps[0]!.target).toEqual({ base: 7, modifiers: [{ reason: 'each pin marker', value: -2 }], value: 5, compare: 'at_most' });
    expect(o.unit).toBeUndefined();
  });

  it('one over the target fails, and the result changes the unit', () => {
    const o = roll({ pins: 2 }, [3, 3]);
    expect([o.result, o.steps[0]!.final, o.steps[0]!.label]).toEqual(['fail', 6, 'Goes to ground']);
    expect(o.unit).toEqual({ add: { pins: 1 }, set: {}, remove: false });
  });

  it('a special on the natural dice comes before the comparison: double 1 is Steady, though 2 would pass anyway', () => {
    const o = roll({}, [1, 1]);
    expect([o.result, o.steps[0]!.special, o.unit]).toEqual(['steady', true, { add: { pins: -1 }, set: {}, remove: false }]);
  });

  it('a special that names a follow-up rolls it in the same roll: double 6, then 1 on the panic table routs', () => {
    const o = roll({}, [6, 6, 1]);
    expect(o.result).toBe('panic → routs');
    expect(o.steps.map((s) => [s.kind, s.dice, s.final, s.label])).toEqual([
      ['check', [6, 6], 12, 'Panic'],
      ['panic', [1], 1, 'Routs'],
    ]);
    expect([o.tone, o.unit]).toEqual(['bad', { add: {}, set: {}, remove: true }]);
  });

  it('a modifier limited to one test applies there only: in cover adds 1 to the panic roll, not the check', () => {
    const o = roll({ in_cover: true }, [6, 6, 2]);
    expect(o.steps[0]!.modifiers).toEqual([]);
    expect(o.steps[1]).toMatchObject({ original: 2, final: 3, modifiers: [{ reason: 'in cover', value: 1 }], result: 'falls_back', label: 'Falls back' });
  });

  it('every band boundary of the panic table', () => {
    const at = (die: number) => roll({}, [6, 6, die]).steps[1]!.result;
    expect([1, 2, 3, 4, 5, 6].map(at)).toEqual(['routs', 'routs', 'falls_back', 'falls_back', 'holds_on', 'holds_on']);
  });

  it('clamps the target and says from what: an officer takes nerve 12 to 14, clamped to 11', () => {
    const o = roll({ nerve: 12, leader: 'officer' }, [6, 5]);
    expect(o.steps[0]!.target).toEqual({ base: 12, modifiers: [{ reason: 'officer nearby', value: 2 }], value: 11, compare: 'at_most', clampedFrom: 14 });
    expect(o.result).toBe('pass');
    const low = roll({ nerve: 2, pins: 3 }, [1, 2]);
    expect([low.steps[0]!.target!.value, low.steps[0]!.target!.clampedFrom, low.result]).toEqual([2, -1, 'fail']);
  });

  it('at_least: the total must reach the target', () => {
    const p = nervePack();
    p.tests.check.compare = 'at_least';
    const atLeast = loaded(p);
    expect(rollPack(atLeast, input(), fixedRoller([3, 4])).result).toBe('pass');
    expect(rollPack(atLeast, input(), fixedRoller([3, 3])).result).toBe('fail');
  });

  it('specials read the kept dice and their total: 3d6kh2 keeping a pair of sixes, and a natural total', () => {
    const p = nervePack();
    p.tests.check.dice = '3d6kh2';
    const kept = loaded(p);
    expect(rollPack(kept, input(), fixedRoller([6, 1, 6, 2])).result).toBe('panic → routs');
    expect(rollPack(kept, input(), fixedRoller([6, 1, 5])).steps[0]).toMatchObject({ kept: [6, 5], final: 11, result: 'fail' });
    const q = nervePack();
    (q.tests.check.specials as unknown[])[1] = { total: 2, result: 'steady' };
    expect(rollPack(loaded(q), input(), fixedRoller([1, 1])).result).toBe('steady');
  });
});

describe("a pack roll's inputs", () => {
  it('takes from_unit values from the unit, lets a given option override them, and says which', () => {
    expect(resolveInput(pack, {}, { nerve: 8, pins: 1 })).toEqual<ResolvedInput>({
      input: { nerve: 8, pins: 1, leader: 'none', in_cover: false },
      fromUnit: ['nerve', 'pins'],
      overridden: [],
    });
    expect(resolveInput(pack, { pins: 0, leader: 'nco' }, { nerve: 8, pins: 1 })).toEqual<ResolvedInput>({
      input: { nerve: 8, pins: 0, leader: 'nco', in_cover: false },
      fromUnit: ['nerve'],
      overridden: ['pins'],
    });
  });

  it('refuses a required option with no value and no unit, and a value outside the option, naming them', () => {
    // A refusal is said in the reader's language when shown: here, in English.
    const refused = (r: ReturnType<typeof resolveInput>) => sayIn('en', r as Said);
    expect(refused(resolveInput(pack, {}))).toBe('nerve is needed: give it, or name a unit that has nerve');
    expect(refused(resolveInput(pack, { nerve: 13 }))).toBe('nerve: 13 is not allowed (2–12)');
    expect(refused(resolveInput(pack, { nerve: 7, leader: 'general' }))).toBe('leader: "general" is not allowed ("none", "nco", "officer")');
    expect(refused(resolveInput(pack, {}, { nerve: 1, pins: 0 }))).toBe('nerve: 1 is not allowed (2–12)');
  });

  it('applies a unit change within the fields’ bounds, and removes the unit', () => {
    expect(changedUnit(pack, { nerve: 7, pins: 12 }, { add: { pins: 1 }, set: {}, remove: false })).toEqual({ nerve: 7, pins: 12 });
    expect(changedUnit(pack, { nerve: 7, pins: 0 }, { add: { pins: -1 }, set: {}, remove: false })).toEqual({ nerve: 7, pins: 0 });
    expect(changedUnit(pack, { nerve: 7, pins: 3 }, { add: { pins: 1 }, set: { nerve: 9 }, remove: false })).toEqual({ nerve: 9, pins: 4 });
    expect(changedUnit(pack, { nerve: 7, pins: 3 }, { add: {}, set: {}, remove: true })).toBeUndefined();
  });
});

describe("a pack roll's exact odds", () => {
  const odds = (over: Record<string, string | number | boolean>) =>
    Object.fromEntries([...packDistribution(pack, input(over))].map(([k, p]) => [k, format(p)]));

  it('nerve 7: steady 1/36, pass 20/36, fail 14/36, and a panic (1/36) split over the panic table', () => {
    expect(odds({})).toEqual({
      steady: '1/36',
      pass: '5/9',
      fail: '7/18',
      'panic → holds_on': '1/108',
      'panic → falls_back': '1/108',
      'panic → routs': '1/108',
    });
  });

  it('in cover the panic table shifts: routs 1/6, falls back 2/6, holds on 3/6 of the 1/36', () => {
    const o = odds({ in_cover: true });
    expect([o['panic → routs'], o['panic → falls_back'], o['panic → holds_on']]).toEqual(['1/216', '1/108', '1/72']);
  });

  it('a clamped target: nerve 2 with 3 pins still passes on 2 only, which double 1 takes as Steady', () => {
    expect(odds({ nerve: 2, pins: 3 })).toEqual({
      steady: '1/36',
      fail: '17/18',
      'panic → holds_on': '1/108',
      'panic → falls_back': '1/108',
      'panic → routs': '1/108',
    });
  });
});
