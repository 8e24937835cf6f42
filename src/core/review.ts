import type { LedgerRow } from '../ledger/ledger.js';
import { isSealed } from '../render/review.js';
import type { Context } from './command.js';
import { refuse } from './user-error.js';

/** A roll of this server by id, or the error; another server's roll is "not found", never shown. */
export function findRoll(ctx: Context, id: string): LedgerRow {
  return ctx.services.ledger.get(ctx.actor.guildId, id.trim().toLowerCase()) ?? refuse(`There is no roll ${JSON.stringify(id)} in this server.`);
}

/** Whether the viewer must not see this roll's result: sealed, unrevealed, and not theirs or a GM's. */
export function hiddenFrom(ctx: Context, row: LedgerRow, revealed: boolean): boolean {
  return isSealed(row) && !revealed && !ctx.actor.isGm && row.user_id !== ctx.actor.userId;
}
