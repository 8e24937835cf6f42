import type { Db } from './database.js';
import {
  CHAINED_COLUMNS,
  canonicalJson,
  canonicalRowHash,
  canonicalSql,
  ChainWalker,
  hashedSql,
  MARK,
  storedRowHash,
  type CanonicalRow,
  type ChainReport,
} from './chain.js';
import { parseRow, type RawRow } from './rows.js';
import { committedHash, MARKED_FIELDS } from './committed-walk.js';

/**
 * A committed row (people.ts) also brings its chained text, and its plain values' canonical text
 * with the person fields' values between marks (`marked`); `plain`, that text unmarked, is put
 * together when a reading needs it.
 */
type WalkRow = (CanonicalRow & { chained: string | null; marked: string | null; plain?: string | null }) | (RawRow & { chained: string | null });
const walkHash = (prev: string, row: WalkRow) => ('hashed' in row ? canonicalRowHash(prev, row) : storedRowHash(prev, row));
const markedTextOf = (row: WalkRow) => ('hashed' in row ? (row.marked ?? undefined) : undefined);
const MARKED = new Set(MARKED_FIELDS);

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
  private readonly plainAt;

  constructor(db: Db) {
    const range = 'FROM rolls WHERE guild_id = ? AND guild_seq > ? AND guild_seq <= ? ORDER BY guild_seq LIMIT ?';
    // One text for the hash and one for the commitments: each CASE a row is asked costs it.
    this.canonical = db.prepare(
      `SELECT id, guild_seq, prev_hash, hash, chained, ${hashedSql()} AS hashed, CASE WHEN chained IS NOT NULL THEN ${canonicalSql(undefined, MARKED)} END AS marked ${range}`,
    );
    this.plainAt = db.prepare(`SELECT ${canonicalSql()} AS plain FROM rolls WHERE guild_id = ? AND guild_seq = ?`);
    this.columns = db.prepare(`SELECT ${[...CHAINED_COLUMNS, 'prev_hash', 'hash', 'chained'].join(', ')} ${range}`);
    this.hashAt = db.prepare('SELECT hash FROM rolls WHERE guild_id = ? AND guild_seq = ?');
    this.salts = db.prepare<[string], { salt_id: string; salt: string }>('SELECT salt_id, salt FROM people WHERE guild_id = ?');
  }

  /** Up to `size` rows after position `after`, to position `upTo`. */
  chunk(guildId: string, after: number, upTo: number, size: number): WalkRow[] {
    try {
      return this.canonical.all(guildId, after, upTo, size) as WalkRow[];
    } catch (err) {
      // Only json_quote's refusal falls back; anything else (a busy or broken file) is the caller's.
      if (!/JSON cannot hold BLOB/i.test((err as Error).message)) throw err;
      return this.columns.all(guildId, after, upTo, size) as WalkRow[];
    }
  }

  /** The stored hash of the row at a position, if there is one. */
  storedHash(guildId: string, guildSeq: number): string | undefined {
    return (this.hashAt.get(guildId, guildSeq) as { hash: string } | undefined)?.hash;
  }

  /** A walker that starts where `from` says, hashing rows as chunk reads them, and holding committed rows to their people's salts in the guild. */
  walker(guildId: string, from?: WalkStart): ChainWalker<WalkRow> {
    const salts = new Map(this.salts.all(guildId).map((p) => [p.salt_id, p.salt]));
    const plainText = (row: WalkRow) => this.plainTextOf(guildId, row);
    // A committed row's plain values, from the text SQLite joined from its columns: a column could carry
    // a key twice (an edit appending one), so the text must be canonical, or the row reads as edited.
    const plainOf = (row: WalkRow): Record<string, unknown> => {
      if (!('hashed' in row)) return parseRow(row);
      const text = plainText(row)!;
      const plain = JSON.parse(text) as Record<string, unknown>;
      if (canonicalJson(plain) !== text) throw new Error('not canonical');
      return plain;
    };
    return new ChainWalker<WalkRow>(committedHash(walkHash, salts, plainOf, plainText, markedTextOf), from);
  }

  /**
   * A committed row's plain canonical text: its marked text without the marks or, where an edit put
   * a mark's character in a column, assembled again unmarked.
   */
  private plainTextOf(guildId: string, row: WalkRow): string | undefined {
    if (!('hashed' in row)) return undefined;
    if (row.plain === undefined && row.marked !== null) {
      const pieces = row.marked.split(MARK);
      row.plain =
        pieces.length === 2 * MARKED.size + 1 ? pieces.join('') : ((this.plainAt.get(guildId, row.guild_seq) as { plain: string } | undefined)?.plain ?? null);
    }
    return row.plain ?? undefined;
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
