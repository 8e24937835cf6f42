import { boundRound, snowflakeTime, type BeaconChain } from '../beacon/chain.js';
import type { ChainedRow } from '../ledger/chain.js';

/**
 * A beacon game's expiries: rolls bound to a round that were never rolled, each a chained row
 * (interaction, round, who, why). A round is public forever, so an expiry says only that the bot's
 * relays did not deliver it in time; a host whose relay withholds the rounds he dislikes vetoes
 * rolls that way, so every verifier counts them by player. An expiry must name the round its
 * interaction binds to, come after the binding's ten minutes (earlier, the roll was dropped once its
 * round was out), answer an interaction no roll answered, and never be a tournament game's (its
 * bindings wait for their round however long).
 */

/** The earliest an expiry may be recorded after its roll was asked: the binding's ten minutes, less a minute of clocks. */
const EARLIEST_MS = 9 * 60 * 1000;

/** The row kind of an expiry (the ledger's, tally.ts). */
const EXPIRY = 'expiry';

type RowExpiry = { interaction: string; round: number };

const inputOf = (r: ChainedRow) => (r.input ?? {}) as Record<string, unknown>;

function expiryOf(r: ChainedRow): RowExpiry | undefined {
  const { interaction, round } = inputOf(r);
  return typeof interaction === 'string' && /^\d{1,20}$/.test(interaction) && Number.isSafeInteger(round) ? { interaction, round: round as number } : undefined;
}

/** A tournament game (its first row says so): its bindings never expire, and its rolls may come late. */
export const isTournament = (start: ChainedRow): boolean => inputOf(start).fair === 'tournament';

/** What one expiry breaks, if anything. */
function wrongExpiry(chain: BeaconChain, r: ChainedRow, e: RowExpiry | undefined, tournament: boolean): string | undefined {
  if (!e) return `expiry ${r.id} names no bound roll (its interaction and round)`;
  if (tournament) return `expiry ${r.id}: a binding of a tournament game expired, but a tournament game's binding never expires: its roll was dropped`;
  const due = boundRound(chain, e.interaction);
  if (e.round !== due) return `expiry ${r.id} names beacon round ${e.round}, but its interaction ${e.interaction} binds it to round ${due}`;
  const after = Date.parse(r.created_at) - snowflakeTime(e.interaction);
  if (!(after >= EARLIEST_MS))
    return `expiry ${r.id} was recorded ${Math.max(0, Math.floor(after / 1000))} s after its roll was asked, before its ten minutes were up: a roll dropped once its round was out`;
  return undefined;
}

/** Who the expiries were of, the most first: "Bob 8, Alice 1". */
function byPlayer(rows: readonly ChainedRow[]): string {
  const counts = new Map<string, number>();
  for (const r of rows) {
    const who = r.user_name || r.user_id;
    counts.set(who, (counts.get(who) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([who, n]) => `${who} ${n}`)
    .join(', ');
}

/**
 * The game's expiries checked, and counted for the report (undefined when there are none).
 * `answered`: the interactions the game's rolls answered (an expiry of one of them is a second end).
 */
export function checkExpiries(
  chain: BeaconChain,
  start: ChainedRow,
  rows: readonly ChainedRow[],
  answered: ReadonlySet<string>,
): { ok: true; said: string | undefined } | { ok: false; problem: string } {
  const gameId = inputOf(start).game;
  const expiries = rows.filter((r) => r.kind === EXPIRY && (r.game_id ?? inputOf(r).game) === gameId);
  const seen = new Set(answered);
  for (const r of expiries) {
    const e = expiryOf(r);
    // One interaction, one end: an expiry of an interaction a roll answered is a second one.
    if (e && seen.has(e.interaction))
      return { ok: false, problem: `expiry ${r.id} answers interaction ${e.interaction}, which another row of the game answered` };
    const wrong = wrongExpiry(chain, r, e, isTournament(start));
    if (wrong) return { ok: false, problem: wrong };
    seen.add(e!.interaction);
  }
  if (!expiries.length) return { ok: true, said: undefined };
  const relays = inputOf(start).relays;
  const named = Array.isArray(relays) && relays.length ? ` (the game's relays: ${relays.map(String).join(', ')})` : '';
  const n = expiries.length;
  return {
    ok: true,
    said: `beacon: ${n} roll${n === 1 ? '' : 's'} bound and expired unrolled (${byPlayer(expiries)}): a published round the bot's relays did not deliver${named}`,
  };
}

/**
 * The report lines that count a game's expiries: the bot's /verify shows them beside a passing
 * verdict (the CLI and the page print every line), in the verifiers' own words.
 */
export const expiryReports = (lines: readonly string[]): string[] => lines.filter((l) => / bound and expired unrolled \(/.test(l));
