import type { Context } from './command.js';
import { text } from './options.js';

export const UNIT_NAME_MAX = 80;

/** The optional `unit` name every rolling command takes, kept with the roll. */
export const unitOption = () =>
  text({ description: 'Name of the unit, kept with the roll', maxLength: UNIT_NAME_MAX, autocomplete: true });

/** Autocomplete for `unit`: the names this channel has rolled, most recent first. */
export function recentUnitChoices(ctx: Context, option: string, value: string) {
  if (option !== 'unit') return [];
  return ctx.services.ledger.recentUnits(ctx.actor.guildId, ctx.actor.channelId, value, 25).map((u) => ({ name: u, value: u }));
}
