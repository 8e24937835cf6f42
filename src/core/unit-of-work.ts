import type { ChannelState } from '../ledger/contract.js';
import type { LedgerTx } from '../ledger/transaction.js';
import type { Context } from './command.js';
import { ofSystem, type Scope } from './games.js';

/** A command's scope read in its transaction: the handle it writes with is the one it decides from. */
export type TxScope = Scope & {
  tx: LedgerTx;
  reads: LedgerTx;
  /** A roll's numbers in the channel's game, read with it (`roll`). */
  numbers?: ChannelState['numbers'];
};

/**
 * A command's one unit of work: `work` runs in one transaction of the actor's guild,
 * with the channel's game read first, inside it, in one read with the server's settings, the unit
 * the request names and, for a roll (`roll`), its numbers in the game (one statement on
 * PostgreSQL); every read a decision depends on goes through `at.reads` (the transaction), and
 * every write commits with them or not at all. On PostgreSQL the guild's lock is the transaction's
 * first statement, so no other command of the guild interleaves.
 */
export function unitOfWork<T>(ctx: Context, system: string | null, work: (at: TxScope) => Promise<T>, how: { roll?: boolean } = {}): Promise<T> {
  const { guildId, channelId, userId } = ctx.actor;
  return ctx.services.ledger.transaction(async (tx) => {
    const state = await tx.channelState({ guildId, channelId, unit: ctx.unitNamed, roller: how.roll ? userId : undefined });
    // A roll writes no settings: the reply's reads of them (the roll log channel) take these.
    if (how.roll) ctx.settingsRead?.(state.settings);
    const { game: channelGame, named, numbers } = state;
    return work({ reads: tx, channelGame, game: ofSystem(channelGame, system), named, numbers, tx });
  }, guildId);
}
