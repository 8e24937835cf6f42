import type { Game } from '../ledger/roster.js';
import type { Context } from './command.js';
import { refuse } from './user-error.js';

/** The game running in the actor's channel; with none, the request is refused with how to start one. */
export async function runningGame(ctx: Context): Promise<Game> {
  return (
    (await ctx.services.ledger.roster.activeGame(ctx.actor.guildId, ctx.actor.channelId)) ??
    refuse('No game is running in this channel: start one with /game start system:<system> name:<name>.')
  );
}

/**
 * The channel's running game, if this outcome belongs to it: rolls of the game's system are
 * tagged with its id, turn and phase (a roll of another system in the channel is not the game's).
 */
export async function gameFor(ctx: Context, system: string | null): Promise<Game | undefined> {
  const game = await ctx.services.ledger.roster.activeGame(ctx.actor.guildId, ctx.actor.channelId);
  return game && (system === null || game.system === system) ? game : undefined;
}
