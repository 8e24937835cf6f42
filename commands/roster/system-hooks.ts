import type { Context } from '../../src/core/command.js';
import type { LedgerTx } from '../../src/ledger/transaction.js';
import type { Game } from '../../src/ledger/roster.js';
import { lapseAllRouts } from '../hearts-of-tin/pending-rout.js';
import { heartsOfTinTurnEnd } from '../hearts-of-tin/turn-end.js';
import { wachtAmRheinTurnEnd } from '../wacht-am-rhein/turn-end.js';
import type { SystemId } from '../../src/rules/systems.js';

/**
 * What a system's rules do when /game moves its game on, written to the roster as the game's own
 * changes (each a ledger row under the /game row) in the command's transaction; each returns one
 * line per change for the reply. The systems keep these beside their commands; /game only asks.
 */
type SystemHooks = {
  turnEnd?: (tx: LedgerTx, ctx: Context, before: Game, after: Game, turnRowId: string) => Promise<string[]>;
  gameEnd?: (tx: LedgerTx, ctx: Context, game: Game) => Promise<string[]>;
};

// One entry per built-in system, hooks or none (the compiler holds it to the list).
const HOOKS: Record<SystemId, SystemHooks> = {
  asl: {},
  'lightning-war': {},
  'hearts-of-tin': {
    turnEnd: heartsOfTinTurnEnd,
    // Offers still open at the end lapse with it (the commander re-roll), inside the game.
    gameEnd: (tx, ctx, game) => lapseAllRouts(tx, ctx, game, 'The game ended'),
  },
  'wacht-am-rhein': { turnEnd: wachtAmRheinTurnEnd },
};

export const turnEnd = (tx: LedgerTx, ctx: Context, before: Game, after: Game, turnRowId: string): Promise<string[]> =>
  hooksOf(after.system)?.turnEnd?.(tx, ctx, before, after, turnRowId) ?? Promise.resolve([]);

export const gameEnd = (tx: LedgerTx, ctx: Context, game: Game): Promise<string[]> => hooksOf(game.system)?.gameEnd?.(tx, ctx, game) ?? Promise.resolve([]);

/** A game's system's hooks; a rule pack's game has none. */
const hooksOf = (system: string): SystemHooks | undefined => (HOOKS as Partial<Record<string, SystemHooks>>)[system];
