import type { ChainedRow } from './chain.js';

/** A ledger row as callers see it, and the one reader of its stored JSON columns. */
export type LedgerRow = ChainedRow & { seq: number };

/** A row as SQLite returns it: the JSON columns still text. */
export type RawRow = Omit<LedgerRow, 'input' | 'dice' | 'outcome'> & { input: string; dice: string; outcome: string };

export const parseRow = (r: RawRow): LedgerRow => ({
  ...r,
  input: JSON.parse(r.input),
  dice: JSON.parse(r.dice),
  outcome: JSON.parse(r.outcome),
});
