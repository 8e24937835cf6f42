import { storedCanonical, type ChainedRow } from './chain.js';
import { fullChained, isOverlay } from './chained-overlay.js';
import { isObject } from '../util/own.js';
import type { Named } from './people.js';

/**
 * A ledger row as callers see it. `unreadable`: a JSON column held what the bot never writes (text
 * that does not parse, or not an object / a list where it writes one), so it reads as empty: the row
 * was edited outside the bot, which the chain walk (it hashes the stored text, never this) names.
 */
export type LedgerRow = ChainedRow & { seq: number; unreadable?: true };

/** A row as SQLite returns it: the JSON columns still text. */
export type RawRow = Omit<LedgerRow, 'input' | 'dice' | 'outcome'> & { input: string; dice: string; outcome: string };

const COLUMN_SHAPES = { input: isObject, outcome: isObject, dice: Array.isArray } as const;
type Column = keyof typeof COLUMN_SHAPES;

/**
 * A stored JSON column, read as the shape the bot writes it in, or undefined when it does not hold
 * one: the one reader of the JSON columns, so that no command fails on a row edited outside the bot.
 */
export function readColumn(column: 'dice', text: unknown): unknown[] | undefined;
export function readColumn(column: 'input' | 'outcome', text: unknown): Record<string, unknown> | undefined;
export function readColumn(column: Column, text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return COLUMN_SHAPES[column](value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A stored row with its whole chained text, where it stored only the commitments (chained-overlay.ts):
 * every reader of rows passes them through this, but the chain walk, which puts the text together
 * in the pass that opens the commitments (committed-walk.ts).
 */
export function withFullChained<R extends { chained?: string | null }>(r: R): R {
  if (isOverlay(r.chained)) r.chained = fullChained(storedCanonical(r), r.chained);
  return r;
}

export function parseRow(stored: RawRow): LedgerRow {
  const r = withFullChained(stored);
  const input = readColumn('input', r.input);
  const dice = readColumn('dice', r.dice);
  const outcome = readColumn('outcome', r.outcome);
  const row: LedgerRow = { ...r, input: input ?? {}, dice: (dice ?? []) as LedgerRow['dice'], outcome: outcome ?? {} };
  if (!input || !dice || !outcome) row.unreadable = true;
  return row;
}

/** What a caller hands the ledger; ids, positions, time and hashes are the ledger's job. */
export type NewEntry = {
  /** The row's id when the caller drew it first (a roll's effects name their own roll); else drawn here. */
  id?: string | undefined;
  guildId: string;
  channelId: string;
  userId: string;
  userName: string;
  gameId?: string | null;
  turn?: number | null;
  phase?: string | null;
  gameSeq?: number | null;
  command: string;
  system: string | null;
  kind: string;
  unit?: string | null;
  input: unknown;
  dice: number[];
  outcome: unknown;
  result: string | null;
  parentId?: string | null;
  /** An action the rules allow once: a second append with the same key is refused. */
  onceKey?: string | null;
  /**
   * Sealed: the chained row keeps only a commitment to {dice, outcome, result, effects}; the salt
   * and that payload wait beside the chain for /reveal. `effects` are the roster changes the
   * result makes, applied at the reveal.
   */
  sealed?: { effects: unknown[] } | null;
  /** People the row names beyond its maker and its input's ids (a reveal: the sealed roll's maker), committed like them. */
  named?: Named[];
  /**
   * Input values whose committed form is given, not made here: a reveal's payload as its sealed
   * roll committed to it, so the reveal opens that commitment after an erasure too.
   */
  chainedInput?: Record<string, unknown>;
};

/** What a sealed roll committed to, and the salt that opens the commitment. */
export type SealedPayload = { dice: number[]; outcome: unknown; result: string | null; effects: unknown[] };
/** `committed`: the payload as its commitment covers it, people committed (people.ts); absent on rolls sealed before that. */
export type SealedRecord = { salt: string; payload: SealedPayload; committed?: unknown };

/** Stored sealed payloads by roll id (both backends read the same columns). */
export const sealedRecords = (rows: { roll_id: string; salt: string; payload: string; committed?: string | null }[]): Map<string, SealedRecord> =>
  new Map(
    rows.map((r) => [
      r.roll_id,
      { salt: r.salt, payload: JSON.parse(r.payload) as SealedPayload, ...(r.committed ? { committed: JSON.parse(r.committed) as unknown } : {}) },
    ]),
  );

/** A sealed row shown with what it committed to (to a GM, or once revealed). */
export const withPayload = (row: LedgerRow, p: SealedPayload): LedgerRow => ({ ...row, dice: p.dice, outcome: p.outcome, result: p.result });

/** A roll bound to a beacon round, kept beside the chain until its round is in (or it expires). */
export type BeaconBinding = {
  interaction_id: string;
  guild_id: string;
  channel_id: string;
  user_id: string;
  round: number;
  /** The request as asked, to roll it as it was once the round is in (after a restart too). */
  request: string;
  created_at: string;
  /** The game it was bound in (absent: a binding from before games were kept with it). */
  game_id?: string | undefined;
  /** 1 in a tournament game: it waits for its round however long, and never expires (absent: a club game's). */
  tournament?: 1 | undefined;
};
