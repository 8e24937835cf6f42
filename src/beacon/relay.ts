import type { Logger } from '../log.js';
import { roundTime, type BeaconChain } from './chain.js';
import { verifyRound, warmUp, type BeaconRound } from './verify-round.js';

/** Where a beacon's rounds come from: a round once published and checked, or a throw. */
export interface BeaconSource {
  readonly chain: BeaconChain;
  /** The relays asked (base URLs): a game's first row commits them, so players see whose they were. */
  readonly relays: readonly string[];
  /**
   * Round `round`, checked against the chain's key; waits for it to be published, gives up at
   * `deadline` (Unix ms; Infinity: never, a tournament game's binding).
   */
  round(round: number, deadline: number): Promise<BeaconRound>;
  /** Whether a relay answered lately, and the newest round seen (for /readyz and the log). */
  status(): BeaconStatus;
}

export type BeaconStatus = { chain: string; relays: number; answering: boolean; lastRound: number | null; lastError: string | null };

export class BeaconExpiredError extends Error {}

type Fetch = typeof fetch;
export type RelayOptions = { urls: readonly string[]; fetch?: Fetch; timeoutMs?: number; retryMs?: number; log?: Logger; now?: () => number };

/** drand's HTTP API: v2 first, then v1 for relays that predate it. */
const pathsOf = (chain: BeaconChain, round: number) => [`/v2/chains/${chain.hash}/rounds/${round}`, `/${chain.hash}/public/${round}`];

/** A relay as a game's first row commits it: its origin and path, never a password or a query it may carry. */
function shownRelay(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * A shared ask, given up for one caller alone at its own deadline (the clock read every `retryMs`):
 * a club game's binding sharing a round with a tournament's (which never gives up) still expires in
 * its ten minutes.
 */
async function byDeadline(
  shared: Promise<BeaconRound>,
  deadline: number,
  clock: { now: () => number; retryMs: number },
  expired: () => Error,
): Promise<BeaconRound> {
  let done = false;
  const settled = shared.finally(() => {
    done = true;
  });
  const late = (async () => {
    while (!done && clock.now() < deadline) await sleep(clock.retryMs);
    if (!done) throw expired();
    return settled;
  })();
  return Promise.race([settled, late]);
}

/**
 * The relays of a chain: every relay asked at once, the first answer whose signature holds wins (a
 * relay that lies is just one that did not answer); each request has its own timeout. A round is
 * asked for once it is due, and again every `retryMs` until the deadline.
 */
export function relaySource(chain: BeaconChain, o: RelayOptions): BeaconSource {
  const doFetch = o.fetch ?? fetch;
  const timeoutMs = o.timeoutMs ?? 2_000;
  const retryMs = o.retryMs ?? 1_000;
  const now = o.now ?? Date.now;
  const state: BeaconStatus = { chain: chain.hash, relays: o.urls.length, answering: false, lastRound: null, lastError: null };

  async function ask(base: string, round: number): Promise<BeaconRound> {
    let last: unknown;
    for (const path of pathsOf(chain, round)) {
      try {
        const res = await doFetch(`${base.replace(/\/+$/, '')}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
        if (!res.ok) throw new Error(`${base} answered ${res.status}`);
        const body = (await res.json()) as { round?: unknown; signature?: unknown };
        const got = { round: Number(body.round), signature: String(body.signature ?? '') };
        if (got.round !== round || !verifyRound(chain, got)) throw new Error(`${base} served a round ${round} that does not verify`);
        return got;
      } catch (err) {
        last = err;
      }
    }
    throw last;
  }

  async function once(round: number): Promise<BeaconRound> {
    try {
      const got = await Promise.any(o.urls.map((u) => ask(u, round)));
      Object.assign(state, { answering: true, lastRound: Math.max(state.lastRound ?? 0, round), lastError: null });
      return got;
    } catch (err) {
      const why = err instanceof AggregateError ? err.errors.map((e) => (e instanceof Error ? e.message : String(e))).join('; ') : String(err);
      Object.assign(state, { answering: false, lastError: why });
      throw err;
    }
  }

  const expired = (round: number, err: unknown) => new BeaconExpiredError(`no relay gave round ${round} in time: ${state.lastError ?? String(err)}`);

  /** Asks until the round comes or `until()` (the latest deadline of those waiting on it) passes. */
  async function fetchRound(round: number, until: () => number): Promise<BeaconRound> {
    // Until the round is due, in steps no longer than retryMs (the clock is read again each time).
    for (let wait = roundTime(chain, round) - now(); wait > 0 && now() < until(); wait = roundTime(chain, round) - now()) await sleep(Math.min(wait, retryMs));
    for (let attempt = 0; ; attempt++) {
      try {
        return await once(round);
      } catch (err) {
        if (now() + retryMs >= until()) throw expired(round, err);
        // Once a round (a bot cut off from the relays would otherwise log every second for ten minutes).
        if (attempt === 3) o.log?.warn('the beacon relays did not give a round yet', { round, why: state.lastError });
        // A round is published a moment after its time: ask again soon, then less often.
        await sleep(Math.min(retryMs, 50 * 2 ** attempt));
      }
    }
  }

  const askFor = roundAsks(fetchRound);
  let warming = false;
  return {
    chain,
    relays: o.urls.map(shownRelay),
    status: () => ({ ...state }),
    round(round, deadline) {
      if (!warming) {
        // A round is asked for seconds before it is due: the checker warms meanwhile, after this turn's replies.
        warming = true;
        setImmediate(() => warmUp(chain));
      }
      const a = askFor(round, deadline);
      // Each caller with a deadline keeps it, whoever asks the same round later with a later one.
      return Number.isFinite(deadline) ? byDeadline(a.got, deadline, { now, retryMs }, () => expired(round, 'its deadline passed')) : a.got;
    },
  };
}

type Ask = { got: Promise<BeaconRound>; until: number };

/**
 * One ask per round however many rolls wait on it (50 players ending a turn together), kept up
 * until the latest deadline of those waiting.
 */
function roundAsks(fetchRound: (round: number, until: () => number) => Promise<BeaconRound>): (round: number, deadline: number) => Ask {
  const asked = new Map<number, Ask>();
  return (round, deadline) => {
    const had = asked.get(round);
    if (had) {
      had.until = Math.max(had.until, deadline);
      return had;
    }
    const ask: Ask = { until: deadline, got: undefined as unknown as Promise<BeaconRound> };
    ask.got = fetchRound(round, () => ask.until);
    asked.set(round, ask);
    // A failed round is asked afresh next time; a good one stays (the newest thousand).
    ask.got.then(
      () => {
        if (asked.size > 1_000) asked.delete(asked.keys().next().value!);
      },
      () => asked.delete(round),
    );
    return ask;
  };
}
