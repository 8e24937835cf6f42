import { describe, expect, it } from 'vitest';
import { cryptoRoller } from '../../src/dice/roller.js';

describe('production dice are fair', () => {
  // Every rule system here rolls d6 only. One million dice through the production roller; the
  // chi-square statistic against uniform (5 degrees of freedom) must stay under 35.89, the value a
  // fair die exceeds with probability one in a million: this test raises a false alarm about once
  // in a million runs.
  it('1,000,000 d6 through cryptoRoller pass a chi-square test against uniform', () => {
    const n = 1_000_000;
    const counts = new Array<number>(6).fill(0);
    for (let i = 0; i < n; i++) counts[cryptoRoller.roll(6) - 1]!++;
    const e = n / 6;
    const chi = counts.reduce((a, o) => a + (o - e) ** 2 / e, 0);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(n);
    expect(chi).toBeLessThan(35.89);
  });

  it('never leaves the faces of the die', () => {
    for (const sides of [2, 6, 10, 20]) {
      for (let i = 0; i < 10_000; i++) {
        const d = cryptoRoller.roll(sides);
        expect(Number.isInteger(d) && d >= 1 && d <= sides).toBe(true);
      }
    }
  });
});
