import type { Action, AnyCommand, Context } from './command.js';
import type { OptionSpec } from './options.js';
import type { LedgerTx } from '../ledger/transaction.js';
import type { Game } from '../ledger/roster.js';
import type { SystemId } from '../rules/systems.js';

export type UnitFields = Record<string, unknown>;

/**
 * How a system's roster units are written and read: the fields a unit keeps (each typed as
 * `name:value` in `/unit add fields:`, checked by its option spec), what is required, the
 * defaults, the checks across fields, and the line a unit reads as on the roster.
 */
export type UnitSpec = {
  /** The system's name as a player says it ("ASL"), in refusals. */
  label: string;
  fields: Record<string, OptionSpec<unknown>>;
  required: readonly string[];
  defaults: (given: UnitFields) => UnitFields;
  /** Cross-field checks and normalising (the ASL counter is read into its data name). */
  check: (f: UnitFields) => UnitFields;
  /** Refuses a change the rules forbid from one state to the next (`before` undefined for a new unit). */
  entering?: (before: UnitFields | undefined, after: UnitFields) => void;
  /** One line of what a unit is now, in its system's terms (effective values where they differ). */
  summary: (f: UnitFields) => string;
  /** More about a unit now, shown with it (a fatigued unit's restrictions). */
  details?: (f: UnitFields) => { name: string; value: string }[];
};

/**
 * What a system's rules do when /game moves its game on, written to the roster as the game's own
 * changes (each a ledger row under the /game row) in the command's transaction; each returns one
 * line per change for the reply.
 */
export type SystemHooks = {
  turnEnd?: (tx: LedgerTx, ctx: Context, before: Game, after: Game, turnRowId: string) => Promise<string[]>;
  gameEnd?: (tx: LedgerTx, ctx: Context, game: Game) => Promise<string[]>;
};

/**
 * A built-in rule system, whole: its commands, its roster units, its turn-end hooks and what
 * /odds answers for it (one entry per rolling command, under the command's name; its options are
 * the command's, less those that change no chance). The rules themselves live in src/rules/<id>/.
 */
export type SystemModule<Id extends SystemId = SystemId> = {
  id: Id;
  commands: readonly AnyCommand[];
  units: UnitSpec;
  hooks: SystemHooks;
  odds: Record<string, Action<any>>;
};

/** Keeps a descriptor's id literal while checking its shape. */
export const defineSystem = <Id extends SystemId>(s: SystemModule<Id>): SystemModule<Id> => s;
