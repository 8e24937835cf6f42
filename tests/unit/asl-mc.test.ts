import { describe, expect, it } from 'vitest';
import { fixedRoller } from '../../src/dice/roller.js';
import { moraleCheck, moraleLevel, type CheckInput } from '../../src/rules/asl/mc.js';
import { checkBase, dr, hobBase, unit } from '../helpers/asl.js';

const ge467 = unit('German 4-6-7');
const { unit: _u, broken: _b, ...hobDefaults } = hobBase(ge467);

const mc = (over: Partial<CheckInput> = {}): CheckInput => checkBase(ge467, { elr: 3, ...over });
const rally = (over: Partial<CheckInput> = {}) => mc({ check: 'rally', broken: true, ...over });

describe('Morale Check (A10.1–A10.31, A19, G1)', () => {
  it.each([
    // [#MC, leader DRM, Original, Final, result] against ML 7, IFT-caused
    [0, undefined, 6, 6, 'passed'],
    [0, undefined, 7, 7, 'pinned'],
    [0, undefined, 8, 8, 'broken'],
    [2, undefined, 5, 7, 'pinned'],
    [2, -1, 5, 6, 'passed'],
    [1, -2, 9, 8, 'broken'],
    [4, undefined, 6, 10, 'broken'], // fails by 3 = ELR 3: not more
    [4, undefined, 7, 11, 'replaced'], // fails by 4 > ELR 3
  ] as const)('%iMC, leader %s, Original %i → Final %i: %s', (number, leaderDrm, original, final, result) => {
    const out = moraleCheck(mc({ number, leaderDrm }), fixedRoller(dr(original)));
    expect(out.steps[0]).toMatchObject({ kind: 'mc', ml: 7, original, final, result });
    expect(out.result).toBe(result);
  });

  it('shows each DRM with its reason', () => {
    const out = moraleCheck(mc({ number: 2, leaderDrm: -1 }), fixedRoller([3, 4]));
    expect(out.steps[0]!.modifiers).toEqual([
      { reason: '2MC', value: 2 },
      { reason: 'leadership of an unbroken leader in the Location', value: -1 },
    ]);
  });

  it('Final = ML pins only on an IFT-caused check', () => {
    expect(moraleCheck(mc({ ift: false }), fixedRoller(dr(7))).result).toBe('passed');
  });

  it('ELR replacement names from → to (the ladder in reverse)', () => {
    const s = moraleCheck(mc({ number: 4, elr: 2 }), fixedRoller(dr(6))).steps[0]!;
    expect(s).toMatchObject({ result: 'replaced', unit_before: 'German 4-6-7', unit_after: 'German 4-4-7', ref: 'A19.13' });
    expect(s.effect).toContain('broken German 4-4-7');
  });

  it('ELR failure with nothing lower Disrupts', () => {
    expect(moraleCheck(mc({ unit: unit('German 4-3-6'), number: 4, elr: 0 }), fixedRoller(dr(4))).result).toBe('disrupted');
  });

  it('ELR 0: failing by 1 is more than the ELR', () => {
    expect(moraleCheck(mc({ elr: 0 }), fixedRoller(dr(8))).result).toBe('replaced');
  });

  it('a leader who fails by more than his ELR is Replaced by a broken leader one rank lower (A19.13)', () => {
    // 8-0, 4MC, Original 9 → Final 13 vs ML 8: fails by 5 > ELR 0.
    const out = moraleCheck(mc({ unit: unit('German 8-0'), number: 4, elr: 0 }), fixedRoller(dr(9)));
    expect(out.steps[0]).toMatchObject({
      final: 13,
      result: 'replaced',
      unit_after: 'German 7-0 leader',
      becomes: { counter: 'German 7-0 leader', broken: true },
    });
  });

  it('a broken unit checks on its broken-side ML and suffers Casualty Reduction when it fails', () => {
    const out = moraleCheck(mc({ unit: unit('SS 6-5-8'), broken: true, number: 1 }), fixedRoller(dr(9)));
    expect(out.steps[0]).toMatchObject({ ml: 9, final: 10, result: 'casualty_reduction' });
    expect(out.steps[0]!.effect).toContain('reduced to a broken German SS 3-4-8 half-squad');
  });

  it('a broken unit is never pinned', () => {
    expect(moraleCheck(mc({ broken: true }), fixedRoller(dr(7))).result).toBe('passed');
  });

  it('Original 12: Casualty Reduction and broken; a broken unit is eliminated', () => {
    expect(moraleCheck(mc({ number: 0, leaderDrm: -3 }), fixedRoller([6, 6])).steps[0]).toMatchObject({ final: 9, result: 'casualty_reduction' });
    expect(moraleCheck(mc({ broken: true }), fixedRoller([6, 6])).result).toBe('eliminated');
  });

  it('ml overrides the data; Fanatic adds 1 up to 10', () => {
    expect(moraleCheck(mc({ ml: 9 }), fixedRoller(dr(9))).steps[0]).toMatchObject({ ml: 9, result: 'pinned' });
    expect(moraleCheck(mc({ hob: { ...hobDefaults, fanatic: true } }), fixedRoller(dr(8))).steps[0]).toMatchObject({ ml: 8, result: 'pinned' });
    expect(moraleCheck(mc({ unit: unit('German 10-2'), hob: { ...hobDefaults, fanatic: true } }), fixedRoller(dr(10))).steps[0]).toMatchObject({ ml: 10 });
  });
});

describe('the Original 2 chains Heat of Battle', () => {
  it('an MC Original 2 adds a hob step with its trigger, in the same outcome', () => {
    const out = moraleCheck(mc({ number: 2 }), fixedRoller([1, 1, 4, 3]));
    expect(out.steps.map((s) => s.kind)).toEqual(['mc', 'hob']);
    expect(out.steps[0]).toMatchObject({ original: 2, final: 4, result: 'passed' });
    expect(out.steps[1]).toMatchObject({
      kind: 'hob',
      dice: [4, 3],
      final: 7,
      result: 'battle_hardening',
      trigger: 'Original 2 on the Morale Check',
      unit_after: 'German 4-6-8',
    });
    expect(out.result).toBe('passed');
  });

  it("a broken unit's MC 2 gives HoB the +1 broken DRM", () => {
    const out = moraleCheck(mc({ broken: true }), fixedRoller([1, 1, 3, 3]));
    expect(out.steps[1]).toMatchObject({ final: 7, modifiers: [{ reason: 'broken when the Original 2 was rolled', value: 1 }] });
  });

  it('not for an exempt unit: noted, no dice', () => {
    const dice = fixedRoller([1, 1, 6, 6]);
    const out = moraleCheck(mc({ unit: unit('German crew 2-2-8') }), dice);
    expect(out.steps).toHaveLength(1);
    expect(out.steps[0]!.effect).toContain('no Heat of Battle: crews');
    expect(dice.remaining()).toBe(2);
  });

  it('not for a unit under an exempt status', () => {
    expect(moraleCheck(mc({ hob: { ...hobDefaults, status: 'human_wave' } }), fixedRoller([1, 1])).steps).toHaveLength(1);
  });

  it("a chained berserk leader brings his companions' NTCs", () => {
    const out = moraleCheck(mc({ unit: unit('German 9-1'), companions: [{ unit: ge467, broken: false }] }), fixedRoller([1, 1, 5, 5, 3, 3]));
    expect(out.steps.map((s) => [s.kind, s.result])).toEqual([
      ['mc', 'passed'],
      ['hob', 'berserk'],
      ['ntc', 'berserk'],
    ]);
  });
});

describe('Rally (A10.6)', () => {
  it.each([
    // [leader DRM, terrain, desperation, self, Original, Final, result] vs broken ML 7
    [-1, 'none', false, false, 8, 7, 'rallied'],
    [0, 'none', false, false, 8, 8, 'not_rallied'],
    [-1, 'woods', false, false, 9, 7, 'rallied'],
    [0, 'building', false, false, 9, 8, 'not_rallied'],
    [-2, 'pillbox', true, false, 5, 6, 'rallied'],
    [undefined, 'trench', false, true, 7, 7, 'rallied'],
    [undefined, 'none', false, true, 7, 8, 'not_rallied'],
  ] as const)('leader %s, %s, desperation %s, self %s, Original %i → %i: %s', (leaderDrm, terrain, desperation, selfRally, original, final, result) => {
    const out = moraleCheck(rally({ leaderDrm, terrain, desperation, selfRally }), fixedRoller(dr(original)));
    expect(out.steps[0]).toMatchObject({ kind: 'rally', ml: 7, original, final, result });
  });

  it('DRM reasons', () => {
    const out = moraleCheck(rally({ leaderDrm: -2, terrain: 'building', desperation: true }), fixedRoller(dr(6)));
    expect(out.steps[0]!.modifiers).toEqual([
      { reason: 'leadership of the rallying leader', value: -2 },
      { reason: 'in building', value: -1 },
      { reason: 'under Desperation Morale', value: 4 },
    ]);
    expect(moraleCheck(rally({ selfRally: true }), fixedRoller(dr(6))).steps[0]!.modifiers).toEqual([{ reason: 'Self-Rally', value: 1 }]);
  });

  it('Original 12: fate (Casualty Reduction, no rally)', () => {
    const out = moraleCheck(rally({ leaderDrm: -3 }), fixedRoller([6, 6]));
    expect(out.steps[0]).toMatchObject({ final: 9, result: 'fate' });
    expect(out.steps[0]!.effect).toContain('it does not rally');
  });

  it('Original 2 with a leader: rallied, then HoB with the +1 broken DRM', () => {
    const out = moraleCheck(rally({ desperation: true }), fixedRoller([1, 1, 3, 3]));
    expect(out.steps[0]).toMatchObject({ final: 6, result: 'rallied' });
    expect(out.steps[1]).toMatchObject({ kind: 'hob', final: 7, trigger: 'Original 2 on the Rally' });
    expect(out.steps[1]!.modifiers).toContainEqual({ reason: 'broken when the Original 2 was rolled', value: 1 });
  });

  it('Original 2 on a Self-Rally: rallied, no HoB, leader creation noted', () => {
    const dice = fixedRoller([1, 1, 6, 6]);
    const out = moraleCheck(rally({ selfRally: true, desperation: true }), dice);
    expect(out.steps).toHaveLength(1);
    expect(out.steps[0]).toMatchObject({ result: 'rallied' });
    expect(out.steps[0]!.effect).toContain('Leader Creation dr with +1 (A18.11)');
    expect(dice.remaining()).toBe(2);
  });
});

// Which Morale Level a check is made against (issue 18: with every broken ML equal to its ML, the
// choice of side could be replaced by true or false unnoticed). SS 6-5-8: ML 8, broken side 9.
describe('moraleLevel: the side and the adjustments', () => {
  const ss = unit('German SS 6-5-8');
  const ssCheck = (over: Partial<CheckInput> = {}) => checkBase(ss, { elr: 3, ...over });
  it.each([
    ['a good-order MC', {}, { ml: 8 }],
    ['a broken unit’s MC', { broken: true }, { ml: 9, note: 'broken side: ML 9' }],
    ['a rally', { check: 'rally', broken: true }, { ml: 9, note: 'broken side: ML 9' }],
    ['a rally, even when not marked broken', { check: 'rally' }, { ml: 9, note: 'broken side: ML 9' }],
    ['an ML given by the player', { broken: true, ml: 6 }, { ml: 6, note: 'ML 6 as given' }],
    ['a Fanatic unit in good order', { hob: { ...hobDefaults, fanatic: true } }, { ml: 9, note: 'Fanatic: ML 8 + 1' }],
    ['a Fanatic broken unit', { broken: true, hob: { ...hobDefaults, fanatic: true } }, { ml: 10, note: 'broken side: ML 9; Fanatic: ML 9 + 1' }],
  ] as const)('%s', (_what, over, expected) => {
    expect(moraleLevel(ssCheck(over as Partial<CheckInput>))).toEqual(expected);
  });

  it('the ML is the one rolled against: a broken SS squad passes on 9, which fails in good order', () => {
    expect(moraleCheck(ssCheck({ broken: true }), fixedRoller(dr(9))).steps[0]).toMatchObject({ ml: 9, result: 'passed' });
    expect(moraleCheck(ssCheck(), fixedRoller(dr(9))).steps[0]).toMatchObject({ ml: 8, result: 'broken' });
  });

  it('where both sides agree no note is made; Fanatic never lifts past 10; a wounded leader checks at ML − 1', () => {
    expect(moraleLevel(mc({ broken: true }))).toEqual({ ml: 7 });
    const l10 = unit('German 10-2 leader');
    expect(moraleLevel(checkBase(l10, { hob: { ...hobDefaults, fanatic: true } }))).toEqual({ ml: 10 });
    expect(moraleLevel(checkBase(unit('German 9-1 leader'), { wounded: true }))).toEqual({ ml: 8, note: 'wounded: ML 9 − 1 (A17.3)' });
    expect(moraleLevel(checkBase(unit('German 9-1 leader'), { wounded: true, hob: { ...hobDefaults, fanatic: true } }))).toEqual({
      ml: 9,
      note: 'wounded: ML 9 − 1 (A17.3); Fanatic: ML 8 + 1',
    });
  });
});
