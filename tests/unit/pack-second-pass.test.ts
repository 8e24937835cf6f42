import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixedRoller } from '../../src/dice/roller.js';
import { format } from '../../src/rules/odds.js';
import { type ExprError, evalExpr, parseExpr } from '../../src/rules/packs/expr.js';
import { changedUnit } from '../../src/rules/packs/input.js';
import { loadPack, type Pack } from '../../src/rules/packs/load.js';
import type { PackInput } from '../../src/rules/packs/modifiers.js';
import { packDistribution } from '../../src/rules/packs/odds.js';
import { rerollOffer } from '../../src/rules/packs/reroll.js';
import { rollPack } from '../../src/rules/packs/roll.js';
import { BUILT_IN, problemsOf } from '../helpers/packs.js';
import { parse } from 'yaml';

/** The constructs published morale tests needed, each rolled with pinned dice on a shipped example, and each refusal naming its path. */

const example = (name: string): Pack => {
  const l = loadPack(fs.readFileSync(`packs/${name}.yaml`, 'utf8'), BUILT_IN);
  if (!l.ok) throw new Error(l.problems.join('\n'));
  return l.pack;
};
const file = (name: string) => parse(fs.readFileSync(`packs/${name}.yaml`, 'utf8'));
const odds = (pack: Pack, input: PackInput, from = {}) => Object.fromEntries([...packDistribution(pack, input, from)].map(([k, p]) => [k, format(p)]));

describe('a derived quantity: a small grammar, never eval', () => {
  it('reads integers, + - *, min, max, floor(a / b), parentheses and names', () => {
    const scope = (n: string) => ({ pins: 3, lost: 7, original: 10 })[n];
    expect(evalExpr(parseExpr('floor(7 / 2) + max(1, 2, 3) * -2'), scope)).toBe(-3);
    expect(evalExpr(parseExpr('-(pins - 1)'), scope)).toBe(-2);
    expect(evalExpr(parseExpr('floor(2 * original / 5) + 1 - min(lost, 3)'), scope)).toBe(2);
  });

  it('refuses anything else, saying where', () => {
    const why = (t: string) => {
      try {
        parseExpr(t);
        return 'parsed';
      } catch (err) {
        return (err as ExprError).message;
      }
    };
    expect(why('eval(1)')).toBe('character 5 ("("): expected + - * or the end');
    expect(why('pins / 2')).toBe('a division is written floor(a / b): whole numbers only');
    expect(why('pins +')).toBe('at the end (character 7): expected a number, a name or "("');
    expect(why('2 ^ 3')).toBe('character 3 ("^") is not part of an expression');
    expect(why('1'.repeat(121))).toBe('at most 120 characters (you gave 121)');
  });
});

describe('the second pass, rolled with pinned dice', () => {
  it('1. a table chosen by an option: the first test whose `when` holds is rolled', () => {
    const pack = example('fire-and-fury-maneuver');
    const base = { leader_attached: false, stands_lost: 0, state: 'fresh' };
    expect(rollPack(pack, { ...base, order: 'charge' }, fixedRoller([7])).steps[0]).toMatchObject({
      kind: 'charge',
      heading: 'Charge table',
      result: 'charges_home',
    });
    // A fresh brigade has nothing to rally: the rally table's `when` does not hold, the maneuver table is rolled.
    expect(rollPack(pack, { ...base, order: 'rally' }, fixedRoller([7])).steps[0]).toMatchObject({ kind: 'advance', result: 'advances' });
    expect(rollPack(pack, { ...base, order: 'rally', state: 'worn' }, fixedRoller([7])).steps[0]).toMatchObject({
      kind: 'rally',
      result: 'rallies',
      modifiers: [{ reason: 'worn', value: -1 }],
      final: 6,
    });
  });

  it('2 and 3. the number of dice from an option, counting the dice of 4 or more; odds per count', () => {
    const pack = example('sharp-practice-rally');
    const o = rollPack(pack, { level: 3, shock: 4 }, fixedRoller([4, 2, 6]));
    expect(o.steps[0]).toMatchObject({ dice: [4, 2, 6], sides: [6, 6, 6], original: 2, final: 2, result: 'shock_removed' });
    expect(o.unit).toEqual({ add: { shock: -2 }, set: {}, remove: false });
    expect(odds(pack, { level: 3, shock: 4 })).toEqual({ shock_removed: '7/8', no_effect: '1/8' });
    expect(odds(pack, { level: 1, shock: 4 })).toEqual({ shock_removed: '1/2', no_effect: '1/2' });
  });

  it('4. expressions as modifiers: each two stands lost is −1', () => {
    const pack = example('fire-and-fury-maneuver');
    const o = rollPack(pack, { order: 'advance', state: 'fresh', leader_attached: true, stands_lost: 5 }, fixedRoller([4]));
    expect(o.steps[0]!.modifiers).toEqual([
      { reason: 'leader attached', value: 1 },
      { reason: 'each two stands lost', value: -2 },
    ]);
    expect([o.steps[0]!.final, o.result]).toEqual([3, 'hesitates']);
  });

  it('5. graded results by margin, and a follow-up reading parent.margin', () => {
    const pack = example('call-of-cthulhu-sanity');
    const calm = rollPack(pack, { sanity: 60, horror: 2 }, fixedRoller([10]));
    expect(calm.steps[0]).toMatchObject({ result: 'pass:unmoved', grade: 'unmoved', label: 'Unmoved', margin: 50 });
    expect(calm.unit).toEqual({ add: { sanity: 0 }, set: {}, remove: false });
    expect(rollPack(pack, { sanity: 60, horror: 2 }, fixedRoller([30])).steps[0]).toMatchObject({ result: 'pass:keeps_calm', label: 'Keeps calm', margin: 30 });
    // Missed by 50: the loss is its dice (7) and 2 more for the margin.
    const shaken = rollPack(pack, { sanity: 30, horror: 2 }, fixedRoller([80, 3, 4]));
    expect(shaken.result).toBe('fail → loss');
    expect(shaken.steps.map((s) => [s.heading, s.margin])).toEqual([
      ['Sanity roll', -50],
      ['Sanity loss', undefined],
    ]);
    expect(shaken.unit).toEqual({ add: { sanity: -9 }, set: {}, remove: false });
    const o = odds(pack, { sanity: 60, horror: 1 });
    expect([o['pass:unmoved'], o['pass:keeps_calm'], o.steeled]).toEqual(['1/20', '1/2', '1/20']);
  });

  it('6. ranges of faces on a d100 and doubles on 2d6', () => {
    const sanity = example('call-of-cthulhu-sanity');
    expect(rollPack(sanity, { sanity: 40, horror: 1 }, fixedRoller([3])).steps[0]).toMatchObject({ result: 'steeled', special: true });
    expect(rollPack(sanity, { sanity: 99, horror: 1 }, fixedRoller([97, 2])).result).toBe('fumble → loss');
    const fm = example('chain-of-command-force-morale');
    const o = rollPack(fm, { cause: 'leader_hit', force_morale: 8, leaders_left: 2 }, fixedRoller([3, 3, 5, 1]));
    expect(o.steps.map((s) => [s.heading, s.result])).toEqual([
      ['Leader hit', 'shaken'],
      ['Loss table', 'morale_falls'],
    ]);
  });

  it('7. conditions beyond equality: at_most, in, not, any', () => {
    const fm = example('chain-of-command-force-morale');
    const o = rollPack(fm, { cause: 'senior_leader_hit', force_morale: 4, leaders_left: 0 }, fixedRoller([6, 5]));
    expect(o.steps[0]!.modifiers).toEqual([
      { reason: 'no leaders left to steady the men', value: -1 },
      { reason: 'a shaky force (morale 4 or less)', value: -1 },
    ]);
    expect(rollPack(fm, { cause: 'support_lost', force_morale: 9, leaders_left: 2 }, fixedRoller([6, 1])).steps[0]).toMatchObject({ kind: 'other', final: 7 });
  });

  it('8. a text unit field, set by a result', () => {
    const pack = example('fire-and-fury-maneuver');
    const o = rollPack(pack, { order: 'charge', state: 'fresh', leader_attached: false, stands_lost: 0 }, fixedRoller([2]));
    expect(o.unit).toEqual({ add: {}, set: { state: 'worn' }, remove: false });
    expect(changedUnit(pack, { state: 'fresh' }, o.unit!)).toEqual({ state: 'worn' });
  });

  it('9. a bound reached fires in the same roll; a change past it is held there, and the step says so', () => {
    const fm = example('chain-of-command-force-morale');
    // Force morale 1 is shaky (−1): 2 + 4 − 1 = 5 loses one, and reaches 0.
    const reached = rollPack(fm, { cause: 'leader_hit', force_morale: 1, leaders_left: 2 }, fixedRoller([2, 4]));
    expect(reached.steps[0]!.limits).toEqual([
      { field: 'force_morale', bound: 'min', value: 0, effect: 'Force morale reaches 0: the side breaks and leaves the table.' },
    ]);
    const past = rollPack(fm, { cause: 'leader_hit', force_morale: 1, leaders_left: 2 }, fixedRoller([1, 2]));
    expect(past.steps[0]!.limits).toEqual([
      { field: 'force_morale', bound: 'min', value: 0, clampedFrom: -1, effect: 'Force morale reaches 0: the side breaks and leaves the table.' },
    ]);
    // At 0 already, a loss fires nothing again: it is only held at the bound.
    expect(rollPack(fm, { cause: 'leader_hit', force_morale: 0, leaders_left: 2 }, fixedRoller([1, 2])).steps[0]!.limits).toEqual([
      { field: 'force_morale', bound: 'min', value: 0, clampedFrom: -2 },
    ]);
    const sanity = example('call-of-cthulhu-sanity');
    // Missed by 77: 7 on the dice and 3 for the margin take sanity 3 to −7, held at 0, where madness follows.
    const mad = rollPack(sanity, { sanity: 3, horror: 2 }, fixedRoller([80, 3, 4, 9]));
    expect(mad.steps.map((s) => s.kind)).toEqual(['sanity', 'loss', 'madness']);
    // The limit names the test it fires (a pack's `then:`, as data).
    const fired = { field: 'sanity', bound: 'min', value: 0, clampedFrom: -7, ['then' as string]: 'madness' };
    expect(mad.steps[1]!.limits).toEqual([fired]);
    expect(mad.result).toBe('fail → loss → catatonic');
  });

  it('10. a re-roll offered after the results its `when` names, starting at its test, with its own odds', () => {
    const pack = example('d20-will-save');
    const input = { will: -2, difficulty: 15, blessed: false };
    const failed = rollPack(pack, input, fixedRoller([12]));
    expect(failed.steps[0]).toMatchObject({ final: 10, result: 'fail', modifiers: [{ reason: 'will', value: -2 }] });
    expect(rerollOffer(pack, failed, input)).toMatchObject({
      on: 'will',
      start: 'will',
      reroll: { label: 'Spend inspiration — re-roll', by: 'owner', once: true },
    });
    expect(rerollOffer(pack, rollPack(pack, input, fixedRoller([18])), input)).toBeUndefined();
    expect(odds(pack, input, { start: 'will' })).toEqual({ heroic: '1/20', pass: '3/20', fail: '3/4', broken: '1/20' });
  });
});

describe('the validator refuses each second-pass form it cannot use, naming its path', () => {
  const broken = (name: string, edit: (p: any) => void) => {
    const p = file(name);
    edit(p);
    return problemsOf(p);
  };
  it.each<[string, string, (p: any) => void, string]>([
    [
      'a combination no first test takes',
      'fire-and-fury-maneuver',
      (p) => (p.tests.advance.when = { order: 'advance' }),
      'tests: no test is rolled when order: rally, state: fresh: give a first test without `when`, or one whose `when` holds then',
    ],
    [
      '`when` on a follow-up',
      'call-of-cthulhu-sanity',
      (p) => (p.tests.loss.when = { horror: 2 }),
      'tests.loss.when: only the first tests are chosen by a condition; "loss" comes after one without `when`',
    ],
    [
      'braces naming a choice',
      'fire-and-fury-maneuver',
      (p) => (p.tests.charge.dice = '{order}d10'),
      'tests.charge.dice: "order" is not an integer option (integer options: "stands_lost")',
    ],
    [
      'braced dice past a million outcomes',
      'sharp-practice-rally',
      (p) => (p.options[0].max = 8),
      'tests.rally.dice: 8d6 has 1,679,616 outcomes; exact odds stop at 1,000,000',
    ],
    [
      'a counted test with a number added',
      'sharp-practice-rally',
      (p) => (p.tests.rally.dice = '{level}d6+1'),
      'tests.rally.count: a counted test counts dice: its dice have no number added',
    ],
    [
      'an expression that is not one',
      'fire-and-fury-maneuver',
      (p) => (p.modifiers[3].value = 'stands_lost +'),
      'modifiers[3].value: "stands_lost +" is not a whole number or an expression: at the end (character 14): expected a number, a name or "("',
    ],
    [
      'a modifier reading the margin',
      'd20-will-save',
      (p) => (p.modifiers[1].value = 'margin'),
      'modifiers[1].value: `margin` is known only once the test is read: its results, grades and follow-ups read it, not its modifiers or target',
    ],
    [
      'grades on a band test',
      'sharp-practice-rally',
      (p) => (p.tests.rally.results = { x: { label: 'X', tone: 'good', effect: 'x', grades: [{ label: 'Y' }] } }),
      'tests.rally.results.x.grades: grades read the margin, and only a target test has one',
    ],
    [
      'a range of totals the dice never show',
      'call-of-cthulhu-sanity',
      (p) => (p.tests.sanity.specials[0].total = { from: 101, to: 105 }),
      'tests.sanity.specials[0].total: the kept dice of 1d100 total 1–100, never 101–105',
    ],
    [
      'doubles on one die',
      'd20-will-save',
      (p) => p.tests.will.specials.push({ doubles: true, result: 'heroic' }),
      'tests.will.specials[2].doubles: 1d20 keeps 1 die: doubles need two or more',
    ],
    [
      'at_least on a choice',
      'chain-of-command-force-morale',
      (p) => (p.modifiers[0].when = { cause: { at_least: 2 } }),
      'modifiers[0].when.cause: at_least and at_most compare whole numbers; "cause" is choice',
    ],
    [
      'a text field set to no choice of its',
      'fire-and-fury-maneuver',
      (p) => (p.tests.charge.bands[2].unit.set.state = 'tired'),
      'tests.charge.bands[2].unit.set.state: "tired" is not one of the field\'s choices ("fresh", "worn", "spent")',
    ],
    [
      'a bound that fires nothing',
      'chain-of-command-force-morale',
      (p) => (p.unit_fields[0].at_min = {}),
      'unit_fields[0].at_min: give `then: <test>` or `effect:` (or both)',
    ],
    [
      'a re-roll after no result',
      'd20-will-save',
      (p) => (p.tests.will.reroll.when = { result: 'lucky' }),
      'tests.will.reroll.when.result: "lucky" is not a result of the test ("heroic", "pass", "fail", "broken")',
    ],
  ])('%s', (_, name, edit, problem) => {
    expect(broken(name, edit)).toContain(problem);
  });
});
