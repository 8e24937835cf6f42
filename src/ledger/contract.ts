import type { LedgerRow, NewEntry, SealedRecord } from './rows.js';
import type { RecountRow, StoredTally, TallyFilter, TallyGroup, TallySum } from './tally.js';

/**
 * The ledger's methods, declared once: the rows' here, the roster's in roster.ts and the settings'
 * in settings.ts, beside the data they read. SQLite's classes implement them as written (SQLite
 * answers at once); the store and a transaction offer them as promises (`Async<…>`, see
 * transaction.ts and store.ts), which PostgreSQL implements. Adding a method means adding it to its
 * interface and to each backend: the compiler checks both.
 */

/** Reads of the chained rows. */
export interface RowReads {
  get(guildId: string, id: string): LedgerRow | undefined;
  children(guildId: string, parentId: string): LedgerRow[];
  gameRollCount(guildId: string, gameId: string): number;
  sealedPayloads(guildId: string, rollIds: string[]): Map<string, SealedRecord>;
}

/** Reads a game roll and a game's end decide from, inside their transaction. */
export interface GameRowReads {
  /** How many game rolls this player has made in the game (their next roll is this plus one). */
  playerRollCount(gameId: string, userId: string): number;
  /** The game's sealed rolls not yet revealed, voided ones included, in chain order. */
  unrevealedSealed(guildId: string, gameId: string): LedgerRow[];
}

/** The writes of rows, inside a transaction. */
export interface RowWrites {
  append(entry: NewEntry): LedgerRow;
  /** The number the next dice roll of a game takes (from 1). */
  nextGameSeq(gameId: string): number;
}

/** The dice report's aggregates (tally.ts), and the rows /verify recounts them from. */
export interface TallyReads {
  tallySums(f: TallyFilter, by: TallyGroup | undefined): TallySum[];
  /** Every stored tally of a guild with a count. */
  guildTallies(guildId: string): StoredTally[];
  /** A guild's rolls after `afterSeq`, oldest first, with their void and reveal. */
  recountRows(guildId: string, afterSeq: number, limit: number): RecountRow[];
}

/** Reads the store makes outside any transaction (counts for /game status, autocomplete). */
export interface StoreReads extends RowReads, TallyReads {
  gameRulingCount(guildId: string, gameId: string): number;
  recentUnits(guildId: string, channelId: string, prefix: string, limit: number, system: string): string[];
  /** Rows in the whole ledger, every guild (for the metrics): read from an index or the chain heads, never counted. */
  rowTotal(): number;
}

/** Interaction ids, each used once whatever transport delivers it. */
export interface OnceKeys {
  /** True when this interaction is new (and now claimed); false when it was handled already. */
  claimInteraction(id: string, guildId: string, at: string): boolean;
}

/** Which message showed a roll: written as the reply goes out. */
export interface MessageLinks {
  linkMessage(rollId: string, messageId: string): void;
}
