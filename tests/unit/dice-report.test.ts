import { describe, expect, it } from 'vitest';
import { comparisonLine, groupLine, groupName, pInWords, verdict } from '../../src/render/dice-report.js';
import { shapeFacts } from '../../src/rules/dice/shape-facts.js';
import type { ReportGroup } from '../../src/rules/dice/report.js';

// rules/dice.md, the dice report: the words a player reads for a p-value, at each threshold; the
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
  const c = (p: number) => ({ shape: '2d6', a: 'axis', b: 'allied', test: { statistic: 3, df: 10, p, smallExpected: false } });
  it.each([
    [0.05, 'no sign they differ'],
    [0.0499, 'they differ more than chance usually makes them'],
    [0.001, 'they differ more than chance usually makes them'],
    [0.0009, 'they differ far more than chance makes them'],
  ])('p %d: %s', (p, words) => {
    expect(comparisonLine('side', c(p))).toBe(
      `**2d6** · Axis vs Allied: chi-square test of homogeneity, χ² = 3.00 on 10 df, p = ${{ 0.05: '0.050', 0.0499: '0.049', 0.001: '0.001', 0.0009: '< 0.001' }[p]} — ${words}`,
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
