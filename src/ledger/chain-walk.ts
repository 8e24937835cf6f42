import type { Db } from './database.js';
import { CHAINED_COLUMNS, canonicalRowHash, ChainWalker, hashedSql, storedRowHash, type CanonicalRow, type ChainReport } from './chain.js';
import type { RawRow } from './rows.js';

type WalkRow = CanonicalRow | RawRow;
const walkHash = (prev: string, row: WalkRow) => ('hashed' in row ? canonicalRowHash(prev, row) : storedRowHash(prev, row));

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

  constructor(db: Db) {
    const range = 'FROM rolls WHERE guild_id = ? AND guild_seq > ? AND guild_seq <= ? ORDER BY guild_seq LIMIT ?';
    this.canonical = db.prepare(`SELECT id, guild_seq, prev_hash, hash, ${hashedSql()} AS hashed ${range}`);
    this.columns = db.prepare(`SELECT ${[...CHAINED_COLUMNS, 'prev_hash', 'hash'].join(', ')} ${range}`);
    this.hashAt = db.prepare('SELECT hash FROM rolls WHERE guild_id = ? AND guild_seq = ?');
  }

  /** Up to `size` rows after position `after`, to position `upTo`. */
  chunk(guildId: string, after: number, upTo: number, size: number): WalkRow[] {
    try {
      return this.canonical.all(guildId, after, upTo, size) as CanonicalRow[];
    } catch (err) {
      // Only json_quote's refusal falls back; anything else (a busy or broken file) is the caller's.
      if (!/JSON cannot hold BLOB/i.test((err as Error).message)) throw err;
      return this.columns.all(guildId, after, upTo, size) as RawRow[];
    }
  }

  /** The stored hash of the row at a position, if there is one. */
  storedHash(guildId: string, guildSeq: number): string | undefined {
    return (this.hashAt.get(guildId, guildSeq) as { hash: string } | undefined)?.hash;
  }

  /** A walker that starts where `from` says, hashing rows as chunk reads them. */
  walker(from?: WalkStart): ChainWalker<WalkRow> {
    return new ChainWalker<WalkRow>(walkHash, from);
  }

  /** Walks the rows after `from.count` up to `upTo` in one go, chunk by chunk. */
  walk(guildId: string, from: WalkStart, upTo: number): ChainReport {
    const walker = this.walker(from);
    for (let after = from.count; ; ) {
      const rows = this.chunk(guildId, after, upTo, WALK_CHUNK);
      if (!rows.length) return walker.report();
      for (const row of rows) if (walker.feed(row)) return walker.report();
      after = rows[rows.length - 1]!.guild_seq;
    }
  }
}
