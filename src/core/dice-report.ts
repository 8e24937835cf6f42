import type { LedgerStore } from '../ledger/store.js';
import type { TallyFilter, TallyGroup } from '../ledger/tally.js';
import { compare, countGroups, groupsOf, pairs, type Comparison, type DiceReport } from '../rules/dice/report.js';

export { MAX_GROUPS } from '../rules/dice/report.js';

/** The dice report from the aggregates (rules/dice/report.ts has the figures). */

/** One player against everyone else the other filters take in, shape by shape (the player's largest first). */
async function playerAgainstRest(store: LedgerStore, f: TallyFilter, userId: string): Promise<Comparison[]> {
  const split = countGroups(await store.tallySums({ ...f, userId: undefined }, 'user'), (u) => (u === userId ? 'player' : 'rest'));
  const player = split.filter((g) => g.group === 'player').sort((x, y) => y.n - x.n);
  return player.flatMap((p) => {
    const rest = split.find((g) => g.shape === p.shape && g.group === 'rest');
    return rest ? [compare(p.shape, p, rest, [userId, 'everyone else'])] : [];
  });
}

/** The report for a filter, grouped by `by` (or one group per shape); one aggregate query, two with a player. */
export async function diceReport(store: LedgerStore, f: TallyFilter, by: TallyGroup | undefined): Promise<DiceReport> {
  const groups = groupsOf(await store.tallySums(f, by));
  const comparisons = by ? pairs(groups) : f.userId ? await playerAgainstRest(store, f, f.userId) : [];
  return { groups, comparisons };
}
