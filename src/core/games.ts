import type { Game } from '../ledger/roster.js';
import type { Context } from './command.js';
import { refuse } from './user-error.js';

/** The game running in the actor's channel; with none, the request is refused with how to start one. */
export function runningGame(ctx: Context): Game {
  return (
    ctx.services.ledger.roster.activeGame(ctx.actor.guildId, ctx.actor.channelId) ??
    refuse('No game is running in this channel: start one with /game start system:<system> name:<name>.')
  );
}
