import { createRequire } from 'node:module';

// Loaded on first use (/stats): the statistics library is large and most processes never need it.
const load = createRequire(import.meta.url);
let cdf: ((x: number, k: number) => number) | undefined;

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
  cdf ??= load('@stdlib/stats-base-dists-chisquare-cdf') as (x: number, k: number) => number;
  return { statistic, df, p: 1 - cdf(statistic, df), smallExpected: expected.some((e) => e > 0 && e < 5) };
}
