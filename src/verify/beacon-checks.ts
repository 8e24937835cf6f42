import { BIND_AHEAD, boundRound, publicChainOf, roundTime, SUPPORTED_SCHEME, snowflakeTime, type BeaconChain } from '../beacon/chain.js';
import { invalidRounds, randomnessOf } from '../beacon/verify-round.js';
import type { BeaconDraw } from '../dice/seeded.js';
import type { ChainedRow } from '../ledger/chain.js';
import type { BeaconCheck } from './beacon-precheck.js';
import { checkExpiries, isTournament } from './beacon-expiries.js';

/**
 * A beacon game's rounds, checked from its rows: each roll names the interaction that
 * asked for it and the round it bound to, which must be the round two after the interaction was
 * made; the roll is recorded after that round was published (never before: nobody knew it) and
 * within the ten minutes a binding lives; and every round's signature holds under the chain the
 * game committed to in its first row (each distinct round checked once, in one batch).
 */

/** How long after its interaction a roll may be recorded: the binding's ten minutes, and a minute of clocks. */
const LATEST_MS = 11 * 60 * 1000;

type RowBeacon = { interaction: string; round: number; signature: string };

const beaconOf = (r: ChainedRow): RowBeacon | undefined => {
  const b = (r.input as { beacon?: Partial<RowBeacon> } | null)?.beacon;
  if (!b || typeof b.interaction !== 'string' || !/^\d{1,20}$/.test(b.interaction) || !Number.isSafeInteger(b.round) || typeof b.signature !== 'string')
    return undefined;
  return b as RowBeacon;
};

/** A beacon roll's draw, from its row (checked well-formed by checkBeacons first). */
export function beaconDrawOf(r: ChainedRow): BeaconDraw {
  const b = beaconOf(r)!;
  return { interactionId: b.interaction, round: b.round, randomness: randomnessOf(b.signature) };
}

const chainOf = (start: ChainedRow): BeaconChain | undefined => {
  const c = (start.input as { beacon?: Partial<BeaconChain> } | null)?.beacon;
  if (!c || typeof c.hash !== 'string' || typeof c.public_key !== 'string' || !Number.isSafeInteger(c.period) || !Number.isSafeInteger(c.genesis_time))
    return undefined;
  return c as BeaconChain;
};

/** What one roll's beacon breaks, if anything (a tournament game's roll has no ten minutes: its binding waits). */
function wrongWith(chain: BeaconChain, r: ChainedRow, b: RowBeacon | undefined, tournament: boolean): string | undefined {
  if (!b) return `roll ${r.id} of a beacon game names no beacon round (its interaction, round and signature)`;
  const due = boundRound(chain, b.interaction);
  if (b.round !== due)
    return `roll ${r.id} used beacon round ${b.round}, but its interaction ${b.interaction} binds it to round ${due} (${BIND_AHEAD} after the round current when it was asked)`;
  const at = Date.parse(r.created_at);
  if (at < roundTime(chain, b.round)) return `roll ${r.id} was recorded before its beacon round ${b.round} was published: nobody could have had its dice then`;
  if (!tournament && at - snowflakeTime(b.interaction) > LATEST_MS)
    return `roll ${r.id} was recorded more than ten minutes after it was asked: its binding had expired`;
  return undefined;
}

export type BeaconFound = { ok: true; said: string } | { ok: false; problem: string };

/**
 * Every roll of a beacon game against its round, and every round against the game's chain; its
 * expiries among `rows` (the game's rows) checked and counted by player (beacon-expiries.ts).
 */
export function checkBeacons(start: ChainedRow, stream: ChainedRow[], invalid: BeaconCheck = invalidRounds, rows: readonly ChainedRow[] = []): BeaconFound {
  const chain = chainOf(start);
  if (!chain) return { ok: false, problem: `the game's first row (${start.id}) names a beacon scheme but no beacon chain` };
  if (chain.scheme !== SUPPORTED_SCHEME) return { ok: false, problem: `its beacon chain's scheme ${chain.scheme} is not one this verifier checks` };
  // Pinned, not named: a chain borrowing a public chain's hash or key is that chain only if every field is.
  const known = publicChainOf(chain);
  if (known?.differs.length)
    return {
      ok: false,
      problem: `its beacon chain has ${known.name}'s ${known.same.join(', ')} but not its ${known.differs.join(', ')}: not a known public beacon, whatever it names itself; its rounds and bindings prove nothing`,
    };
  const seen = new Set<string>();
  const rounds: { round: number; signature: string; row: string }[] = [];
  for (const r of stream) {
    const b = beaconOf(r);
    const wrong = wrongWith(chain, r, b, isTournament(start));
    if (wrong) return { ok: false, problem: wrong };
    // One interaction, one roll: asked again, it would draw the same dice twice.
    if (seen.has(b!.interaction)) return { ok: false, problem: `roll ${r.id} answers interaction ${b!.interaction}, which another roll of the game answered` };
    seen.add(b!.interaction);
    rounds.push({ round: b!.round, signature: b!.signature, row: r.id });
  }
  const expired = checkExpiries(chain, start, rows, seen);
  if (!expired.ok) return expired;
  const bad = invalid(chain, rounds);
  if (bad.length) {
    const rows = rounds.filter((x) => bad.some((y) => y.round === x.round && y.signature === x.signature)).map((x) => x.row);
    return {
      ok: false,
      problem: `the beacon signature of roll${rows.length === 1 ? '' : 's'} ${rows.join(', ')} does not hold under the game's beacon key: forged randomness`,
    };
  }
  const distinct = new Set(rounds.map((x) => x.round)).size;
  const whose = known ? known.name : `a private beacon chain (${chain.hash.slice(0, 12)}…): trust its operator`;
  const own = known ? '' : ' under the key its game committed; not a known public beacon';
  const expiries = expired.said ? `; ${expired.said}` : '';
  return { ok: true, said: `${distinct} beacon round${distinct === 1 ? '' : 's'} of ${whose}, each signed${own}${expiries}` };
}
