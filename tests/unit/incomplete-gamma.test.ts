import { describe, expect, it } from 'vitest';
import { chiSquareTail, lnGamma, upperGammaQ } from '../../src/util/incomplete-gamma.js';

// Published chi-square critical values (the upper 5% and 1% points, to the precision tables give
// them in full) and closed forms, never values read back from the code under test.
describe('chiSquareTail (the /stats p-value)', () => {
  it.each([
    [3.841458820694124, 1, 0.05],
    [6.634896601021214, 1, 0.01],
    [5.991464547107979, 2, 0.05],
    [7.814727903251178, 3, 0.05],
    [11.070497693516351, 5, 0.05],
    [18.307038053275146, 10, 0.05],
    [2.558212160187206, 10, 0.99],
    [124.34211340400407, 100, 0.05],
  ])('χ² = %f on %i df: p = %f', (x, df, p) => {
    expect(Math.abs(chiSquareTail(x, df) - p)).toBeLessThan(1e-9);
  });

  it('far into the tail and for a thousand degrees of freedom (1074.679, the table value)', () => {
    expect(chiSquareTail(1074.679, 1000)).toBeCloseTo(0.05, 5);
    expect(chiSquareTail(200, 5)).toBeLessThan(1e-40);
    expect(chiSquareTail(200, 5)).toBeGreaterThan(0);
  });

  it('two df is exp(−x/2) and four is exp(−x/2)(1 + x/2), on both sides of the series/fraction split', () => {
    for (const x of [0.01, 0.5, 1.9, 2, 2.1, 4, 6, 30]) {
      expect(Math.abs(chiSquareTail(x, 2) - Math.exp(-x / 2))).toBeLessThan(1e-13);
      expect(Math.abs(chiSquareTail(x, 4) - Math.exp(-x / 2) * (1 + x / 2))).toBeLessThan(1e-13);
    }
  });

  it('whole a is a Poisson sum: Q(n, x) = e^−x Σ_{k<n} x^k/k!', () => {
    const poisson = (n: number, x: number) => {
      let term = Math.exp(-x);
      let sum = 0;
      for (let k = 0; k < n; k++) {
        sum += term;
        term *= x / (k + 1);
      }
      return sum;
    };
    for (const n of [1, 3, 5, 12, 40])
      for (const x of [0.3, n - 1, n, n + 1, n + 1.0001, 2 * n + 3]) expect(Math.abs(upperGammaQ(n, x) - poisson(n, x))).toBeLessThan(1e-12);
  });

  it('x = 0 gives 1; a bad argument is refused', () => {
    expect(upperGammaQ(3, 0)).toBe(1);
    expect(() => upperGammaQ(0, 1)).toThrow(RangeError);
    expect(() => upperGammaQ(1, -1)).toThrow(RangeError);
    expect(() => upperGammaQ(Number.NaN, 1)).toThrow(RangeError);
  });
});

describe('lnGamma', () => {
  it('Γ(n) = (n − 1)!, Γ(1/2) = √π, and the reflection below 1/2', () => {
    expect(lnGamma(1)).toBeCloseTo(0, 13);
    expect(lnGamma(5)).toBeCloseTo(Math.log(24), 13);
    expect(lnGamma(21)).toBeCloseTo(Math.log(2432902008176640000), 11);
    expect(lnGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 13);
    expect(lnGamma(0.25)).toBeCloseTo(Math.log(3.625609908221908), 12);
  });
});
