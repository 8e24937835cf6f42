import { checkRow, type SaltsById } from './people.js';
import { holdsAsText, type CommitCache } from './committed-text.js';
import type { WalkedHash } from './chain.js';

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
): (prevHash: string, row: R) => WalkedHash {
  const cache: CommitCache = new Map();
  const none: readonly string[] = [];
  return (prevHash, row) => {
    const hash = hashOf(prevHash, row);
    if (typeof row.chained !== 'string' || hash !== row.hash) return hash;
    const text = plainText?.(row);
    if (text !== undefined && holdsAsText(text, row.chained, salts, cache)) return { hash, erased: none };
    // Text that does not parse (an edit, or a corrupt column) is reported as an edit, never thrown.
    let chained: unknown;
    let plain: Record<string, unknown>;
    try {
      chained = JSON.parse(row.chained);
      plain = plainOf(row);
    } catch {
      return '';
    }
    if (!chained || typeof chained !== 'object' || Array.isArray(chained)) return '';
    const held = checkRow(plain, chained as Record<string, unknown>, salts);
    return held.ok ? { hash, erased: held.erased } : '';
  };
}
