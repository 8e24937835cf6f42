import type { Db } from './database.js';
import {
  CHAINED_COLUMNS,
  canonicalJson,
  canonicalRowHash,
  canonicalSql,
  ChainWalker,
  hashedSql,
  storedRowHash,
  type CanonicalRow,
  type ChainReport,
} from './chain.js';
import { parseRow, type RawRow } from './rows.js';
import { committedHash } from './committed-walk.js';

/** A committed row (people.ts) also brings its chained text and its plain values' canonical text. */
type WalkRow = (CanonicalRow & { chained: string | null; plain: string | null }) | (RawRow & { chained: string | null });
const walkHash = (prev: string, row: WalkRow) => ('hashed' in row ? canonicalRowHash(prev, row) : storedRowHash(prev, row));
const plainTextOf = (row: WalkRow) => ('hashed' in row ? (row.plain ?? undefined) : undefined);
/**
 * A committed row's plain values, from the text SQLite joined from its columns: a column could carry
 * a key twice (an edit appending one), so the text must be canonical, or the row reads as edited.
 */
function plainOf(row: WalkRow): Record<string, unknown> {
  if (!('hashed' in row)) return parseRow(row);
  const plain = JSON.parse(row.plain!) as Record<string, unknown>;
  if (canonicalJson(plain) !== row.plain) throw new Error('not canonical');
  return plain;
}

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

  constructor(db: Db) {
    const range = 'FROM rolls WHERE guild_id = ? AND guild_seq > ? AND guild_seq <= ? ORDER BY guild_seq LIMIT ?';
    this.canonical = db.prepare(
      `SELECT id, guild_seq, prev_hash, hash, chained, ${hashedSql()} AS hashed, CASE WHEN chained IS NOT NULL THEN ${canonicalSql()} END AS plain ${range}`,
    );
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
    return new ChainWalker<WalkRow>(committedHash(walkHash, salts, plainOf, plainTextOf), from);
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
