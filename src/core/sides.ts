import { gameOptionsOf } from '../ledger/roster.js';
import { SIDES, type Side } from '../rules/sides.js';
import type { Context } from './command.js';
import type { Scope } from './games.js';

const asSide = (s: string | null | undefined): Side | undefined => SIDES.find((x) => x === s?.trim().toLowerCase());

/**
 * The side a roll is made for: the named roster unit's own side when it has one, else the side the player joined in the game the roll belongs to (/game join); else none.
 */
export async function rollSide(scope: Scope, ctx: Context, unitName: string | undefined): Promise<Side | undefined> {
  const game = scope.game;
  if (!game) return undefined;
  const unit = unitName ? await scope.reads.roster.unitByName(game.id, unitName) : undefined;
  return asSide(unit?.side) ?? asSide(gameOptionsOf(game).sides?.[ctx.actor.userId]?.side);
}
