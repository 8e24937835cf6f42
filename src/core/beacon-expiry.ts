import { BINDING_WINDOW_MS } from '../beacon/chain.js';
import { BEACON_SCHEME } from '../dice/seeded.js';
import type { BeaconBinding } from '../ledger/contract.js';
import type { NewEntry } from '../ledger/rows.js';
import { gameOptionsOf, type Game } from '../ledger/roster.js';
import { EXPIRY_KIND } from '../ledger/tally.js';
import type { LedgerTx } from '../ledger/transaction.js';

/**
 * A bound roll that expired unrolled is a chained row of its game (interaction, round, who, why):
 * a round is public forever, so an expiry says the bot's relays did not deliver it in time. Kept on
 * the record, a host's relay that withholds the rounds he dislikes shows, in /stats per player and
 * in every verifier; kept beside the chain only, it would look like a roll nobody made.
 */

/** Why a binding expired: no relay gave its round in its window, or the window had passed when it was looked at (the bot was stopped). */
export type ExpiryWhy = 'relays_silent' | 'window_passed';

/** Whether a club game's binding is past its window at `at` (ISO); a tournament game's never is. */
export const pastWindow = (b: Pick<BeaconBinding, 'created_at' | 'tournament'>, at: string): boolean =>
  !b.tournament && Date.parse(at) >= Date.parse(b.created_at) + BINDING_WINDOW_MS;

/** What the record of an expiry reads of the request a binding kept. */
type Asked = { type?: string; name?: string; customId?: string; actor?: { userName?: string } };

function askedOf(b: Pick<BeaconBinding, 'request'>): Asked {
  try {
    return JSON.parse(b.request) as Asked;
  } catch {
    return {};
  }
}

/** The command the bound request asked for, as rows name it: a command's name, a button's action. */
function askedCommand(a: Asked): string {
  if (a.type === 'command' && a.name) return a.name;
  return /^v1:([a-z_]+):/.exec(a.customId ?? '')?.[1] ?? 'button';
}

/** The game a binding was made in (one made before bindings kept it: its channel's beacon game). */
async function gameOf(tx: LedgerTx, b: BeaconBinding): Promise<Game | undefined> {
  if (b.game_id) return tx.roster.game(b.guild_id, b.game_id);
  const running = await tx.roster.activeGame(b.guild_id, b.channel_id);
  return running?.dice_scheme === BEACON_SCHEME ? running : undefined;
}

/** The expiry's row: the player's, in their game, with no dice and no result but `expired`. */
function expiryEntry(b: BeaconBinding, game: Game | undefined, why: ExpiryWhy): NewEntry {
  const asked = askedOf(b);
  const side = game ? gameOptionsOf(game).sides?.[b.user_id]?.side : undefined;
  const system = game?.system ?? null;
  return {
    guildId: b.guild_id,
    channelId: b.channel_id,
    userId: b.user_id,
    userName: asked.actor?.userName ?? b.user_id,
    gameId: game?.id ?? null,
    turn: game?.turn ?? null,
    phase: game?.phase ?? null,
    command: askedCommand(asked),
    system,
    kind: EXPIRY_KIND,
    input: { ...(game ? { game: game.id } : {}), interaction: b.interaction_id, round: b.round, why },
    dice: [],
    // Filed under the player's side, as their rolls are, so /stats side:… counts it too.
    outcome: { system, steps: [], result: 'expired', tone: 'neutral', ...(side ? { side } : {}) },
    result: 'expired',
    onceKey: `expiry:${b.interaction_id}`,
  };
}

/**
 * Expires a pending binding on the record, in the caller's transaction: the binding settled and
 * its row appended together. False when it was settled already (rolled, or expired by another process).
 */
export async function expireIn(tx: LedgerTx, b: BeaconBinding, why: ExpiryWhy): Promise<boolean> {
  if (!(await tx.history.settleBinding(b.interaction_id, 'expired', null, tx.timestamp()))) return false;
  await tx.append(expiryEntry(b, await gameOf(tx, b), why));
  return true;
}
