import type { Db } from './database.js';
import {
  CHAINED_COLUMNS,
  canonicalRowHash,
  canonicalSql,
  ChainWalker,
  hashedSql,
  MARK,
  storedCanonical,
  storedRowHash,
  strayReport,
  type CanonicalRow,
  type ChainReport,
} from './chain.js';
import type { RawRow } from './rows.js';
import { canonicalValues, committedHash, MARKED_FIELDS } from './committed-walk.js';

/**
 * A committed row (people.ts) also brings its chained text, and its plain values' canonical text
 * with marks around the values of the fields MARKED_FIELDS names (`marked`), which chunk cuts at
 * the marks (`pieces`); `plain`, the text unmarked, is put together when a reading needs it.
 */
type MarkedRow = CanonicalRow & { chained: string | null; marked: string | null; pieces?: string[]; plain?: string };
type WalkRow = MarkedRow | (RawRow & { chained: string | null });
const walkHash = (prev: string, row: WalkRow) => ('hashed' in row ? canonicalRowHash(prev, row) : storedRowHash(prev, row));
const piecesOf = (row: WalkRow) => ('hashed' in row ? row.pieces : undefined);
const MARKED = new Set(MARKED_FIELDS);
const PIECES = 2 * MARKED.size + 1;

/**
 * A committed row's plain canonical text (its marked text joined without the marks), and its values
 * parsed from it: a column could carry a key twice (an edit appending one), so the text must be
 * canonical, or the row reads as edited. A row read column by column (its chunk held what SQLite
 * cannot assemble) is laid out in JavaScript, as columnsHash reads it.
 */
const plainTextOf = (row: WalkRow): string | undefined => {
  if (!('hashed' in row)) return storedCanonical(row as unknown as Record<string, unknown>);
  if (row.plain === undefined && row.pieces) row.plain = row.pieces.join('');
  return row.plain;
};
// Only a committed row is read for its values, and it always has its text ('' would read as an edit).
const plainOf = (row: WalkRow): Record<string, unknown> => canonicalValues(plainTextOf(row) ?? '');

/** A row no walk of positions reaches. */
type Stray = { id: string; guild_seq: number };

/**
 * Rows a synchronous walk reads at a time: the memory of a whole-chain check stays bounded. Small
 * enough that a chunk's strings die young: at 10,000 (~6 MB) they outlived V8's scavenges, which
 * copied and promoted them, and the walk ran at two thirds of this speed.
 */
export const WALK_CHUNK = 1_000;

/** Where a walk starts: the hash of the row before its first, and that row's position (0 and the genesis hash from the start). */
export type WalkStart = { prev: string; count: number };

/**
 * A guild's chain read for verification on one connection: the bytes each row's hash covers as
 * SQLite assembles them (hashedSql) with its hashes, or — when a row holds what json_quote refuses, a
 * BLOB only an attacker stores — every column the hash covers, hashed as storedRowHash does.
 */
export class ChainReader {
  private readonly canonical;
  private readonly columns;
  private readonly hashAt;
  private readonly salts;
  private readonly first;
  private readonly past;

  constructor(db: Db) {
    const range = 'FROM rolls WHERE guild_id = ? AND guild_seq > ? AND guild_seq <= ? ORDER BY guild_seq LIMIT ?';
    // One text for the hash and one for the commitments: each CASE a row is asked costs it.
    this.canonical = db.prepare(
      `SELECT id, guild_seq, prev_hash, hash, chained, ${hashedSql()} AS hashed, CASE WHEN chained IS NOT NULL THEN ${canonicalSql(undefined, MARKED)} END AS marked ${range}`,
    );
    this.columns = db.prepare(`SELECT ${[...CHAINED_COLUMNS, 'prev_hash', 'hash', 'chained'].join(', ')} ${range}`);
    this.hashAt = db.prepare('SELECT hash FROM rolls WHERE guild_id = ? AND guild_seq = ?');
    this.salts = db.prepare<[string], { salt_id: string; salt: string }>('SELECT salt_id, salt FROM people WHERE guild_id = ?');
    // SQLite orders no position (NULL) first and text or a BLOB after every number: a walk of positions 1 to n reaches neither.
    this.first = db.prepare('SELECT id, guild_seq FROM rolls WHERE guild_id = ? AND (guild_seq IS NULL OR guild_seq < 1) ORDER BY guild_seq LIMIT 1');
    this.past = db.prepare('SELECT id, guild_seq FROM rolls WHERE guild_id = ? AND guild_seq > ? ORDER BY guild_seq LIMIT 1');
  }

  /**
   * The rows a walk of positions 1 to n cannot reach, as a reading of every row in the chain's order
   * reports them (only an edit makes one): a row at no position or below 1 breaks the chain before
   * its first row (strayFirst); one past the walk's last position `upTo`, or at a position that is
   * no number (text, a BLOB), after its last, when the walk went to the head (strayPast).
   */
  strayFirst(guildId: string): ChainReport | undefined {
    const row = this.first.get(guildId) as Stray | undefined;
    return row && strayReport(row, 0);
  }

  strayPast(guildId: string, upTo: number, report: ChainReport): ChainReport {
    const row = report.ok ? (this.past.get(guildId, upTo) as Stray | undefined) : undefined;
    return row ? strayReport(row, report.count) : report;
  }

  /**
   * Up to `size` rows after position `after`, to position `upTo`: as SQLite assembles their texts,
   * or column by column where it cannot (json_quote refuses a BLOB; a chained text stored as one),
   * or where a row's marked text does not cut into its pieces (an edit put the mark's character in
   * a JSON column: dropping the marks would drop it too).
   */
  chunk(guildId: string, after: number, upTo: number, size: number): WalkRow[] {
    let rows: MarkedRow[];
    try {
      rows = this.canonical.all(guildId, after, upTo, size) as MarkedRow[];
    } catch (err) {
      // Only json_quote's refusal falls back; anything else (a busy or broken file) is the caller's.
      if (!/JSON cannot hold BLOB/i.test((err as Error).message)) throw err;
      return this.columns.all(guildId, after, upTo, size) as WalkRow[];
    }
    for (const row of rows) {
      // A chained text stored as a BLOB is no text SQLite's reading can tell an overlay by.
      if (row.chained !== null && typeof row.chained !== 'string') return this.columns.all(guildId, after, upTo, size) as WalkRow[];
      if (row.marked === null) continue;
      row.pieces = row.marked.split(MARK);
      if (row.pieces.length !== PIECES) return this.columns.all(guildId, after, upTo, size) as WalkRow[];
    }
    return rows;
  }

  /** The stored hash of the row at a position, if there is one. */
  storedHash(guildId: string, guildSeq: number): string | undefined {
    return (this.hashAt.get(guildId, guildSeq) as { hash: string } | undefined)?.hash;
  }

  /** A walker that starts where `from` says, hashing rows as chunk reads them, and holding committed rows to their people's salts in the guild. */
  walker(guildId: string, from?: WalkStart): ChainWalker<WalkRow> {
    const salts = new Map(this.salts.all(guildId).map((p) => [p.salt_id, p.salt]));
    return new ChainWalker<WalkRow>(committedHash(walkHash, salts, plainOf, plainTextOf, piecesOf), from);
  }

  /** Walks the rows after `from.count` up to `upTo` in one go, chunk by chunk. */
  walk(guildId: string, from: WalkStart, upTo: number): ChainReport {
    const walker = this.walker(guildId, from);
    for (let after = from.count; ; ) {
      const rows = this.chunk(guildId, after, upTo, WALK_CHUNK);
      if (!rows.length) return walker.report();
      for (const row of rows) if (walker.feed(row)) return walker.report();
      after = rows[rows.length - 1]!.guild_seq;
    }
  }
}
