import type { Modifier } from '../../src/rules/types.js';
import type { Said } from '../../src/i18n/said.js';
import { describe, expect, it } from 'vitest';
import { fixedRoller } from '../../src/dice/roller.js';
import {
  ASL_RALLY_ORDER,
  checkConflict,
  checkOrder,
  hobChainBlocked,
  MC_ORDER,
  moraleCheck,
  moraleLevel,
  woundStep,
  type CheckInput,
} from '../../src/rules/asl/mc.js';
import { checkBase, dr, hobBase, unit } from '../helpers/asl.js';
import { sayIn } from '../../src/i18n/speak.js';

// What the reply reads, in English: a rule's words are identifiers recorded beside their English.
const english = (s: Said | undefined) => (s ? sayIn('en', s) : s);
const levelOf = (input: CheckInput) => {
  const { ml, note } = moraleLevel(input);
  return note ? { ml, note: sayIn('en', note) } : { ml };
};
const plainMods = (mods: readonly Modifier[]) => mods.map(({ reason, value }) => ({ reason, value }));

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
    expect(out.steps[0]!.modifiers).toMatchObject([
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
    expect(out.steps.map((s) => s.kind)).toMatchObject(['mc', 'hob']);
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
    expect(out.steps.map((s) => [s.kind, s.result])).toMatchObject([
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
    expect(out.steps[0]!.modifiers).toMatchObject([
      { reason: 'leadership of the rallying leader', value: -2 },
      { reason: 'in building', value: -1 },
      { reason: 'under Desperation Morale', value: 4 },
    ]);
    expect(moraleCheck(rally({ selfRally: true }), fixedRoller(dr(6))).steps[0]!.modifiers).toMatchObject([{ reason: 'Self-Rally', value: 1 }]);
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
    expect(plainMods(out.steps[1]!.modifiers)).toContainEqual({ reason: 'broken when the Original 2 was rolled', value: 1 });
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

// Which Morale Level a check is made against (with every broken ML equal to its ML, the
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
    expect(levelOf(ssCheck(over as Partial<CheckInput>))).toEqual(expected);
  });

  it('the ML is the one rolled against: a broken SS squad passes on 9, which fails in good order', () => {
    expect(moraleCheck(ssCheck({ broken: true }), fixedRoller(dr(9))).steps[0]).toMatchObject({ ml: 9, result: 'passed' });
    expect(moraleCheck(ssCheck(), fixedRoller(dr(9))).steps[0]).toMatchObject({ ml: 8, result: 'broken' });
  });

  it('where both sides agree no note is made; Fanatic never lifts past 10; a wounded leader checks at ML − 1', () => {
    expect(levelOf(mc({ broken: true }))).toMatchObject({ ml: 7 });
    const l10 = unit('German 10-2 leader');
    expect(levelOf(checkBase(l10, { hob: { ...hobDefaults, fanatic: true } }))).toMatchObject({ ml: 10 });
    expect(levelOf(checkBase(unit('German 9-1 leader'), { wounded: true }))).toMatchObject({ ml: 8, note: 'wounded: ML 9 − 1 (A17.3)' });
    expect(levelOf(checkBase(unit('German 9-1 leader'), { wounded: true, hob: { ...hobDefaults, fanatic: true } }))).toMatchObject({
      ml: 9,
      note: 'wounded: ML 9 − 1 (A17.3); Fanatic: ML 8 + 1',
    });
  });
});

/** Everything a reading says, and nothing else: a field a row leaves out must be absent from the step. */
const reading = (s: object) => {
  const { kind, result, label, effect, tone, ref, unit_after, becomes } = s as Record<string, unknown>;
  return Object.fromEntries(Object.entries({ kind, result, label, effect, tone, ref, unit_after, becomes }).filter(([, v]) => v !== undefined));
};

// Every reading of a Morale Check, word for word with its rule, result and roster change (mutation
// testing found the wording, references and the rarer branches unchecked). No DRMs: the
// Final is the Original. [what, unit, options, dice, the first step]
describe('Morale Check readings, word for word', () => {
  const G467 = 'German 4-6-7';
  it.each([
    ['passed', G467, { elr: 3 }, [3, 3], { result: 'passed', label: 'Passed', effect: 'Final 6 ≤ ML 7: no effect.', tone: 'good', ref: 'A10.1' }],
    [
      'pinned (IFT)',
      G467,
      { elr: 3 },
      [3, 4],
      { result: 'pinned', label: 'Pinned', effect: 'Final 7 equals ML 7 on an IFT-caused check: it passes but is pinned.', tone: 'mixed', ref: 'A10.1, A7.8' },
    ],
    [
      'broken',
      G467,
      { elr: 3 },
      [4, 5],
      { result: 'broken', label: 'Broken', effect: 'Final 9 > ML 7: the unit breaks.', tone: 'bad', ref: 'A10.1', becomes: { broken: true } },
    ],
    [
      'failed while broken: Casualty Reduction',
      G467,
      { elr: 3, broken: true },
      [4, 5],
      {
        result: 'casualty_reduction',
        label: 'Casualty Reduction',
        effect: 'Failed by 2 while broken: it is reduced to a broken German 2-4-7 half-squad.',
        ref: 'A10.1, A7.302',
        unit_after: 'German 2-4-7 half-squad',
        becomes: { counter: 'German 2-4-7 half-squad', broken: true },
      },
    ],
    [
      'Original 12 on a broken unit',
      G467,
      { elr: 3, broken: true },
      [6, 6],
      {
        result: 'eliminated',
        label: 'Eliminated',
        effect: 'An Original 12 on a broken unit: it is eliminated (A10.31).',
        ref: 'A10.31',
        becomes: { eliminated: true },
      },
    ],
    [
      'Original 12 within the ELR',
      G467,
      { elr: 5 },
      [6, 6],
      {
        unit_after: 'German 2-4-7 half-squad',
        result: 'casualty_reduction',
        label: 'Casualty Reduction',
        effect: 'An Original 12 (Casualty MC): it breaks and suffers Casualty Reduction: it is reduced to a broken German 2-4-7 half-squad.',
        ref: 'A10.31, A7.302',
        becomes: { counter: 'German 2-4-7 half-squad', broken: true },
      },
    ],
    [
      'Original 12 past the ELR: Replaced, then reduced',
      G467,
      { elr: 3 },
      [6, 6],
      {
        result: 'casualty_reduction',
        label: 'Replaced and reduced',
        effect:
          'An Original 12, failed by 5, more than its ELR of 3: Replaced first, then Casualty Reduction — it becomes a broken German 2-3-7 half-squad (A19.13, A10.31).',
        ref: 'A19.13, A10.31',
        unit_after: 'German 2-3-7 half-squad',
        becomes: { counter: 'German 2-3-7 half-squad', broken: true },
      },
    ],
    [
      'past the ELR: Replaced by the next lower Class',
      G467,
      { elr: 1 },
      [4, 5],
      {
        result: 'replaced',
        label: 'Replaced (ELR)',
        effect: 'Failed by 2, more than its ELR of 1: replace it with a broken German 4-4-7 (A19.13).',
        ref: 'A19.13',
        unit_after: 'German 4-4-7',
        becomes: { counter: 'German 4-4-7', broken: true },
      },
    ],
    [
      'past the ELR with no lower Class: Disrupted',
      'German 4-3-6',
      { elr: 1 },
      [4, 5],
      {
        result: 'disrupted',
        label: 'Broken and Disrupted',
        effect: 'Failed by 3, more than its ELR of 1, and there is no lower Class: it breaks and is Disrupted (A19.12).',
        ref: 'A19.13, A19.12',
        becomes: { broken: true, disrupted: true },
      },
    ],
    [
      'Original 12 past the ELR with no lower Class: reduced and Disrupted',
      'German 4-3-6',
      { elr: 1 },
      [6, 6],
      {
        result: 'casualty_reduction',
        label: 'Casualty Reduction, Disrupted',
        effect:
          'An Original 12: Casualty Reduction — it is reduced to a broken German 2-3-6 half-squad. Failed by 6, more than its ELR of 1, and there is no lower Class: it breaks and is Disrupted (A19.12).',
        ref: 'A10.31, A19.13, A19.12',
        unit_after: 'German 2-3-6 half-squad',
        becomes: { broken: true, disrupted: true, counter: 'German 2-3-6 half-squad' },
      },
    ],
    [
      'past the ELR, never Disrupted: only broken',
      'Russian 4-2-6',
      { elr: 1, hob: { ...hobDefaults, fanatic: true } },
      [5, 6],
      {
        result: 'broken',
        label: 'Broken',
        // Fanatic: ML 6 + 1 = 7, so an 11 fails by 4.
        effect:
          'Failed by 4, more than its ELR of 1, and there is no lower Class; Fanatic units are never Disrupted, so it is only broken (A19.12). (Fanatic: ML 6 + 1)',
        ref: 'A19.13, A19.12',
        becomes: { broken: true },
      },
    ],
    [
      'an underscored squad past the ELR: two broken half-squads',
      'German 8-3-8',
      { elr: 1 },
      [5, 6],
      {
        result: 'replaced',
        label: 'Replaced (ELR)',
        effect: 'Failed by 3, more than its ELR of 1, and its ML is underscored: replace it with two broken German 3-3-8 half-squads (A19.13).',
        ref: 'A19.13',
        unit_after: 'German 3-3-8 half-squad',
        becomes: { counter: 'German 3-3-8 half-squad', broken: true, two: true },
      },
    ],
    [
      "a unit's own ELR is named when it fails",
      'German 8-3-8',
      {},
      [4, 5],
      {
        label: 'Broken',
        ref: 'A10.1',
        becomes: { broken: true },
        result: 'broken',
        effect: 'Final 9 > ML 8: the unit breaks. (ELR 5: underscored ML, A19.13)',
      },
    ],
    [
      'a squad outside the data past the ELR: the next lower Class',
      'German 5-5-7',
      { elr: 1, unit: unit('German 5-5-7', { class: 'first_line' }) },
      [5, 5],
      {
        result: 'replaced',
        label: 'Replaced (ELR)',
        effect: 'Failed by 3, more than its ELR of 1: replace it with a 2nd Line unit of the same size, broken (A19.13).',
        ref: 'A19.13',
        becomes: { broken: true },
      },
    ],
    [
      'a crew past the ELR is only broken, and says why',
      'German crew 2-2-8',
      { elr: 1 },
      [5, 6],
      {
        ref: 'A10.1',
        becomes: { broken: true },
        result: 'broken',
        label: 'Broken',
        effect: 'Final 11 > ML 8: the unit breaks. Failed by more than its ELR, but crews are never Replaced for ELR (A19.11).',
      },
    ],
    [
      'a leader past the ELR: one rank lower',
      'German 9-1',
      { elr: 1 },
      [5, 6],
      {
        result: 'replaced',
        label: 'Replaced (ELR)',
        effect: 'Failed by 2, more than its ELR of 1: replace him with a broken German 8-1 leader (A19.13).',
        ref: 'A19.13',
        unit_after: 'German 8-1 leader',
        becomes: { counter: 'German 8-1 leader', broken: true },
      },
    ],
    [
      'the lowest leader cannot be Replaced: Disrupted',
      'German 6+1',
      { elr: 1 },
      [4, 5],
      {
        label: 'Broken and Disrupted',
        becomes: { broken: true, disrupted: true },
        result: 'disrupted',
        effect: 'Failed by 3, more than its ELR of 1, and a 6+1 cannot be Replaced: it breaks and is Disrupted (A19.12).',
        ref: 'A19.13, A19.12',
      },
    ],
    [
      'a leader outside the data: one rank lower, unnamed',
      'German 7-1',
      { elr: 1 },
      [5, 5],
      {
        label: 'Replaced (ELR)',
        ref: 'A19.13',
        result: 'replaced',
        effect: 'Failed by 3, more than its ELR of 1: replace him with a broken leader one rank lower (A19.13).',
        becomes: { broken: true },
      },
    ],
    [
      'an Original 12 on a leader past the ELR: Replaced and wounded',
      'German 9-1',
      { elr: 1 },
      [6, 6, 1],
      {
        result: 'casualty_reduction',
        label: 'Replaced and wounded',
        effect:
          'An Original 12: Failed by 3, more than its ELR of 1: replace him with a broken German 8-1 leader (A19.13), then Casualty Reduction: it is wounded: the Wound Severity dr below says how badly (A10.31).',
        ref: 'A19.13, A10.31',
        unit_after: 'German 8-1 leader',
        becomes: { counter: 'German 8-1 leader', broken: true },
      },
    ],
    [
      'a hero fails: wounded, not broken',
      'German hero 1-4-9',
      {},
      [5, 5, 1],
      {
        result: 'wounded',
        label: 'Wounded',
        effect: 'Final 10 > ML 9: a hero is wounded instead of broken: it is wounded: the Wound Severity dr below says how badly.',
        ref: 'A17.1, A17.11',
      },
    ],
    [
      'an Original 12 on a hero',
      'German hero 1-4-9',
      {},
      [6, 6, 1],
      {
        result: 'wounded',
        label: 'Wounded',
        effect: 'An Original 12 on a hero: it is wounded: the Wound Severity dr below says how badly.',
        ref: 'A10.31, A17.11',
      },
    ],
    [
      'an Original 12 on a wounded hero',
      'German hero 1-4-9',
      { wounded: true },
      [6, 6],
      {
        result: 'eliminated',
        label: 'Eliminated',
        effect: 'An Original 12 on a wounded hero: it is eliminated (A15.2). (wounded: ML 9 − 1 (A17.3))',
        ref: 'A15.2',
        becomes: { eliminated: true },
      },
    ],
    [
      'a wounded hero fails',
      'German hero 1-4-9',
      { wounded: true },
      [5, 5],
      {
        label: 'Eliminated',
        result: 'eliminated',
        effect: 'Final 10 > ML 8: a wounded hero that fails an MC is eliminated (A15.2). (wounded: ML 9 − 1 (A17.3))',
        ref: 'A15.2',
        becomes: { eliminated: true },
      },
    ],
    [
      'an Original 12 on a berserk squad: eliminated',
      G467,
      { hob: { ...hobDefaults, status: 'berserk' } },
      [6, 6],
      {
        result: 'eliminated',
        label: 'Eliminated',
        effect: 'An Original 12 on a berserk unit: it is eliminated (A15.42). (berserk: ML 10 (A15.42))',
        ref: 'A15.42, A10.31',
        becomes: { eliminated: true },
      },
    ],
    [
      'an Original 12 on a berserk leader: wounded, never broken',
      'German 9-1',
      { hob: { ...hobDefaults, status: 'berserk' } },
      [6, 6, 1],
      {
        result: 'casualty_reduction',
        label: 'Casualty Reduction',
        effect: 'An Original 12 on a berserk leader: it is wounded: the Wound Severity dr below says how badly. (berserk: ML 10 (A15.42))',
        ref: 'A15.42, A10.31',
      },
    ],
    [
      'a berserk squad fails: Casualty Reduction, never broken',
      G467,
      { hob: { ...hobDefaults, status: 'berserk' } },
      [5, 6],
      {
        result: 'casualty_reduction',
        label: 'Casualty Reduction',
        effect:
          'Failed by 1 while berserk: never broken, it suffers Casualty Reduction instead: it is reduced to an unbroken German 2-4-7 half-squad. (berserk: ML 10 (A15.42))',
        ref: 'A15.42, A7.302',
        unit_after: 'German 2-4-7 half-squad',
        becomes: { counter: 'German 2-4-7 half-squad', broken: false },
      },
    ],
    [
      'a berserk squad at its ML passes, is never pinned and takes no leadership DRM',
      G467,
      { hob: { ...hobDefaults, status: 'berserk' }, leaderDrm: -2 },
      [5, 5],
      {
        result: 'passed',
        label: 'Passed',
        effect: 'Final 10 ≤ ML 10: no effect. (berserk: ML 10 (A15.42)) (berserk: no leadership DRM, A15.42)',
        tone: 'good',
        ref: 'A10.1',
      },
    ],
    [
      'an Original 12 on a Japanese leader: eliminated',
      'Japanese 9-1',
      {},
      [6, 6],
      {
        result: 'eliminated',
        label: 'Eliminated',
        effect: 'An Original 12 on a Japanese leader: a Casualty MC eliminates him (G1.4).',
        ref: 'G1.4',
        becomes: { eliminated: true },
      },
    ],
    [
      'a Japanese leader fails: wounded, never broken',
      'Japanese 9-1',
      {},
      [5, 5, 1],
      {
        result: 'wounded',
        label: 'Wounded',
        effect: 'Final 10 > ML 9: a Japanese SMC is never broken, he is wounded: it is wounded: the Wound Severity dr below says how badly.',
        ref: 'G1.4, A17.11',
      },
    ],
    [
      'a Japanese leader at his ML on an IFT check passes, never pinned',
      'Japanese 9-1',
      {},
      [4, 5],
      { result: 'passed', label: 'Passed', effect: 'Final 9 ≤ ML 9: no effect.', tone: 'good', ref: 'A10.1' },
    ],
    [
      'a broken half-squad fails: eliminated',
      'German 2-4-7 half-squad',
      { broken: true },
      [4, 5],
      {
        result: 'casualty_reduction',
        label: 'Casualty Reduction',
        effect: 'Failed by 3 while broken: a half-squad or crew that is reduced is eliminated. (broken side: ML 6)',
        ref: 'A10.1, A7.302',
        becomes: { eliminated: true },
      },
    ],
    [
      'an underscored half-squad past the ELR is not Replaced: Disrupted',
      'German 3-3-8 half-squad',
      { elr: 1 },
      [5, 6],
      {
        result: 'disrupted',
        label: 'Broken and Disrupted',
        effect: 'Failed by 3, more than its ELR of 1, and a half-squad with an underscored ML is not Replaced: it breaks and is Disrupted (A19.12).',
        ref: 'A19.13, A19.12',
        becomes: { broken: true, disrupted: true },
      },
    ],
    [
      'an Original 12 on an underscored squad past the ELR: one broken half-squad of its own type',
      'German 8-3-8',
      { elr: 1 },
      [6, 6],
      {
        result: 'casualty_reduction',
        label: 'Replaced and reduced',
        effect:
          'An Original 12, failed by 4, more than its ELR of 1: Replaced first, then Casualty Reduction — it becomes a broken German 3-3-8 half-squad (A19.13, A10.31).',
        ref: 'A19.13, A10.31',
        unit_after: 'German 3-3-8 half-squad',
        becomes: { counter: 'German 3-3-8 half-squad', broken: true },
      },
    ],
    [
      'an Original 12 on a squad outside the data past the ELR: a half-squad of the next lower Class, unnamed',
      'German 5-5-7',
      { elr: 1, unit: unit('German 5-5-7', { class: 'first_line' }) },
      [6, 6],
      {
        result: 'casualty_reduction',
        label: 'Replaced and reduced',
        effect:
          'An Original 12, failed by 5, more than its ELR of 1: Replaced first, then Casualty Reduction — it becomes a broken half-squad of the next lower Class (A19.13, A10.31).',
        ref: 'A19.13, A10.31',
        becomes: { broken: true },
      },
    ],
    [
      'an Original 12 on a leader outside the data past the ELR: Replaced, unnamed, and wounded',
      'German 7-1',
      { elr: 1 },
      [6, 6, 1],
      {
        result: 'casualty_reduction',
        label: 'Replaced and wounded',
        effect:
          'An Original 12: Failed by 5, more than its ELR of 1: replace him with a broken leader one rank lower (A19.13), then Casualty Reduction: it is wounded: the Wound Severity dr below says how badly (A10.31).',
        ref: 'A19.13, A10.31',
        becomes: { broken: true },
      },
    ],
    [
      'an Original 12 on a leader within the ELR: broken and wounded',
      'German 9-1',
      { elr: 5 },
      [6, 6, 1],
      {
        result: 'casualty_reduction',
        label: 'Casualty Reduction',
        effect: 'An Original 12 (Casualty MC): it breaks and suffers Casualty Reduction: it is wounded: the Wound Severity dr below says how badly.',
        ref: 'A10.31, A7.302',
        becomes: { broken: true },
      },
    ],
    [
      'an Original 12 on the lowest leader past the ELR: wounded and Disrupted',
      'German 6+1',
      { elr: 1 },
      [6, 6, 1],
      {
        result: 'casualty_reduction',
        label: 'Casualty Reduction, Disrupted',
        effect:
          'An Original 12: Casualty Reduction — it is wounded: the Wound Severity dr below says how badly. Failed by 6, more than its ELR of 1, and a 6+1 cannot be Replaced: it breaks and is Disrupted (A19.12).',
        ref: 'A10.31, A19.13, A19.12',
        becomes: { broken: true, disrupted: true },
      },
    ],
    [
      'an Original 12 past the ELR on a Fanatic squad with no lower Class: reduced, never Disrupted',
      'Russian 4-2-6',
      { elr: 1, hob: { ...hobDefaults, fanatic: true } },
      [6, 6],
      {
        result: 'casualty_reduction',
        label: 'Casualty Reduction',
        effect:
          'An Original 12: Casualty Reduction — it is reduced to a broken Russian 2-2-6 half-squad. Failed by 5, more than its ELR of 1, and there is no lower Class; Fanatic units are never Disrupted, so it is only broken (A19.12). (Fanatic: ML 6 + 1)',
        ref: 'A10.31, A19.13, A19.12',
        unit_after: 'Russian 2-2-6 half-squad',
        becomes: { counter: 'Russian 2-2-6 half-squad', broken: true },
      },
    ],
    [
      'a heroic leader fails: wounded, not broken',
      'German 9-1',
      { hob: { ...hobDefaults, heroic: true } },
      [5, 5, 1],
      {
        result: 'wounded',
        label: 'Wounded',
        effect: 'Final 10 > ML 9: a hero is wounded instead of broken: it is wounded: the Wound Severity dr below says how badly.',
        ref: 'A17.1, A17.11',
      },
    ],
    [
      'a wounded heroic leader who fails is wounded again, not eliminated as a hero would be',
      'German 9-1',
      { hob: { ...hobDefaults, heroic: true }, wounded: true },
      [5, 5, 1],
      {
        result: 'wounded',
        label: 'Wounded',
        effect: 'Final 10 > ML 8: a hero is wounded instead of broken: it is wounded: the Wound Severity dr below says how badly. (wounded: ML 9 − 1 (A17.3))',
        ref: 'A17.1, A17.11',
      },
    ],
    [
      'an Original 12 on a wounded heroic leader: wounded, not eliminated',
      'German 9-1',
      { hob: { ...hobDefaults, heroic: true }, wounded: true },
      [6, 6, 1],
      {
        result: 'wounded',
        label: 'Wounded',
        effect: 'An Original 12 on a hero: it is wounded: the Wound Severity dr below says how badly. (wounded: ML 9 − 1 (A17.3))',
        ref: 'A10.31, A17.11',
      },
    ],
    [
      "a counter's own ELR is named when it fails",
      'Partisan 3-3-7',
      {},
      [4, 4],
      { result: 'broken', label: 'Broken', effect: 'Final 8 > ML 7: the unit breaks. (ELR 5: its counter, A1.23)', ref: 'A10.1', becomes: { broken: true } },
    ],
    [
      'an ELR given by the player is not explained',
      'Partisan 3-3-7',
      { elr: 4 },
      [4, 4],
      { result: 'broken', label: 'Broken', effect: 'Final 8 > ML 7: the unit breaks.', ref: 'A10.1', becomes: { broken: true } },
    ],
    [
      'an ELR is named only when the check fails',
      'Partisan 3-3-7',
      {},
      [3, 3],
      { result: 'passed', label: 'Passed', effect: 'Final 6 ≤ ML 7: no effect.', tone: 'good', ref: 'A10.1' },
    ],
  ] as const)('%s', (_what, name, over, dice, step) => {
    const input = checkBase('unit' in over ? over.unit : unit(name), over as Partial<CheckInput>);
    const out = moraleCheck(input, fixedRoller([...dice]));
    expect(reading(out.steps[0]!)).toMatchObject({ kind: 'mc', tone: 'bad', ...step });
  });

  // The +1 is for an SMC already wounded, or a hero or berserk leader on a Casualty MC
  // (A10.31, A17.11); an ordinary leader's Casualty MC rolls the plain dr, and a 4 is a minor wound.
  it.each([
    ['German 8-1, unwounded, Original 12, dr 4: plain dr, minor wound', 'German 8-1', false, [6, 6, 4], [], 4, 'wounded'],
    ['German 9-1, unwounded, Original 12, dr 5: killed without any +1', 'German 9-1', false, [6, 6, 5], [], 5, 'killed'],
    [
      'German 9-1, already wounded, Original 12, dr 3: +1 once → 4, wounded',
      'German 9-1',
      true,
      [6, 6, 3],
      [{ reason: 'already wounded', value: 1 }],
      4,
      'wounded',
    ],
    ['German 9-1, already wounded, Original 12, dr 4: +1 → 5, killed', 'German 9-1', true, [6, 6, 4], [{ reason: 'already wounded', value: 1 }], 5, 'killed'],
  ] as const)('Casualty MC wound: %s', (_what, name, wounded, dice, modifiers, final, result) => {
    const out = moraleCheck(checkBase(unit(name), { elr: 5, wounded }), fixedRoller([...dice]));
    expect(out.steps[1]).toMatchObject({ kind: 'wound', modifiers, final, result });
    expect(out.result).toBe(result === 'killed' ? 'eliminated' : 'casualty_reduction');
  });
});

// Japanese squads (G1.1–G1.14) and rallies, word for word. [what, unit, options, dice, step]
const G467R = 'German 4-6-7';
describe('Japanese squads and rallies, word for word', () => {
  const J447 = 'Japanese 4-4-7';
  const J347r = 'Japanese 3-4-7 reduced';
  it.each([
    [
      'IFT failure: Step Reduction to the reduced side',
      J447,
      { elr: 3 },
      [4, 5],
      {
        result: 'step_reduced',
        label: 'Step-Reduced',
        effect: 'Final 9 > ML 7: Step Reduction — flip it to its reduced side, Japanese 3-4-7 reduced squad, still unbroken (G1.121).',
        ref: 'G1.121',
        unit_after: 'Japanese 3-4-7 reduced squad',
        becomes: { counter: 'Japanese 3-4-7 reduced squad' },
      },
    ],
    [
      'IFT failure on the reduced side: an unbroken half-squad',
      J347r,
      { elr: 3 },
      [4, 5],
      {
        label: 'Step-Reduced',
        unit_after: 'Japanese 2-3-7 half-squad',
        result: 'step_reduced',
        effect: 'Final 9 > ML 7: Step Reduction — exchange it for an unbroken Japanese 2-3-7 half-squad, still unbroken (G1.122).',
        ref: 'G1.122',
        becomes: { counter: 'Japanese 2-3-7 half-squad' },
      },
    ],
    [
      'past the ELR: Replaced, then Step-Reduced',
      J447,
      { elr: 1 },
      [5, 5],
      {
        unit_after: 'Japanese 2-3-7 reduced squad',
        result: 'replaced',
        label: 'Replaced (ELR) and Step-Reduced',
        effect:
          'Failed by 3, more than its ELR of 1: Replaced by the full squad of the next lower Class, then Step-Reduced: it becomes an unbroken Japanese 2-3-7 reduced squad (G1.123).',
        ref: 'G1.123',
        becomes: { counter: 'Japanese 2-3-7 reduced squad', broken: false },
      },
    ],
    [
      'the reduced side past the ELR',
      J347r,
      { elr: 1 },
      [5, 5],
      {
        label: 'Replaced (ELR) and Step-Reduced',
        unit_after: 'Japanese 1-3-7 half-squad',
        result: 'replaced',
        effect:
          'Failed by 3, more than its ELR of 1: Replaced by the reduced squad of the next lower Class, then Step-Reduced: it becomes an unbroken Japanese 1-3-7 half-squad (G1.124).',
        ref: 'G1.124',
        becomes: { counter: 'Japanese 1-3-7 half-squad', broken: false },
      },
    ],
    [
      'a Conscript past the ELR: G1.125, said so',
      'Japanese 3-3-6',
      { elr: 1 },
      [4, 5],
      {
        result: 'elr_unresolved',
        label: 'ELR failure (G1.125)',
        effect:
          'Failed by 3, more than its ELR of 1, as a Conscript: G1.125 decides, and the bot could not check its text. Apply G1.125 from your rulebook; nothing was changed on the roster.',
        ref: 'G1.125',
      },
    ],
    [
      'a non-IFT failure: two broken half-squads',
      J447,
      { elr: 3, ift: false },
      [4, 5],
      {
        unit_after: 'Japanese 2-3-7 half-squad',
        result: 'broken',
        label: 'Broken (two HS)',
        effect: 'Failed a non-IFT MC: exchange it for two broken Japanese 2-3-7 half-squads (G1.13).',
        ref: 'G1.13',
        becomes: { counter: 'Japanese 2-3-7 half-squad', broken: true, two: true },
      },
    ],
    [
      'a non-IFT failure past the ELR: of the next lower Class',
      J447,
      { elr: 1, ift: false },
      [5, 5],
      {
        label: 'Broken (two HS)',
        ref: 'G1.13',
        unit_after: 'Japanese 1-3-7 half-squad',
        result: 'broken',
        effect:
          'Failed a non-IFT MC: exchange it for two broken Japanese 1-3-7 half-squads (the next lower Class: failed by 3, more than its ELR of 1) (G1.13).',
        becomes: { counter: 'Japanese 1-3-7 half-squad', broken: true, two: true },
      },
    ],
    [
      'a Conscript non-IFT failure past the ELR: its own half-squads',
      'Japanese 3-3-6',
      { elr: 1, ift: false },
      [4, 5],
      {
        label: 'Broken (two HS)',
        ref: 'G1.13',
        unit_after: 'Japanese 1-2-6 half-squad',
        becomes: { counter: 'Japanese 1-2-6 half-squad', broken: true, two: true },
        result: 'broken',
        effect: 'Failed a non-IFT MC: exchange it for two broken Japanese 1-2-6 half-squads (G1.13).',
      },
    ],
    [
      'a non-IFT failure on the reduced side: one broken half-squad',
      J347r,
      { elr: 3, ift: false },
      [4, 5],
      {
        ref: 'G1.13',
        unit_after: 'Japanese 2-3-7 half-squad',
        result: 'broken',
        label: 'Broken (one HS)',
        effect: 'Failed a non-IFT MC: exchange it for one broken Japanese 2-3-7 half-squad (G1.13).',
        becomes: { counter: 'Japanese 2-3-7 half-squad', broken: true },
      },
    ],
    [
      'an Original 12: one broken half-squad',
      J447,
      { elr: 3 },
      [6, 6],
      {
        unit_after: 'Japanese 2-3-7 half-squad',
        result: 'casualty_reduction',
        label: 'Casualty Reduction',
        effect: 'An Original 12: Casualty Reduction makes it one broken Japanese 2-3-7 half-squad (G1.14, A10.31).',
        ref: 'G1.14, A10.31',
        becomes: { counter: 'Japanese 2-3-7 half-squad', broken: true },
      },
    ],
    [
      'rally, Original 12: Fate',
      G467R,
      { check: 'rally', broken: true, leaderDrm: 0 },
      [6, 6],
      {
        unit_after: 'German 2-4-7 half-squad',
        kind: 'rally',
        result: 'fate',
        label: 'Fate',
        effect: 'An Original 12: Casualty Reduction — it is reduced to a broken German 2-4-7 half-squad; it does not rally.',
        ref: 'A10.6, A7.302',
        becomes: { counter: 'German 2-4-7 half-squad', broken: true },
      },
    ],
    [
      'Self-Rally, Original 2 on the first attempt: Leader Creation',
      G467R,
      { check: 'rally', broken: true, selfRally: true, firstRally: true },
      [1, 1],
      {
        tone: 'good',
        kind: 'rally',
        result: 'rallied',
        label: 'Rallied, Leader Creation',
        effect: 'An Original 2 on the first MMC Self-Rally of the RPh: it rallies and makes a Leader Creation dr with +1 (A18.11). No Heat of Battle.',
        ref: 'A10.6, A18.11',
        becomes: { broken: false, disrupted: false },
      },
    ],
    [
      'rally with a leader, Original 2: the Final decides',
      G467R,
      { check: 'rally', broken: true, leaderDrm: 0 },
      [1, 1, 3, 3],
      {
        tone: 'good',
        becomes: { broken: false, disrupted: false },
        kind: 'rally',
        result: 'rallied',
        label: 'Rallied',
        effect:
          'Final 2 ≤ ML 7: the unit rallies. An Original 2 with a leader is no automatic rally: the Final decides, and Heat of Battle follows (A10.6, A15.1).',
        ref: 'A10.6',
      },
    ],
    [
      'rally fails',
      G467R,
      { check: 'rally', broken: true, leaderDrm: 0 },
      [4, 5],
      { kind: 'rally', result: 'not_rallied', label: 'Not rallied', effect: 'Final 9 > ML 7: it stays broken.', tone: 'bad', ref: 'A10.6' },
    ],
    // A25.221–.222: a rallying Commissar adds +1 to the broken-side ML, and a failed
    // rally he leads is never "stays as it is".
    [
      "a Commissar's failed rally: Replaced by the next lower Class",
      'Russian 4-4-7',
      { check: 'rally', broken: true, leaderDrm: 0, commissar: 'leads_rally' },
      [4, 5],
      {
        unit_after: 'Russian 4-2-6',
        kind: 'rally',
        result: 'replaced',
        label: 'Not rallied, Replaced',
        effect:
          "Final 9 > ML 8: it fails the Commissar's rally and is Replaced by the next lower Class: a broken Russian 4-2-6 (A25.222). (the rallying Commissar: ML 7 + 1, A25.222)",
        ref: 'A25.222',
        becomes: { counter: 'Russian 4-2-6', broken: true },
      },
    ],
    [
      "a Commissar's failed rally of a squad of the lowest quality: Casualty Reduced to a broken HS",
      'Russian 4-2-6',
      { check: 'rally', broken: true, leaderDrm: 0, commissar: 'leads_rally' },
      [4, 5],
      {
        unit_after: 'Russian 2-2-6 half-squad',
        label: 'Not rallied, Casualty Reduction',
        ref: 'A25.222, A7.302',
        kind: 'rally',
        result: 'casualty_reduction',
        // A rally is against the broken side: 5 on this counter, 6 with the Commissar.
        effect:
          "Final 9 > ML 6: it fails the Commissar's rally; already of the lowest quality, it cannot be Replaced and suffers Casualty Reduction instead: it becomes a broken Russian 2-2-6 half-squad (A25.222, A7.302). (broken side: ML 5; the rallying Commissar: ML 5 + 1, A25.222)",
        becomes: { counter: 'Russian 2-2-6 half-squad', broken: true },
      },
    ],
    [
      "a Commissar's failed rally of a HS of the lowest quality: eliminated",
      'Russian 2-2-6 half-squad',
      { check: 'rally', broken: true, leaderDrm: 0, commissar: 'leads_rally' },
      [6, 5],
      {
        label: 'Not rallied, Eliminated',
        ref: 'A25.222',
        kind: 'rally',
        result: 'eliminated',
        effect:
          // the data: a Russian 2-2-6's broken side is 4; 5 with the Commissar.
          "Final 11 > ML 5: it fails the Commissar's rally; a half-squad of the lowest quality cannot be Replaced, so it is eliminated (A25.222). (broken side: ML 4; the rallying Commissar: ML 4 + 1, A25.222)",
        becomes: { eliminated: true },
      },
    ],
    [
      "a Commissar's failed rally of a broken leader: an SMC is eliminated",
      'Russian 8-0',
      { check: 'rally', broken: true, leaderDrm: 0, commissar: 'leads_rally' },
      [6, 5],
      {
        label: 'Not rallied, Eliminated',
        ref: 'A25.222',
        kind: 'rally',
        result: 'eliminated',
        effect:
          "Final 11 > ML 9: it fails the Commissar's rally; an SMC cannot be Replaced, so it is eliminated (A25.222). (the rallying Commissar: ML 8 + 1, A25.222)",
        becomes: { eliminated: true },
      },
    ],
    [
      "a Commissar's failed rally, the unit outside the data: a unit of the next lower Class, unnamed",
      'Russian 5-5-7',
      { unit: unit('Russian 5-5-7', { class: 'first_line' }), check: 'rally', broken: true, leaderDrm: 0, commissar: 'leads_rally' },
      [5, 5],
      {
        kind: 'rally',
        result: 'replaced',
        label: 'Not rallied, Replaced',
        effect:
          "Final 10 > ML 8: it fails the Commissar's rally and is Replaced by the next lower Class: a 2nd Line unit of the same size, broken (A25.222). (the rallying Commissar: ML 7 + 1, A25.222)",
        ref: 'A25.222',
        becomes: { broken: true },
      },
    ],
    [
      "a Commissar's rally ignores Desperation Morale, and says so",
      'Russian 4-4-7',
      { check: 'rally', broken: true, leaderDrm: 0, commissar: 'leads_rally', desperation: true },
      [4, 4],
      {
        kind: 'rally',
        result: 'rallied',
        label: 'Rallied',
        effect: 'Final 8 ≤ ML 8: the unit rallies. (the rallying Commissar: ML 7 + 1, A25.222) (a Commissar’s rally ignores Desperation Morale, A25.222)',
        tone: 'good',
        ref: 'A10.6',
        becomes: { broken: false, disrupted: false },
      },
    ],
    [
      'a failed rally on an Original 2 with a leader: no automatic rally, Heat of Battle follows',
      G467R,
      { check: 'rally', broken: true, leaderDrm: 0, desperation: true, ml: 5 },
      [1, 1, 3, 3],
      {
        kind: 'rally',
        result: 'not_rallied',
        label: 'Not rallied',
        effect: 'Final 6 > ML 5: it stays broken. An Original 2 with a leader is no automatic rally (A10.6); Heat of Battle follows. (ML 5 as given)',
        ref: 'A10.6',
      },
    ],
    [
      'a later Self-Rally on an Original 2: rallies on the Final, no Leader Creation, no Heat of Battle',
      G467R,
      { check: 'rally', broken: true, selfRally: true, firstRally: false },
      [1, 1],
      {
        kind: 'rally',
        result: 'rallied',
        label: 'Rallied',
        effect: 'Final 3 ≤ ML 7: the unit rallies. Original 2, but no Heat of Battle: a Self-Rally never triggers Heat of Battle.',
        tone: 'good',
        ref: 'A10.6',
        becomes: { broken: false, disrupted: false },
      },
    ],
    [
      'a Finnish first Self-Rally on an Original 2: no Leader Creation (A18.11)',
      'Finnish 6-4-8',
      { check: 'rally', broken: true, selfRally: true, firstRally: true },
      [1, 1],
      {
        kind: 'rally',
        result: 'rallied',
        label: 'Rallied',
        effect: 'Final 3 ≤ ML 8: the unit rallies. Original 2, but no Heat of Battle: a Self-Rally never triggers Heat of Battle.',
        tone: 'good',
        ref: 'A10.6',
        becomes: { broken: false, disrupted: false },
      },
    ],
    [
      "a half-squad's rally, Original 12: Fate eliminates it",
      'German 2-4-7 half-squad',
      { check: 'rally', broken: true, leaderDrm: 0 },
      [6, 6],
      {
        kind: 'rally',
        result: 'fate',
        label: 'Fate',
        effect: 'An Original 12: Casualty Reduction — a half-squad or crew that is reduced is eliminated; it does not rally. (broken side: ML 6)',
        ref: 'A10.6, A7.302',
        becomes: { eliminated: true },
      },
    ],
    [
      "a leader's Self-Rally, Original 12: Fate wounds him and he stays broken",
      'German 8-0',
      { check: 'rally', broken: true, selfRally: true },
      [6, 6, 4],
      {
        kind: 'rally',
        result: 'fate',
        label: 'Fate',
        effect: 'An Original 12: Casualty Reduction — it is wounded: the Wound Severity dr below says how badly; it does not rally.',
        ref: 'A10.6, A7.302',
        becomes: { broken: true },
      },
    ],
  ] as const)('%s', (_what, name, over, dice, step) => {
    const out = moraleCheck(checkBase('unit' in over ? over.unit : unit(name), over as Partial<CheckInput>), fixedRoller([...dice]));
    expect(reading(out.steps[0]!)).toMatchObject({ kind: 'mc', tone: 'bad', ...step });
  });
});

// What a check hands on (the Heat of Battle DR, the Wound Severity dr, the companions' NTCs) and what
// it refuses before any die is rolled, each checked exactly (mutation testing left these
// free to change).
describe('a check’s hand-offs and refusals', () => {
  const green = { reason: 'inexperienced (Green, no unbroken leader stacked with it)', value: 1 };
  const brokenDrm = { reason: 'broken when the Original 2 was rolled', value: 1 };
  const hobOf = (name: string, over: Partial<CheckInput>, dice = [1, 1, 3, 3]) => moraleCheck(checkBase(unit(name), over), fixedRoller(dice)).steps[1]!;

  it('a Green squad is Inexperienced for its Heat of Battle DR only with no leader taking part (A15.1)', () => {
    expect(plainMods(hobOf('American 5-3-6', {}).modifiers)).toContainEqual(green);
    expect(plainMods(hobOf('American 5-3-6', { leaderDrm: 0 }).modifiers)).not.toContainEqual(green);
    expect(plainMods(hobOf('American 5-3-6', { check: 'rally', broken: true, leaderDrm: -1 }).modifiers)).not.toContainEqual(green);
    expect(plainMods(hobOf('American 5-3-6', { hob: { ...hobDefaults, withLeader: true } }).modifiers)).not.toContainEqual(green);
  });

  it('the broken DRM goes by the state when the 2 was rolled: a rally always has it, a good-order MC never', () => {
    expect(plainMods(hobOf(G467R, {}).modifiers)).not.toContainEqual(brokenDrm);
    expect(plainMods(hobOf(G467R, { broken: true }).modifiers)).toContainEqual(brokenDrm);
    expect(plainMods(hobOf(G467R, { check: 'rally', broken: false, leaderDrm: 0 }).modifiers)).toContainEqual(brokenDrm);
    expect(hobOf(G467R, {}).kind).toBe('hob');
    expect(hobOf(G467R, {})).toHaveProperty('trigger', 'Original 2 on the Morale Check');
    expect(hobOf(G467R, { check: 'rally', broken: true, leaderDrm: 0 })).toHaveProperty('trigger', 'Original 2 on the Rally');
  });

  it('only a leader who goes berserk brings his companions’ NTCs', () => {
    const companions = [{ unit: unit(G467R), broken: false }];
    const kinds = (name: string, dice: number[]) => moraleCheck(checkBase(unit(name), { companions }), fixedRoller(dice)).steps.map((s) => [s.kind, s.result]);
    // A squad that goes berserk rolls no NTC for the others; a leader who becomes a hero neither.
    expect(kinds(G467R, [1, 1, 5, 5])).toMatchObject([
      ['mc', 'passed'],
      ['hob', 'berserk'],
    ]);
    expect(kinds('German 9-1', [1, 1, 1, 1])).toMatchObject([
      ['mc', 'passed'],
      ['hob', 'hero'],
    ]);
    expect(kinds('German 9-1', [1, 1, 5, 5, 3, 3])).toMatchObject([
      ['mc', 'passed'],
      ['hob', 'berserk'],
      ['ntc', 'berserk'],
    ]);
  });

  it('the Wound Severity dr: 1–4 a minor wound, 5 or more (after drm) killed (A17.11)', () => {
    expect(woundStep(fixedRoller([4]), [])).toMatchObject({
      kind: 'wound',
      dice: [4],
      original: 4,
      modifiers: [],
      final: 4,
      result: 'wounded',
      label: 'Wounded',
      effect: 'Wound Severity 4 (1–4): a minor wound; mark him wounded (ML −1, A17.3).',
      tone: 'bad',
      ref: 'A17.11',
      becomes: { wounded: true },
    });
    expect(woundStep(fixedRoller([4]), [{ reason: 'already wounded', value: 1 }])).toMatchObject({
      kind: 'wound',
      dice: [4],
      original: 4,
      modifiers: [{ reason: 'already wounded', value: 1 }],
      final: 5,
      result: 'killed',
      label: 'Killed',
      effect: 'Wound Severity 5 (5 or more): the wound is mortal, he is eliminated.',
      tone: 'bad',
      ref: 'A17.11',
      becomes: { eliminated: true },
    });
  });

  it('refuses what the rules cannot take as given, naming the unit and the rule', () => {
    // What the player reads in English (the rules return an identifier with parameters).
    const conflict = (name: string, over: Partial<CheckInput>) => {
      const said = checkConflict(checkBase(unit(name), over));
      return said && sayIn('en', said);
    };
    expect(conflict('Japanese 4-4-7', { broken: true })).toBe(
      'Japanese 4-4-7: Japanese squads have no broken side (G1.1); only their half-squads break and rally',
    );
    expect(conflict('Japanese 4-4-7', { check: 'rally' })).toMatch(/Japanese squads have no broken side/);
    expect(conflict('German hero 1-4-9', { broken: true })).toBe('German hero 1-4-9: heroes are never broken (A15.2, A17.1), so there is nothing to rally');
    expect(conflict('German 9-1', { check: 'rally', hob: { ...hobDefaults, heroic: true } })).toMatch(/heroes are never broken/);
    expect(conflict(G467R, { broken: true, hob: { ...hobDefaults, status: 'berserk' } })).toBe(
      'German 4-6-7: a berserk unit is never broken (A15.42); a roster unit stops being berserk through /unit edit',
    );
    expect(conflict(G467R, { check: 'rally', hob: { ...hobDefaults, status: 'berserk' } })).toMatch(/a berserk unit is never broken/);
    expect(conflict(G467R, { commissar: 'leads_rally' })).toBe('`commissar:leads_rally` is for a rally (A25.222); on an MC give `commissar:in_location`');
    expect(conflict('Russian 9-1', { commissar: 'in_location', hob: { ...hobDefaults, subType: 'commissar' } })).toBe(
      'Russian 9-1 leader is the Commissar: his +1 ML is for the other units in his Location (A25.221)',
    );
    // A10.6: a rally names who rallies it, or is refused naming both options.
    expect(conflict(G467R, { check: 'rally', broken: true })).toBe(
      'German 4-6-7: say who rallies it — `leader_drm` for the rallying leader (0 for an 8-0) or `self_rally:first`/`self_rally:later` for a Self-Rally (A10.6)',
    );
    expect(conflict(G467R, { check: 'rally', commissar: 'leads_rally', selfRally: true })).toBe(
      'a Self-Rally has no rallying leader, so no Commissar leads it',
    );
    expect(conflict(G467R, { wounded: true })).toBe('`wounded` is for a leader or hero (A17)');
    // Commissars are Russian (A25.22), as sub_type:nkvd is refused on a German squad.
    expect(conflict(G467R, { check: 'rally', broken: true, commissar: 'leads_rally' })).toBe(
      '`commissar:leads_rally`: Commissars are Russian (A25.22), and German 4-6-7 is not',
    );
    expect(conflict('British 4-5-7', { commissar: 'in_location' })).toBe('`commissar:in_location`: Commissars are Russian (A25.22), and British 4-5-7 is not');
    // What each refusal allows.
    for (const [name, over] of [
      ['German hero 1-4-9', {}],
      [G467R, { hob: { ...hobDefaults, status: 'berserk' } }],
      ['Russian 4-4-7', { check: 'rally', broken: true, commissar: 'leads_rally' }],
      [G467R, { check: 'rally', broken: true, selfRally: true }],
      ['German 9-1', { wounded: true }],
      ['German hero 1-4-9', { wounded: true }],
      ['Japanese 2-3-7 half-squad', { broken: true }],
    ] as const)
      expect(conflict(name, over as Partial<CheckInput>), name).toBeUndefined();
  });

  it('a check names the order of its results from best to worst; a Self-Rally blocks the chain before any exemption', () => {
    expect(checkOrder(checkBase(unit(G467R)))).toBe(MC_ORDER);
    expect(checkOrder(checkBase(unit(G467R), { check: 'rally' }))).toBe(ASL_RALLY_ORDER);
    expect(MC_ORDER.indexOf('passed')).toBe(0);
    expect(ASL_RALLY_ORDER).toMatchObject(['rallied', 'not_rallied', 'replaced', 'casualty_reduction', 'fate', 'eliminated']);
    expect(english(hobChainBlocked(checkBase(unit(G467R), { check: 'rally', broken: true, selfRally: true })))).toBe(
      'a Self-Rally never triggers Heat of Battle',
    );
    expect(hobChainBlocked(checkBase(unit(G467R), { check: 'rally', broken: true, leaderDrm: 0 }))).toBeUndefined();
    expect(hobChainBlocked(checkBase(unit(G467R), { selfRally: true }))).toBeUndefined();
  });
});
