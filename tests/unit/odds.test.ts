import { describe, expect, it } from 'vitest';
import { HOB_ORDER, hobDistribution } from '../../src/rules/asl/hob.js';
import { checkDistribution } from '../../src/rules/asl/mc.js';
import { rallyDistribution, rerollDistribution, type RallyInput } from '../../src/rules/hearts-of-tin/rally.js';
import { moraleDistribution, type MoraleInput } from '../../src/rules/lightning-war/morale.js';
import {
  add,
  enumerate,
  format,
  fraction,
  fractionValue,
  inputKey,
  oddsOf,
  ordered,
  percent,
  percentOf,
  remembered,
  toNumber,
  ZERO,
  type Fraction,
} from '../../src/rules/odds.js';
import { checkBase, hobBase, unit } from '../helpers/asl.js';

const total = (d: Map<string, Fraction>) => [...d.values()].reduce(add, ZERO);
const f = (d: Map<string, Fraction>, k: string) => format(d.get(k) ?? ZERO);
const ONE = { n: 1n, d: 1n };

const rallyBase: RallyInput = { disorder: 1, quality: 'regular', band: false, enemyInSight: true, commanderNear: false };
const lwBase: MoraleInput = {
  morale: 'professional',
  casualties: undefined,
  cover: 'none',
  unitType: 'infantry',
  immobilized: false,
  nearKill: false,
  reserveMove: false,
  commander: false,
  rally: false,
  enemyWithin100m: false,
  reason: undefined,
};

describe('exact enumeration', () => {
  it('2d6 total 7 is exactly 1/6', () => {
    const d = enumerate((r) => r.roll(6) + r.roll(6), String);
    expect(f(d, '7')).toBe('1/6');
    expect(f(d, '2')).toBe('1/36');
    expect(total(d)).toEqual(ONE);
  });

  it('3d6 ≥ 11 is exactly 1/2', () => {
    const d = enumerate((r) => (r.roll(6) + r.roll(6) + r.roll(6) >= 11 ? 'high' : 'low'), String);
    expect(f(d, 'high')).toBe('1/2');
  });

  it('paths of different lengths weigh what they should', () => {
    // Roll a d6; on a 6 roll a d4 as well.
    const d = enumerate((r) => (r.roll(6) === 6 ? `six+${r.roll(4)}` : 'other'), String);
    expect(f(d, 'other')).toBe('5/6');
    expect(f(d, 'six+1')).toBe('1/24');
    expect(total(d)).toEqual(ONE);
  });

  it('fractions are kept in lowest terms', () => {
    expect(fraction(6n, 36n)).toEqual({ n: 1n, d: 6n });
    expect(add(fraction(1n, 3n), fraction(1n, 6n))).toEqual({ n: 1n, d: 2n });
  });

  it('this result, and this result or better', () => {
    const d = moraleDistribution(lwBase);
    const order = ['firm', 'pinned', 'suppressed', 'fall_back', 'retreat', 'rout', 'eliminated'];
    expect(oddsOf(d, order, 'firm')).toMatchObject({ exactly: '1/2', or_better: '1/2' });
    expect(oddsOf(d, order, 'pinned')).toMatchObject({ exactly: '13/54', or_better: '20/27' });
    expect(Object.keys(oddsOf(d, order, 'pinned').distribution)).toEqual(['firm', 'pinned', 'suppressed', 'fall_back', 'retreat', 'rout']);
  });
});

describe('every distribution sums to exactly 1', () => {
  it.each([
    ['rally', rallyDistribution(rallyBase)],
    ['rally with the commander re-roll', rallyDistribution({ ...rallyBase, disorder: 3, commanderNear: true }, true)],
    ['commander re-roll alone', rerollDistribution({ ...rallyBase, commanderNear: true }, 'retreat')],
    ['Lightning War', moraleDistribution({ ...lwBase, morale: 'shaken', casualties: { lost: 2, original: 3 } })],
    ['Lightning War rally', moraleDistribution({ ...lwBase, rally: true })],
    ['Heat of Battle', hobDistribution(hobBase(unit('Italian 3-4-6')))],
  ])('%s', (_n, d) => {
    expect(total(d)).toEqual(ONE);
  });
});

describe('known values', () => {
  it('Hearts of Tin, N=1, no modifiers: huzzah 0, rally 1/2, retreat 1/2', () => {
    const d = rallyDistribution(rallyBase);
    expect(f(d, 'huzzah')).toBe('0');
    expect(f(d, 'rally')).toBe('1/2');
    expect(f(d, 'retreat')).toBe('1/2');
    expect(d.has('rout')).toBe(false);
  });

  it('Hearts of Tin chained by hand: militia, 2 markers, the commander re-rolls a failure', () => {
    // One roll: d−2. 6 → rally (1/6); 3–5 → retreat (3/6); 1–2 → rout (2/6).
    // With the re-roll on failure (5/6): rally 1/6 + 5/6·1/6 = 11/36; retreat 5/6·3/6 = 5/12;
    // rout on the re-roll loses the commander: 5/6·2/6 = 5/18.
    const d = rallyDistribution({ ...rallyBase, disorder: 2, quality: 'militia', commanderNear: true }, true);
    expect(Object.fromEntries([...d].map(([k, v]) => [k, format(v)]))).toEqual({ rally: '11/36', retreat: '5/12', rout_commander_lost: '5/18' });
  });

  it('Lightning War by hand: professional, no modifiers: firm 1/2, pinned 13/54 (9 or 10 on 3d6: 25+27 of 216)', () => {
    const d = moraleDistribution(lwBase);
    expect(f(d, 'firm')).toBe('1/2');
    expect(f(d, 'pinned')).toBe('13/54');
    expect(f(d, 'rout')).toBe(format(fraction(1n + 3n, 216n))); // 3 or 4: 1 + 3 ways
  });

  it('ASL chained by hand: German 4-6-7 NMC, ML 7, ELR 3', () => {
    const d = checkDistribution(checkBase(unit('German 4-6-7'), { elr: 3 }), true);
    // Original 3–6 passes (14/36); 7 pins (6/36); 8–10 break (12/36); 11 fails by 4 > ELR (2/36);
    // 12 is Casualty Reduction (1/36). An Original 2 (1/36) passes and chains HoB: hero ≤ 4 is 6/36.
    expect(f(d, 'passed')).toBe('7/18');
    expect(f(d, 'pinned')).toBe('1/6');
    expect(f(d, 'broken')).toBe('1/3');
    expect(f(d, 'replaced')).toBe('1/18');
    expect(f(d, 'casualty_reduction')).toBe('1/36');
    expect(f(d, 'passed → hero')).toBe('1/216');
    expect(f(d, 'passed → disrupted')).toBe('1/1296');
    expect(total(d)).toEqual(ONE);
  });

  it('Heat of Battle bands for a unit with no DRM', () => {
    const d = hobDistribution(hobBase(unit('German 4-6-7')));
    expect([...HOB_ORDER].map((k) => f(d, k))).toEqual(['1/6', '1/4', '11/36', '1/4', '1/36', '0']);
  });
});

// The small pieces of the odds module, against values written out (as mutation testing asked).
describe('odds helpers', () => {
  it('fractions: zero, negatives, whole numbers, and their text', () => {
    expect(fraction(0n, 5n)).toEqual({ n: 0n, d: 1n });
    expect(fraction(-2n, 4n)).toEqual({ n: -1n, d: 2n });
    expect(fraction(4n, 2n)).toEqual({ n: 2n, d: 1n });
    expect(format(ZERO)).toBe('0');
    expect(format({ n: 3n, d: 1n })).toBe('3');
    expect(format(fraction(2n, 8n))).toBe('1/4');
    expect(toNumber(fraction(1n, 8n))).toBe(0.125);
    expect(percent(fraction(1n, 3n))).toBe('33.3%');
    expect(percent(fraction(1n, 1n))).toBe('100.0%');
  });

  it('fractionValue and percentOf read the stored text back', () => {
    expect(fractionValue('5/12')).toBeCloseTo(5 / 12, 12);
    expect(fractionValue('1')).toBe(1);
    expect(fractionValue('0')).toBe(0);
    expect(percentOf('1/8')).toBe('12.5%');
    expect(percentOf('1')).toBe('100.0%');
  });

  it('ordered: by the system order, a chained result by its first part then by `then`, unknown results last by name', () => {
    const d = new Map<string, Fraction>([
      ['broken', fraction(1n, 6n)],
      ['passed → hero', fraction(1n, 12n)],
      ['passed', fraction(1n, 2n)],
      ['passed → battle_hardening', fraction(1n, 12n)],
      ['zeta', fraction(1n, 24n)],
      ['alpha', fraction(1n, 8n)],
    ]);
    expect(ordered(d, ['passed', 'broken'], ['hero', 'battle_hardening']).map((r) => r.result)).toEqual([
      'passed',
      'passed → hero',
      'passed → battle_hardening',
      'broken',
      'alpha',
      'zeta',
    ]);
    // Without `then`, chained results of one first part sort by name after the plain one.
    expect(
      ordered(d, ['passed', 'broken'])
        .map((r) => r.result)
        .slice(0, 3),
    ).toEqual(['passed', 'passed → battle_hardening', 'passed → hero']);
  });

  it('oddsOf a result that cannot happen: exactly 0, or better 0', () => {
    const d = new Map<string, Fraction>([
      ['a', fraction(1n, 4n)],
      ['b', fraction(3n, 4n)],
    ]);
    expect(oddsOf(d, ['a', 'b', 'c'], 'c')).toEqual({ exactly: '0', or_better: '0', distribution: { a: '1/4', b: '3/4' } });
    expect(oddsOf(d, ['a', 'b', 'c'], 'b')).toEqual({ exactly: '3/4', or_better: '1', distribution: { a: '1/4', b: '3/4' } });
  });

  it('remembered computes once per key, and forgets the oldest past 512 keys', () => {
    let calls = 0;
    const compute = () => {
      calls++;
      return new Map([['x', ONE]]);
    };
    const first = remembered('memo-test-0', compute);
    expect(remembered('memo-test-0', compute)).toBe(first);
    expect(calls).toBe(1);
    for (let i = 1; i <= 512; i++) remembered(`memo-test-${i}`, compute);
    expect(calls).toBe(513);
    // Key 0 was the oldest: computed again; key 512 (the newest) was not dropped.
    remembered('memo-test-512', compute);
    expect(calls).toBe(513);
    remembered('memo-test-0', compute);
    expect(calls).toBe(514);
  });

  it("inputKey names the system and the input, leaving out the data entry ('known')", () => {
    expect(inputKey('asl', { unit: { name: 'German 4-6-7', known: { huge: true } }, elr: 3 })).toBe('asl{"unit":{"name":"German 4-6-7"},"elr":3}');
    expect(inputKey('hot', { disorder: 2 })).not.toBe(inputKey('lw', { disorder: 2 }));
  });

  it('enumerate passes on any error that is not a request for a die', () => {
    expect(() =>
      enumerate(() => {
        throw new RangeError('bad input');
      }, String),
    ).toThrow('bad input');
  });
});
