import { hash as digest } from 'node:crypto';
import { checkRow, PERSON_FIELDS, type SaltsById } from './people.js';
import { holdsAsText, type CommitCache } from './committed-text.js';
import { canonicalJson, JSON_COLUMNS, storedCanonical, storedRowHash, type WalkedHash } from './chain.js';
import { isOverlay, markedOpener, openedChained } from './chained-overlay.js';

/**
 * The fields whose values the walk's text (canonicalSql) marks, in the order canonical text holds
 * them (JCS sorts keys by code unit, as sort() does): the person fields, where commitments stand,
 * and every JSON column, whose raw text must each be one value.
 */
export const MARKED_FIELDS: readonly string[] = [...new Set<string>([...PERSON_FIELDS, ...JSON_COLUMNS])].sort();

/**
 * A row's plain values read from its canonical text (laid out from its columns), as every walk of
 * the ledger reads them: text that is not canonical (a column carrying a key twice, an edit
 * appending one) throws, and the row reads as edited. A JSON column that holds `null` (an erasure
 * blanked it whole) is null here, as the chain has it.
 */
export function canonicalValues(text: string): Record<string, unknown> {
  const values = JSON.parse(text) as Record<string, unknown>;
  if (canonicalJson(values) !== text) throw new Error('not canonical');
  return values;
}

/** A row as a walk reads it: its chained text (people.ts) when it commits to its person fields, and its plain values. */
type Committed = { hash: string; chained?: string | null };

/**
 * A walk's hash function that also holds a committed row's plain values to what its chain commits:
 * a dice value or a name changed beside an intact hash reads as an edit, a value whose salt is
 * erased as erased. `plainOf` gives the row's plain fields (JSON columns parsed).
 */
export function committedHash<R extends Committed>(
  hashOf: (prevHash: string, row: R) => string,
  salts: SaltsById,
  plainOf: (row: R) => Record<string, unknown>,
  /** The row's plain canonical text, when the reader has it (SQLite assembles it): read side by side with the chained text first. */
  plainText?: (row: R) => string | undefined,
  /** The same text cut at the marks around MARKED_FIELDS' values (canonicalSql), when the reader has it: read first. */
  markedPieces?: (row: R) => readonly string[] | undefined,
): (prevHash: string, row: R) => WalkedHash {
  const cache: CommitCache = new Map();
  // Only a reader with marked texts pays for the opener (the export's reader makes a walk a row).
  const openedMarked = markedPieces && markedOpener(MARKED_FIELDS, salts, cache);
  const none: readonly string[] = [];
  return (prevHash, row) => {
    // A row that stored only its commitments (chained-overlay.ts): its text put together and its commitments opened in one pass.
    if (isOverlay(row.chained)) {
      const pieces = markedPieces?.(row);
      const whole =
        (pieces && openedMarked ? openedMarked(pieces, row.chained) : undefined) ??
        openedChained(plainText?.(row) ?? storedCanonical(row as unknown as Record<string, unknown>), row.chained, salts, cache);
      row.chained = whole.text;
      const hash = digest('sha256', prevHash + whole.text);
      if (hash !== row.hash) return hash;
      return whole.opened ? { hash, erased: none } : checked(hash, row.chained, row);
    }
    const hash = hashOf(prevHash, row);
    if (typeof row.chained !== 'string' || hash !== row.hash) return hash;
    const text = plainText?.(row);
    if (text !== undefined && holdsAsText(text, row.chained, salts, cache)) return { hash, erased: none };
    return checked(hash, row.chained, row);
  };

  /** The slow reading, which decides: the row's plain values parsed and held to its chained text. */
  function checked(hash: string, text: string, row: R): WalkedHash {
    // Text that does not parse (an edit, or a corrupt column) is reported as an edit, never thrown.
    // So is a plain value no commitment can be made of (a lone surrogate: canonicalJson refuses it).
    try {
      const chained: unknown = JSON.parse(text);
      if (!chained || typeof chained !== 'object' || Array.isArray(chained)) return '';
      const held = checkRow(plainOf(row), chained as Record<string, unknown>, salts);
      return held.ok ? { hash, erased: held.erased } : '';
    } catch {
      return '';
    }
  }
}

/**
 * The walk's hash function for rows read column by column (the PostgreSQL walk, a SQLite chunk
 * holding a BLOB): each row's text laid out from its columns in JavaScript, its plain values read
 * from that text.
 */
export const columnsHash = <R extends Record<string, unknown> & Committed>(salts: SaltsById) =>
  committedHash<R>(
    storedRowHash,
    salts,
    (row) => canonicalValues(storedCanonical(row)),
    (row) => storedCanonical(row),
  );
