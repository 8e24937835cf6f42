import { parentPort, workerData } from 'node:worker_threads';
import type { BeaconChain } from './chain.js';
import { batchSums, verifyRound, type BeaconRound } from './verify-round.js';

/** One share of a game's rounds checked off the main thread (verify-pool.ts): their sums, or the ones that do not hold. */
const { chain, rounds, each } = workerData as { chain: BeaconChain; rounds: BeaconRound[]; each: boolean };
try {
  const result = each ? rounds.map((r, i) => (verifyRound(chain, r) ? -1 : i)).filter((i) => i >= 0) : batchSums(rounds);
  parentPort!.postMessage({ result });
} catch (err) {
  parentPort!.postMessage({ error: (err as Error).message });
}
