import type { AnySystemId } from '../rules/types.js';
import { readScope } from './games.js';
import type { Context } from './command.js';
import { text } from './options.js';

export const UNIT_NAME_MAX = 80;

/** The optional `unit` name every rolling command takes, kept with the roll. */
export const unitOption = () => text({ description: 'Name of the unit, kept with the roll', maxLength: UNIT_NAME_MAX, autocomplete: true });

/**
 * Autocomplete for `unit` in a command of one system: the roster of the channel's game when it is
 * of that system, then names this channel has rolled in that system, most recent first.
 */
export const unitChoicesFor = (system: AnySystemId) => async (ctx: Context, option: string, value: string) => {
  if (option !== 'unit') return [];
  const { game } = await readScope(ctx, system);
  const roster = game ? await ctx.services.ledger.roster.unitNames(game.id, value, 25) : [];
  const recent = await ctx.services.ledger.recentUnits(ctx.actor.guildId, ctx.actor.channelId, value, 25, system);
  return [...new Set([...roster, ...recent])].slice(0, 25).map((u) => ({ name: u, value: u }));
};

/** Autocomplete for a roster command: the units of the channel's running game. */
export async function rosterChoices(ctx: Context, value: string) {
  const game = await ctx.services.ledger.roster.activeGame(ctx.actor.guildId, ctx.actor.channelId);
  return game ? (await ctx.services.ledger.roster.unitNames(game.id, value, 25)).map((n) => ({ name: n, value: n })) : [];
}
