import { chiSquareTail } from '../util/incomplete-gamma.js';

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
