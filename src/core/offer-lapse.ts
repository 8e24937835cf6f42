import type { LedgerRow } from '../ledger/rows.js';
import type { MessageKey } from '../i18n/messages/en.js';
import { said, type Said } from '../i18n/said.js';
import type { Reads } from './games.js';

/**
 * Why an offer a roll made (a re-roll) has lapsed with its turn, or undefined while it stands: the
 * roll's game has ended, or moved on from the turn the roll was made in. A roll outside a game
 * keeps its offer while no game runs in its channel. `ended` says the end of the game in the offer's
 * own terms; `gameNow`, when given, is the channel's game as the taking of the offer would be tagged.
 */
export async function turnLapse(
  reads: Pick<Reads, 'roster'>,
  first: LedgerRow,
  ended: MessageKey = 'lapsedGameOver',
  gameNow?: string | null,
): Promise<Said | undefined> {
  if (gameNow !== undefined && gameNow !== (first.game_id ?? null)) return said(first.game_id ? ended : 'lapsedGameStarted');
  if (!first.game_id) return undefined;
  const game = await reads.roster.game(first.guild_id, first.game_id);
  if (!game || game.ended_at) return said(ended);
  if (game.turn !== first.turn) return said('lapsedTurnOver', { turn: String(first.turn ?? '–'), now: String(game.turn ?? '–') });
  return undefined;
}
