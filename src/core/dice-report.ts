import type { LedgerStore } from '../ledger/store.js';
import type { TallyFilter, TallyGroup } from '../ledger/tally.js';
import { compare, groupsOf, pairs, type DiceReport, type ReportGroup, type Comparison } from '../rules/dice/report.js';

export { MAX_GROUPS } from '../rules/dice/report.js';

/** The dice report from the aggregates (rules/dice/report.ts has the figures). */

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
