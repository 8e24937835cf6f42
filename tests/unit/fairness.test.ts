import { describe, expect, it } from 'vitest';
import { chiSquare } from '../../src/rules/fairness.js';

// The chi-square test behind /stats, against values worked by hand (and standard tables).
describe('chiSquare', () => {
  it('a perfect match: statistic 0, p 1', () => {
    expect(chiSquare([10, 10, 10, 10, 10, 10], [10, 10, 10, 10, 10, 10])).toEqual({ statistic: 0, df: 5, p: 1, smallExpected: false });
  });

  it('six faces, 60 dice: (5²+5²)/10 = 5 on 5 df, p ≈ 0.4159', () => {
    const c = chiSquare([15, 5, 10, 10, 10, 10], [10, 10, 10, 10, 10, 10]);
    expect(c.statistic).toBe(5);
    expect(c.df).toBe(5);
    expect(c.p).toBeCloseTo(0.41588, 4);
    expect(c.smallExpected).toBe(false);
  });

  it('60/40 against 50/50: (10²+10²)/50 = 4 on 1 df, just past the 5% critical value 3.8415: p ≈ 0.0455', () => {
    const c = chiSquare([60, 40], [50, 50]);
    expect(c.statistic).toBe(4);
    expect(c.df).toBe(1);
    expect(c.p).toBeCloseTo(0.0455, 4);
  });

  it('categories with no expected count are left out of the statistic and of the degrees of freedom', () => {
    const c = chiSquare([15, 5, 3], [10, 10, 0]);
    expect(c.statistic).toBe(5);
    expect(c.df).toBe(1);
    expect(c.p).toBeCloseTo(0.025347, 5);
    // A negative expectation counts as none as well.
    expect(chiSquare([15, 5, 3], [10, 10, -1])).toEqual(c);
  });

  it('one category (or none) still has one degree of freedom', () => {
    expect(chiSquare([7], [7]).df).toBe(1);
    expect(chiSquare([], []).df).toBe(1);
    expect(chiSquare([], []).statistic).toBe(0);
  });

  it('warns when an expected count is below 5 (but not for a count that is 0 or exactly 5)', () => {
    expect(chiSquare([4, 6], [4.99, 5.01]).smallExpected).toBe(true);
    expect(chiSquare([5, 5], [5, 5]).smallExpected).toBe(false);
    expect(chiSquare([5, 5, 0], [5, 5, 0]).smallExpected).toBe(false);
  });
});
