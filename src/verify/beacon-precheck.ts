import type { BeaconChain } from '../beacon/chain.js';
import type { BeaconRound } from '../beacon/verify-round.js';
import { BEACON_SCHEME } from '../dice/seeded.js';
import type { ChainedRow } from '../ledger/chain.js';

/** How a verifier checks a game's rounds: the rounds that do not hold under the chain. */
export type BeaconCheck = (chain: BeaconChain, rounds: readonly BeaconRound[]) => BeaconRound[];

const key = (r: BeaconRound) => `${r.round}:${r.signature}`;
const inputOf = (r: ChainedRow) => (r.input ?? {}) as Record<string, unknown>;

/** Every beacon game's chain in these rows and the rounds its rolls name: what checkBeacons will ask about. */
export function roundsToCheck(rows: readonly ChainedRow[]): { chain: BeaconChain; rounds: BeaconRound[] }[] {
  const chains = new Map<string, BeaconChain>();
  for (const r of rows)
    if (r.kind === 'game' && r.result === 'game_started' && inputOf(r).dice_scheme === BEACON_SCHEME && inputOf(r).beacon)
      chains.set(`${r.guild_id}:${String(inputOf(r).game)}`, inputOf(r).beacon as BeaconChain);
  const byKey = new Map<string, { chain: BeaconChain; rounds: BeaconRound[] }>();
  for (const r of rows) {
    const chain = r.game_id ? chains.get(`${r.guild_id}:${r.game_id}`) : undefined;
    const b = inputOf(r).beacon as Partial<BeaconRound> | undefined;
    if (!chain || !b || typeof b.round !== 'number' || typeof b.signature !== 'string') continue;
    const k = `${chain.hash}:${chain.public_key}`;
    const entry = byKey.get(k) ?? { chain, rounds: [] };
    entry.rounds.push({ round: b.round, signature: b.signature });
    byKey.set(k, entry);
  }
  return [...byKey.values()];
}

/**
 * The rounds of these rows checked ahead, asynchronously (on worker threads in Node), so the
 * synchronous checks that follow only look answers up; a round not checked ahead is checked then.
 */
export async function precheckBeacons(
  rows: readonly ChainedRow[],
  check: (chain: BeaconChain, rounds: readonly BeaconRound[]) => Promise<BeaconRound[]>,
  fallback: BeaconCheck,
): Promise<BeaconCheck> {
  const known = new Map<string, { checked: Set<string>; bad: Set<string> }>();
  for (const { chain, rounds } of roundsToCheck(rows)) {
    const bad = await check(chain, rounds);
    known.set(chain.public_key, { checked: new Set(rounds.map(key)), bad: new Set(bad.map(key)) });
  }
  return (chain, rounds) => {
    const k = known.get(chain.public_key);
    const unknown = rounds.filter((r) => !k?.checked.has(key(r)));
    return [...rounds.filter((r) => k?.bad.has(key(r))), ...(unknown.length ? fallback(chain, unknown) : [])];
  };
}
