import { gameOptionsOf, type Game } from '../ledger/roster.js';
import { NO_DR_SETTINGS, SIDES, type BoobyTrapLevel, type DrSettings, type Side } from '../rules/asl/dr.js';
import type { Context } from './command.js';
import type { Scope } from './games.js';

const asSide = (s: string | null | undefined): Side | undefined => SIDES.find((x) => x === s?.trim().toLowerCase());

/**
 * The side a roll is made for: the named roster unit's own side when it has one (rules/dice.md: the
 * unit wins), else the side the player joined in the game the roll belongs to (/game join); else none.
 */
export async function rollSide(scope: Scope, ctx: Context, unitName: string | undefined): Promise<Side | undefined> {
  const game = scope.game;
  if (!game) return undefined;
  const unit = unitName ? await scope.reads.roster.unitByName(game.id, unitName) : undefined;
  return asSide(unit?.side) ?? asSide(gameOptionsOf(game).sides?.[ctx.actor.userId]?.side);
}

/** A game's SANs and booby-trap levels as the /dr rules take them (none outside a game). */
export function drSettingsOf(game: Game | undefined): DrSettings {
  const o = game ? gameOptionsOf(game) : {};
  return {
    san: o.san ?? NO_DR_SETTINGS.san,
    boobyTraps: (o.booby_traps as Record<Side, BoobyTrapLevel> | undefined) ?? NO_DR_SETTINGS.boobyTraps,
  };
}
