import { chiSquare, homogeneity, type ChiSquare } from '../fairness.js';
import { shapeFacts, type ShapeFacts } from './shape-facts.js';

/**
 * The dice report's figures: sums of the aggregates by dice shape and group, each
 * group's Original totals against the exact distribution of its shape, and two groups of one shape
 * compared. Shapes are never mixed in a test. Pure: core/dice-report.ts reads the sums.
 */

/** A sum of the aggregates: rolls of one shape and group with one Original total. */
export type Sum = { shape: string; grp: string; total: number; n: number };

/** One group of one shape: its counts by Original total, and how they compare with fair dice. */
export type ReportGroup = {
  shape: string;
  group: string;
  n: number;
  /** Count by Original total. */
  counts: Map<number, number>;
  mean: number;
  facts: ShapeFacts | undefined;
  test: ChiSquare | undefined;
};

/**
 * Two groups of one shape against each other (Axis vs Allied; a player against the rest); of one shape compared; `rolls` each has, and `needed`: the rolls each group must have
 * before the test can tell (the shape's n*, as for one group): fewer, and the reply says so.
 */
export type Comparison = { shape: string; a: string; b: string; test: ChiSquare; rolls: [number, number]; needed: number };

export type DiceReport = { groups: ReportGroup[]; comparisons: Comparison[] };

/** The most groups a report lists (the largest first): a reply must fit Discord's embed. */
export const MAX_GROUPS = 12;

/** The sums as groups of one shape each, their counts only; `groupOf` may merge groups (a player and everyone else). */
export function countGroups(sums: Sum[], groupOf: (grp: string) => string = (grp) => grp): ReportGroup[] {
  const byKey = new Map<string, ReportGroup>();
  for (const s of sums) {
    const group = groupOf(s.grp);
    const key = JSON.stringify([s.shape, group]);
    let g = byKey.get(key);
    if (!g) {
      g = { shape: s.shape, group, n: 0, counts: new Map(), mean: 0, facts: undefined, test: undefined };
      byKey.set(key, g);
    }
    const n = Number(s.n);
    g.counts.set(Number(s.total), (g.counts.get(Number(s.total)) ?? 0) + n);
    g.n += n;
  }
  return [...byKey.values()];
}

/** The groups with their tests, the largest first. */
export const groupsOf = (sums: Sum[]): ReportGroup[] =>
  countGroups(sums)
    .map(withTest)
    .sort((a, b) => b.n - a.n || a.shape.localeCompare(b.shape) || a.group.localeCompare(b.group));

/** A group's mean and its chi-square test against the exact distribution of its shape. */
function withTest(g: ReportGroup): ReportGroup {
  const facts = shapeFacts(g.shape);
  const mean = [...g.counts].reduce((s, [t, n]) => s + t * n, 0) / g.n;
  if (!facts) return { ...g, mean };
  const observed = facts.p.map((_, i) => g.counts.get(facts.min + i) ?? 0);
  return {
    ...g,
    mean,
    facts,
    test: chiSquare(
      observed,
      facts.p.map((p) => p * g.n),
    ),
  };
}

/** Two groups of one shape as a 2 × k table over the totals either had. */
export function compare(shape: string, a: ReportGroup, b: ReportGroup, names: [string, string]): Comparison {
  const totals = [...new Set([...a.counts.keys(), ...b.counts.keys()])].sort((x, y) => x - y);
  const test = homogeneity(
    totals.map((t) => a.counts.get(t) ?? 0),
    totals.map((t) => b.counts.get(t) ?? 0),
  );
  const needed = (a.facts ?? b.facts ?? shapeFacts(shape))?.needed ?? Number.POSITIVE_INFINITY;
  return { shape, a: names[0], b: names[1], test, rolls: [a.n, b.n], needed };
}

/** With exactly two groups of a shape (by side, say), they are compared. */
export function pairs(groups: ReportGroup[]): Comparison[] {
  const out: Comparison[] = [];
  for (const shape of new Set(groups.map((g) => g.shape))) {
    const of = groups.filter((g) => g.shape === shape && g.group !== '');
    if (of.length === 2) out.push(compare(shape, of[0]!, of[1]!, [of[0]!.group, of[1]!.group]));
  }
  return out;
}
