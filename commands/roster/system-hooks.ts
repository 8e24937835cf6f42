import type { Context } from '../../src/core/command.js';
import type { LedgerTx } from '../../src/ledger/transaction.js';
import type { Game } from '../../src/ledger/roster.js';
import { lapseAllRouts } from '../hearts-of-tin/pending-rout.js';
import { heartsOfTinTurnEnd } from '../hearts-of-tin/turn-end.js';
import { wachtAmRheinTurnEnd } from '../wacht-am-rhein/turn-end.js';

/**
 * What a system's rules do when /game moves its game on, written to the roster as the game's own
 * changes (each a ledger row under the /game row) in the command's transaction; each returns one
 * line per change for the reply. The systems keep these beside their commands; /game only asks.
 */
type SystemHooks = {
  turnEnd?: (tx: LedgerTx, ctx: Context, before: Game, after: Game, turnRowId: string) => Promise<string[]>;
  gameEnd?: (tx: LedgerTx, ctx: Context, game: Game) => Promise<string[]>;
};

const HOOKS: Record<string, SystemHooks> = {
  'hearts-of-tin': {
    turnEnd: heartsOfTinTurnEnd,
    // Offers still open at the end lapse with it (the commander re-roll), inside the game.
    gameEnd: (tx, ctx, game) => lapseAllRouts(tx, ctx, game, 'The game ended'),
  },
  'wacht-am-rhein': { turnEnd: wachtAmRheinTurnEnd },
};

export const turnEnd = (tx: LedgerTx, ctx: Context, before: Game, after: Game, turnRowId: string): Promise<string[]> =>
  HOOKS[after.system]?.turnEnd?.(tx, ctx, before, after, turnRowId) ?? Promise.resolve([]);

export const gameEnd = (tx: LedgerTx, ctx: Context, game: Game): Promise<string[]> => HOOKS[game.system]?.gameEnd?.(tx, ctx, game) ?? Promise.resolve([]);
