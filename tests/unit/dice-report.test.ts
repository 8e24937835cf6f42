import { describe, expect, it } from 'vitest';
import { comparisonLine, groupLine, groupName, pInWords, verdict } from '../../src/render/dice-report.js';
import { shapeFacts } from '../../src/rules/dice/shape-facts.js';
import { compare, countGroups, groupsOf, pairs, type ReportGroup } from '../../src/rules/dice/report.js';

// the dice report: the words a player reads for a p-value, at each threshold; the
// verdict either side of n*; the comparison's words; how each kind of group is named.

describe('a p-value in words', () => {
  it.each([
    [1, 'as fair as dice come (p = 1.00)'],
    [0.05, 'as fair as dice come (p = 0.05)'],
    [0.0499, 'unusual (p = 0.049)'],
    [0.03, 'unusual (p = 0.03)'],
    [0.029, 'unusual (p = 0.029)'],
    [0.01, 'unusual (p = 0.01)'],
    [0.0099, 'unusual (p = 0.0099)'],
    [0.001, 'unusual (p = 0.001)'],
    [0.000999, 'very unlikely if fair (p < 0.001)'],
  ])('%d → %s', (p, words) => expect(pInWords(p)).toBe(words));
});

const group = (n: number, p: number, over: Partial<ReportGroup> = {}): ReportGroup => ({
  shape: '1d6',
  group: '',
  n,
  counts: new Map([[1, n]]),
  mean: 1,
  facts: shapeFacts('1d6'),
  test: { statistic: 2, df: 5, p, smallExpected: false },
  ...over,
});

describe('the verdict knows its sample size (n* = 39 for a d6)', () => {
  it('below n*: too few to tell; at n*: the p-value in words; rough with small expected counts', () => {
    expect(verdict(group(38, 0.5))).toBe('too few rolls to tell (38 of 39 needed)');
    expect(verdict(group(39, 0.5))).toBe('as fair as dice come (p = 0.50)');
    expect(verdict(group(39, 0.5, { test: { statistic: 2, df: 5, p: 0.5, smallExpected: true } }))).toBe(
      'as fair as dice come (p = 0.50); some totals are expected fewer than 5 times, so the test is rough',
    );
    expect(verdict(group(39, 0.5, { facts: undefined, test: undefined }))).toBe('not tested: too many outcomes');
  });

  it('a group line with its mean against the exact one, the statistic once past n*', () => {
    expect(groupLine('side', group(39, 0.5, { group: 'axis', mean: 3.6 }))).toBe(
      '**1d6** · Axis — 39 rolls, mean 3.60 (exact 3.50); as fair as dice come (p = 0.50) (χ² = 2.00 on 5 df, p = 0.500)',
    );
    expect(groupLine(undefined, group(1, 0.5, { mean: 4 }))).toBe('**1d6** — 1 roll, mean 4.00 (exact 3.50); too few rolls to tell (1 of 39 needed)');
  });
});

describe('two groups compared', () => {
  const c = (p: number, rolls: [number, number] = [200, 300]) => ({
    shape: '2d6',
    a: 'axis',
    b: 'allied',
    test: { statistic: 3, df: 10, p, smallExpected: false },
    rolls,
    needed: 150,
  });
  it.each([
    [0.05, 'no sign they differ'],
    [0.0499, 'they differ more than chance usually makes them'],
    [0.001, 'they differ more than chance usually makes them'],
    [0.0009, 'they differ far more than chance makes them'],
  ])('p %d: %s', (p, words) => {
    expect(comparisonLine('side', c(p))).toBe(
      `**2d6** · Axis vs Allied: chi-square test of homogeneity, χ² = 3.00 on 10 df, p ${{ 0.05: '= 0.050', 0.0499: '= 0.049', 0.001: '= 0.001', 0.0009: '< 0.001' }[p]} — ${words}`,
    );
  });
  // One roll against one roll once read "no sign they differ"; below the shape's n* in either
  // group the reply says a test could not tell, as it does for one group.
  it.each([
    [[1, 1], 'too few rolls to compare (1 and 1; 150 each needed)'],
    [[149, 5000], 'too few rolls to compare (149 and 5000; 150 each needed)'],
    [[5000, 149], 'too few rolls to compare (5000 and 149; 150 each needed)'],
  ] as const)('rolls %j: %s', (rolls, words) => {
    expect(comparisonLine('side', c(0.5, [...rolls]))).toBe(`**2d6** · Axis vs Allied: ${words}`);
  });
  it('at n* in both, the test speaks', () => {
    expect(comparisonLine('side', c(0.5, [150, 150]))).toMatch(/chi-square test of homogeneity/);
    expect(comparisonLine('side', { ...c(0.5), needed: Number.POSITIVE_INFINITY })).toBe(
      '**2d6** · Axis vs Allied: too few rolls to compare (200 and 300; one outcome only)',
    );
  });
  it('a player against everyone else', () => {
    expect(comparisonLine(undefined, { ...c(0.5), a: '42', b: 'everyone else' })).toBe(
      '**2d6** · <@42> vs everyone else: chi-square test of homogeneity, χ² = 3.00 on 10 df, p = 0.500 — no sign they differ',
    );
  });
});

describe('group names', () => {
  it.each([
    [undefined, 'x', 'all'],
    ['user', '42', '<@42>'],
    ['side', 'axis', 'Axis'],
    ['side', 'allied', 'Allied'],
    ['side', '', 'no side'],
    ['category', 'TH', 'TH'],
    ['category', '', 'no category'],
    ['command', 'rally', '/rally'],
  ] as const)('by %s, %j → %s', (by, value, name) => expect(groupName(by, value)).toBe(name));
});

// The figures behind the words (rules/dice/report.ts): groups ordered largest first,
// then by shape and group; two groups of a shape compared over every total either had; n* taken
// from the shape when the groups carry no facts; a shape past the odds' bound gets no test.
describe('the report figures', () => {
  const sum = (shape: string, grp: string, total: number, n: number) => ({ shape, grp, total, n });

  it('groups: largest first, then by shape, then by group; their counts by total and mean', () => {
    const groups = groupsOf([sum('2d6', 'b', 7, 2), sum('1d6', 'a', 3, 1), sum('1d6', 'b', 4, 2), sum('2d6', 'a', 2, 1), sum('2d6', 'a', 12, 1)]);
    expect(groups.map((g) => [g.shape, g.group, g.n])).toEqual([
      ['1d6', 'b', 2],
      ['2d6', 'a', 2],
      ['2d6', 'b', 2],
      ['1d6', 'a', 1],
    ]);
    expect(groups[1]!.counts).toEqual(
      new Map([
        [2, 1],
        [12, 1],
      ]),
    );
    expect(groups[1]!.mean).toBe(7);
    expect(groups[1]!.test!.df).toBe(10);
  });

  it('a shape past the odds bound is counted, not tested', () => {
    const [g] = groupsOf([sum('100d100+100d100', '', 10_000, 3)]);
    expect(g).toMatchObject({ n: 3, mean: 10_000, facts: undefined, test: undefined });
  });

  it('two groups of one shape, the rest left out: compared over the totals either had, sorted', () => {
    const groups = groupsOf([sum('1d6', 'axis', 1, 30), sum('1d6', 'allied', 6, 30), sum('1d6', '', 3, 5), sum('2d6', 'axis', 7, 4)]);
    const [c] = pairs(groups);
    expect(pairs(groups)).toHaveLength(1);
    // Equal sizes: by group name, allied before axis.
    expect(c).toMatchObject({ shape: '1d6', a: 'allied', b: 'axis', rolls: [30, 30], needed: 39 });
    // Ones against sixes, 30 each: a 2 × 2 table, expected 15 each, χ² = 4 × 15²/15 = 60 on 1 df.
    expect(c!.test.statistic).toBeCloseTo(60, 9);
    expect(c!.test.df).toBe(1);
  });

  it('n* comes from the shape when neither group carries the facts (a player against the rest)', () => {
    const bare = countGroups([sum('2d6', 'p', 7, 1), sum('2d6', 'q', 8, 1)]);
    expect(compare('2d6', bare[0]!, bare[1]!, ['p', 'q']).needed).toBe(142);
    expect(compare('100d100+100d100', { ...bare[0]!, shape: '100d100+100d100' }, bare[1]!, ['p', 'q']).needed).toBe(Number.POSITIVE_INFINITY);
  });
});
