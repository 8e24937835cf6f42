import type { LedgerStore } from '../ledger/store.js';
import { EXPIRED_SHAPE, type TallyFilter, type TallyGroup, type TallySum } from '../ledger/tally.js';
import { compare, countGroups, groupsOf, pairs, type Comparison, type DiceReport } from '../rules/dice/report.js';

export { MAX_GROUPS } from '../rules/dice/report.js';

/** The dice report from the aggregates (rules/dice/report.ts has the figures). */

/** A player's beacon rolls that expired unrolled, beside the rolls they made. */
export type PlayerExpiries = { user: string; expired: number; rolled: number };

/** The report, and each player's expiries (none when no roll expired). */
export type StatsReport = DiceReport & { expiries: PlayerExpiries[] };

/** The sums of dice only: expiries are kept in the aggregates as a shape of their own, never tested as dice. */
const diceOnly = (sums: TallySum[]) => sums.filter((s) => s.shape !== EXPIRED_SHAPE);

/** One player against everyone else the other filters take in, shape by shape (the player's largest first). */
async function playerAgainstRest(store: LedgerStore, f: TallyFilter, userId: string): Promise<Comparison[]> {
  const split = countGroups(diceOnly(await store.tallySums({ ...f, userId: undefined }, 'user')), (u) => (u === userId ? 'player' : 'rest'));
  const player = split.filter((g) => g.group === 'player').sort((x, y) => y.n - x.n);
  return player.flatMap((p) => {
    const rest = split.find((g) => g.shape === p.shape && g.group === 'rest');
    return rest ? [compare(p.shape, p, rest, [userId, 'everyone else'])] : [];
  });
}

/** Each player with an expiry, from sums grouped by player: their expiries and their rolls, the most expiries first. */
function expiriesByPlayer(byUser: TallySum[]): PlayerExpiries[] {
  const players = new Map<string, PlayerExpiries>();
  for (const s of byUser) {
    const p = players.get(s.grp) ?? { user: s.grp, expired: 0, rolled: 0 };
    if (s.shape === EXPIRED_SHAPE) p.expired += Number(s.n);
    else p.rolled += Number(s.n);
    players.set(s.grp, p);
  }
  return [...players.values()].filter((p) => p.expired > 0).sort((a, b) => b.expired - a.expired || a.user.localeCompare(b.user));
}

/**
 * The report for a filter, grouped by `by` (or one group per shape); one aggregate query, two with a
 * player, and one more, by player, when a beacon roll expired unrolled in what the filters take in.
 */
export async function diceReport(store: LedgerStore, f: TallyFilter, by: TallyGroup | undefined): Promise<StatsReport> {
  const sums = await store.tallySums(f, by);
  const groups = groupsOf(diceOnly(sums));
  const comparisons = by ? pairs(groups) : f.userId ? await playerAgainstRest(store, f, f.userId) : [];
  const anyExpired = sums.some((s) => s.shape === EXPIRED_SHAPE);
  const expiries = anyExpired ? expiriesByPlayer(by === 'user' ? sums : await store.tallySums(f, 'user')) : [];
  return { groups, comparisons, expiries };
}
