import { chiSquareTail, lnGamma } from '../util/incomplete-gamma.js';

/** Observed against expected counts: the chi-square statistic and its p-value (upper tail). */
export type ChiSquare = { statistic: number; df: number; p: number; smallExpected: boolean };

export function chiSquare(observed: number[], expected: number[]): ChiSquare {
  let statistic = 0;
  let categories = 0;
  for (let i = 0; i < observed.length; i++) {
    const e = expected[i]!;
    if (e <= 0) continue;
    statistic += (observed[i]! - e) ** 2 / e;
    categories++;
  }
  const df = Math.max(1, categories - 1);
  return { statistic, df, p: chiSquareTail(statistic, df), smallExpected: expected.some((e) => e > 0 && e < 5) };
}

/** The chi-square test of homogeneity of two groups' counts over the same categories (a 2 × k table). */
export function homogeneity(a: number[], b: number[]): ChiSquare {
  const na = a.reduce((s, x) => s + x, 0);
  const nb = b.reduce((s, x) => s + x, 0);
  const n = na + nb;
  let statistic = 0;
  let categories = 0;
  let smallExpected = false;
  for (let i = 0; i < a.length; i++) {
    const col = a[i]! + b[i]!;
    if (col === 0) continue;
    categories++;
    for (const [obs, rowTotal] of [
      [a[i]!, na],
      [b[i]!, nb],
    ] as const) {
      const e = (rowTotal * col) / n;
      if (e < 5) smallExpected = true;
      if (e > 0) statistic += (obs - e) ** 2 / e;
    }
  }
  const df = Math.max(1, categories - 1);
  return { statistic, df, p: chiSquareTail(statistic, df), smallExpected };
}

/** x with P(χ²_df > x) = alpha, by bisection on the tail. */
export function chiSquareCritical(df: number, alpha: number): number {
  let lo = 0;
  let hi = df + 20 * Math.sqrt(2 * df) + 50;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (chiSquareTail(mid, df) > alpha) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** P(χ'²_df(λ) > x) of the noncentral chi-square: a Poisson(λ/2) mixture of central tails. */
export function noncentralTail(x: number, df: number, lambda: number): number {
  const half = lambda / 2;
  let sum = 0;
  // Start at the Poisson mode and walk both ways until the weights vanish.
  const mode = Math.floor(half);
  const logW = (j: number) => -half + j * Math.log(half || 1e-300) - lnGamma(j + 1);
  for (const step of [1, -1]) {
    for (let j = step > 0 ? mode : mode - 1; j >= 0; j += step) {
      const w = Math.exp(logW(j));
      sum += w * chiSquareTail(x, df + 2 * j);
      if (w < 1e-12 && Math.abs(j - mode) > 3) break;
    }
  }
  return Math.min(1, sum);
}

/**
 * The number of rolls at which a chi-square test at level `alpha` has the given power against the
 * alternative distribution `p1` (the fair one is `p0`), by the noncentral chi-square: λ = n·Σ(p1−p0)²/p0.
 */
export function rollsForPower(p0: number[], p1: number[], alpha = 0.05, power = 0.8): number {
  let w = 0;
  let k = 0;
  p0.forEach((p, i) => {
    if (p <= 0) return;
    k++;
    w += (p1[i]! - p) ** 2 / p;
  });
  if (w <= 0 || k < 2) return Number.POSITIVE_INFINITY;
  const df = k - 1;
  const crit = chiSquareCritical(df, alpha);
  let lo = 0;
  let hi = 1;
  while (noncentralTail(crit, df, hi) < power && hi < 1e9) hi *= 2;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (noncentralTail(crit, df, mid) < power) lo = mid;
    else hi = mid;
  }
  return Math.ceil(hi / w);
}
