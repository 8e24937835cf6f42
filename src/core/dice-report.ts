import type { LedgerStore } from '../ledger/store.js';
import type { TallyFilter, TallyGroup, TallySum } from '../ledger/tally.js';
import { chiSquare, homogeneity, type ChiSquare } from '../rules/fairness.js';
import { shapeFacts, type ShapeFacts } from '../rules/dice/shape-facts.js';

/**
 * The dice report (rules/dice.md): the aggregates summed by dice shape and group, each group's
 * Original totals against the exact distribution of its shape, and two groups of one shape
 * compared. Shapes are never mixed in a test.
 */

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

/** Two groups of one shape against each other (Axis vs Allied; a player against the rest). */
export type Comparison = { shape: string; a: string; b: string; test: ChiSquare };

export type DiceReport = { groups: ReportGroup[]; comparisons: Comparison[] };

/** The most groups a report lists (the largest first): a reply must fit Discord's embed. */
export const MAX_GROUPS = 12;

function groupsOf(sums: TallySum[]): ReportGroup[] {
  const byKey = new Map<string, ReportGroup>();
  for (const s of sums) {
    const key = JSON.stringify([s.shape, s.grp]);
    let g = byKey.get(key);
    if (!g) {
      g = { shape: s.shape, group: s.grp, n: 0, counts: new Map(), mean: 0, facts: undefined, test: undefined };
      byKey.set(key, g);
    }
    const n = Number(s.n);
    g.counts.set(Number(s.total), (g.counts.get(Number(s.total)) ?? 0) + n);
    g.n += n;
  }
  return [...byKey.values()].map(withTest).sort((a, b) => b.n - a.n || a.shape.localeCompare(b.shape) || a.group.localeCompare(b.group));
}

/** A group's mean and its chi-square test against the exact distribution of its shape. */
function withTest(g: ReportGroup): ReportGroup {
  const facts = shapeFacts(g.shape);
  const mean = [...g.counts].reduce((s, [t, n]) => s + t * n, 0) / g.n;
  if (!facts) return { ...g, mean };
  const observed = facts.p.map((_, i) => g.counts.get(facts.min + i) ?? 0);
  return { ...g, mean, facts, test: chiSquare(observed, facts.p.map((p) => p * g.n)) };
}

/** Two groups of one shape as a 2 × k table over the totals either had. */
function compare(shape: string, a: ReportGroup, b: ReportGroup, names: [string, string]): Comparison {
  const totals = [...new Set([...a.counts.keys(), ...b.counts.keys()])].sort((x, y) => x - y);
  const test = homogeneity(
    totals.map((t) => a.counts.get(t) ?? 0),
    totals.map((t) => b.counts.get(t) ?? 0),
  );
  return { shape, a: names[0], b: names[1], test };
}

/** With exactly two groups of a shape (by side, say), they are compared. */
function pairs(groups: ReportGroup[]): Comparison[] {
  const out: Comparison[] = [];
  for (const shape of new Set(groups.map((g) => g.shape))) {
    const of = groups.filter((g) => g.shape === shape && g.group !== '');
    if (of.length === 2) out.push(compare(shape, of[0]!, of[1]!, [of[0]!.group, of[1]!.group]));
  }
  return out;
}

/** One player against everyone else the other filters take in, shape by shape. */
async function playerAgainstRest(store: LedgerStore, f: TallyFilter, userId: string, mine: ReportGroup[]): Promise<Comparison[]> {
  const all = groupsOf(await store.tallySums({ ...f, userId: undefined }, 'user'));
  const out: Comparison[] = [];
  for (const g of mine) {
    const rest = all.filter((x) => x.shape === g.shape && x.group !== userId);
    if (!rest.length) continue;
    const merged: ReportGroup = { ...rest[0]!, group: 'rest', n: 0, counts: new Map() };
    for (const r of rest) for (const [t, n] of r.counts) merged.counts.set(t, (merged.counts.get(t) ?? 0) + n);
    out.push(compare(g.shape, g, merged, [userId, 'everyone else']));
  }
  return out;
}

/** The report for a filter, grouped by `by` (or one group per shape); one aggregate query, two with a player. */
export async function diceReport(store: LedgerStore, f: TallyFilter, by: TallyGroup | undefined): Promise<DiceReport> {
  const groups = groupsOf(await store.tallySums(f, by));
  const comparisons = by ? pairs(groups) : f.userId ? await playerAgainstRest(store, f, f.userId, groups) : [];
  return { groups, comparisons };
}
