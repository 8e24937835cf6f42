import type { LedgerTx } from '../ledger/transaction.js';
import type { Context } from './command.js';
import { scopeOf, type Scope } from './games.js';

/** A command's scope read in its transaction: the handle it writes with is the one it decides from. */
export type TxScope = Scope & { tx: LedgerTx; reads: LedgerTx };

/**
 * A command's one unit of work: `work` runs in one transaction of the actor's guild,
 * with the channel's game read first, inside it; every read a decision depends on goes through
 * `at.reads` (the transaction), and every write commits with them or not at all. On PostgreSQL the
 * guild's lock is the transaction's first statement, so no other command of the guild interleaves.
 */
export function unitOfWork<T>(ctx: Context, system: string | null, work: (at: TxScope) => Promise<T>): Promise<T> {
  return ctx.services.ledger.transaction(async (tx) => work({ ...(await scopeOf(tx, ctx, system)), tx, reads: tx }), ctx.actor.guildId);
}
