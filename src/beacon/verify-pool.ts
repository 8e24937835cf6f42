import os from 'node:os';
import { answerOf, besideModule, startWorker } from '../util/worker.js';
import type { BeaconChain } from './chain.js';
import { distinctRounds, sumsHold, type BatchSums, type BeaconRound } from './verify-round.js';

/** Below this many rounds one thread is quicker than starting workers. */
const WORKERS_FROM = 32;

const shares = <T>(list: readonly T[], n: number): T[][] => Array.from({ length: n }, (_, k) => list.filter((_, i) => i % n === k)).filter((s) => s.length);

/**
 * invalidRounds on worker threads, one share per core: hashing each round to the curve is the cost
 * (milliseconds of BigInt arithmetic a round), so it leaves the main thread, which only adds the
 * shares' sums and makes the two pairings. A failed batch is checked round by round, also in
 * workers, to name the bad ones.
 */
export async function invalidRoundsInWorkers(chain: BeaconChain, rounds: readonly BeaconRound[], threads = os.availableParallelism()): Promise<BeaconRound[]> {
  const list = distinctRounds(rounds);
  if (!list.length) return [];
  const parts = shares(list, Math.max(1, Math.min(threads, Math.ceil(list.length / WORKERS_FROM))));
  const run = <T>(share: BeaconRound[], each: boolean) =>
    answerOf<T>(startWorker(besideModule(import.meta.url, 'round-worker'), { chain, rounds: share, each }), 'beacon round worker');
  const sums = await Promise.all(parts.map((share) => run<BatchSums>(share, false)));
  const malformed = sums.flatMap((s, k) => s.malformed.map((i) => parts[k]![i]!));
  if (malformed.length === list.length || sumsHold(chain, sums)) return malformed;
  const bad = await Promise.all(parts.map((share) => run<number[]>(share, true)));
  return bad.flatMap((idx, k) => idx.map((i) => parts[k]![i]!));
}
