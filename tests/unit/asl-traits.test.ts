import { describe, expect, it } from 'vitest';
import { parseUnit, type AslUnit } from '../../src/rules/asl/parse-unit.js';
import { article, elrImmune, isCommissar, isLeader, isMmc, isSmc, neverDisrupted, tagsOf, type Situation } from '../../src/rules/asl/traits.js';
import { isSaid, said } from '../../src/i18n/said.js';
import { sayIn } from '../../src/i18n/speak.js';

// What sets a unit apart (A19.11, A19.12, G1.4), case by case (as mutation testing asked).
const u = (text: string): AslUnit => {
  const r = parseUnit(text);
  if (isSaid(r)) throw new Error(sayIn('en', r));
  return r;
};
const plain: Situation = { fanatic: false, subType: 'none', vsRussians: false };

describe('kinds', () => {
  it.each([
    ['German 4-6-7', { leader: false, smc: false, mmc: true }],
    ['German 2-4-7', { leader: false, smc: false, mmc: true }],
    ['German crew', { leader: false, smc: false, mmc: true }],
    ['German 9-2', { leader: true, smc: true, mmc: false }],
    ['German hero', { leader: false, smc: true, mmc: false }],
    ['German cavalry', { leader: false, smc: false, mmc: false }],
  ])('%s', (text, k) => {
    const unit = u(text);
    expect({ leader: isLeader(unit), smc: isSmc(unit), mmc: isMmc(unit) }).toEqual(k);
  });

  it('sub-types add to the tags; none adds nothing', () => {
    expect([...tagsOf(u('German SS 6-5-8'), 'none')]).toEqual(['ss']);
    expect([...tagsOf(u('German 4-6-7'), 'ss')]).toEqual(['ss']);
    expect(isCommissar(u('Russian Commissar'), 'none')).toBe(true);
    expect(isCommissar(u('Russian 9-1'), 'commissar')).toBe(true);
    expect(isCommissar(u('Russian 9-1'), 'none')).toBe(false);
  });
});

describe('never Disrupted (A19.12)', () => {
  it.each([
    ['Partisan 3-3-7', plain, 'Partisans'],
    ['Japanese 4-4-7', plain, 'Japanese'],
    ['Russian Commissar', plain, 'Commissars'],
    ['Gurkha 4-5-8', plain, 'Gurkhas'],
    ['American USMC 7-6-8', plain, 'US Marines'],
    ['German SS 6-5-8', { ...plain, vsRussians: true }, 'SS opposed by Russians'],
    ['German 4-6-7', { ...plain, subType: 'ss', vsRussians: true }, 'SS opposed by Russians'],
    ['German SS 6-5-8', plain, undefined],
    ['German 4-6-7', { ...plain, fanatic: true }, 'Fanatic units'],
    ['German PRC', plain, 'PRC'],
    ['German 4-6-7', plain, undefined],
    ['Russian 4-4-7', { ...plain, vsRussians: true }, undefined],
  ] as const)('%s %o → %s', (text, s, why) => {
    const who = neverDisrupted(u(text), s as Situation);
    expect(who && sayIn('en', said('asl.neverDisrupted', { who }))).toBe(why);
  });
});

describe('never Replaced for ELR (A19.11, G1.4)', () => {
  it.each([
    ['German crew', 'none', false, 'crews are never Replaced for ELR (A19.11)'],
    ['Russian Commissar', 'none', false, 'Commissars are never Replaced for ELR (A19.11)'],
    ['Russian 9-1', 'commissar', false, 'Commissars are never Replaced for ELR (A19.11)'],
    ['German hero', 'none', false, 'heroes are never Replaced for ELR (A19.11)'],
    ['German 9-1', 'none', true, 'heroes are never Replaced for ELR (A19.11)'],
    ['German unarmed', 'none', false, 'unarmed units are never Replaced for ELR (A19.11)'],
    ['Japanese 9-1', 'none', false, 'Japanese SMC are never Replaced for ELR (G1.4)'],
    ['Japanese 4-4-7', 'none', false, undefined],
    ['German 9-1', 'none', false, undefined],
    ['German 2-4-7', 'none', false, undefined],
  ] as const)('%s (%s, heroic %s) → %s', (text, sub, heroic, why) => {
    const who = elrImmune(u(text), sub, heroic);
    expect(who && sayIn('en', said('asl.elrImmune', { who }))).toBe(why);
  });
});

it('article: an before a vowel, either case', () => {
  expect(article('Elite unit')).toBe('an Elite unit');
  expect(article('elite')).toBe('an elite');
  expect(article('1st Line unit')).toBe('a 1st Line unit');
  expect(article('Green unit')).toBe('a Green unit');
});
