import type { PackBand, PackGrade, PackResult, PackTest } from './schema.js';

/** A band's id when it names none: its label in lower case, words joined by _ ("Falls back" → falls_back). */
export const slugOf = (label: string) =>
  label
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 32) || 'result';

export const bandId = (b: PackBand) => b.result ?? slugOf(b.label);

/** A grade's id: its own `result`, else its label in lower case ("By a hair" → by_a_hair); on the record after its result's, `pass:by_a_hair`. */
export const gradeId = (g: PackGrade) => g.result ?? slugOf(g.label);

/** One result a test can give, by id. */
export type NamedResult = { id: string; result: PackResult; band?: PackBand };

const TONE_RANK = { good: 0, neutral: 1, bad: 2 } as const;

/**
 * A test's results, best first: by tone (good, neutral, bad), then in the order the file writes
 * them (its `results`, then its `bands`). "This or better" in the odds reads this order.
 */
export function resultsOf(test: PackTest): NamedResult[] {
  const named: NamedResult[] = [
    ...Object.entries(test.results ?? {}).map(([id, result]) => ({ id, result })),
    ...(test.bands ?? []).map((band) => ({ id: bandId(band), result: band, band })),
  ];
  return named
    .map((r, i) => ({ r, i }))
    .sort((a, b) => TONE_RANK[a.r.result.tone] - TONE_RANK[b.r.result.tone] || a.i - b.i)
    .map((x) => x.r);
}
