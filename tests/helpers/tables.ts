import { expect } from 'vitest';

/** A results table covers every Final exactly once: contiguous, no overlaps, open at both ends. */
export function expectContiguous(table: readonly { min: number; max: number }[]) {
  const sorted = [...table].sort((a, b) => a.min - b.min);
  expect(sorted[0]!.min).toBe(-Infinity);
  expect(sorted.at(-1)!.max).toBe(Infinity);
  for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.min).toBe(sorted[i - 1]!.max + 1);
}
