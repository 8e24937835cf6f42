import type Database from 'better-sqlite3';
import type { Db } from './database.js';

type Statement = Database.Statement<unknown[]>;

/**
 * Retention: the servers the bot has left, and the deletion of a server's data once it has been
 * gone long enough. The SQL is written once with `?` placeholders for both backends (PostgreSQL
 * numbers them, postgres/pg-retention.ts); the purge's steps are the same code on both (purgeSteps).
 */

/** A server the bot has left: since when, and the days it set with /config retention (null: the host's default). */
export type Departure = { guild_id: string; left_at: string; retention_days: number | null };

/** What a purge deleted: rows by table, and their sum. */
export type PurgeCount = { rows: number; tables: Record<string, number> };

export interface RetentionReads {
  /** The days this server set with /config retention; null when it set none (the host's default applies). */
  retentionDays(guildId: string): number | null;
  /** The servers the bot has left whose data is still here, oldest departure first, from after the one given ('' '': the first). */
  departures(afterLeftAt: string, afterGuildId: string, limit: number): Departure[];
  /** Every server the ledger holds data of (a chain or settings): an index answers, one step per server. */
  knownGuilds(): string[];
}

export interface RetentionWrites {
  /** Null: back to the host's default. */
  setRetentionDays(guildId: string, days: number | null): void;
  /** The bot left this server at `at`; a departure already recorded keeps its earlier time. */
  markLeft(guildId: string, at: string): void;
  /** The bot was in this server at `seenAt`: a departure recorded then or before is forgotten. True when there was one. */
  markBack(guildId: string, seenAt: string): boolean;
}

/** Deleting a server's data: in one transaction of its own, which the store opens. */
export interface GuildPurge {
  /**
   * Deletes every row of the server, if its departure is still the one read (`leftAt`): the
   * departure's row is the claim, marked first and deleted last, so of two sweeps (any processes)
   * one deletes it, once. Undefined when it was not claimed (the bot is back, or another purged it).
   */
  purgeGuild(guildId: string, leftAt: string): Promise<PurgeCount | undefined>;
}

export const RETENTION_SQL = {
  days: 'SELECT retention_days FROM guild_config WHERE guild_id = ?',
  setDays: 'INSERT INTO guild_config (guild_id, retention_days) VALUES (?, ?) ON CONFLICT (guild_id) DO UPDATE SET retention_days = excluded.retention_days',
  departures: `SELECT d.guild_id, d.left_at, c.retention_days FROM guild_departures d LEFT JOIN guild_config c ON c.guild_id = d.guild_id
    WHERE (d.left_at, d.guild_id) > (?, ?) ORDER BY d.left_at, d.guild_id LIMIT ?`,
  // Each server's chain found by one index step from the last (not every row read), and the servers with settings only.
  known: `WITH RECURSIVE g(id) AS (
      SELECT (SELECT guild_id FROM rolls ORDER BY guild_id LIMIT 1)
      UNION ALL
      SELECT (SELECT guild_id FROM rolls WHERE guild_id > g.id ORDER BY guild_id LIMIT 1) FROM g WHERE g.id IS NOT NULL
    )
    SELECT id AS guild_id FROM g WHERE id IS NOT NULL UNION SELECT guild_id FROM guild_config`,
  markLeft: 'INSERT INTO guild_departures (guild_id, left_at) VALUES (?, ?) ON CONFLICT (guild_id) DO NOTHING',
  markBack: 'DELETE FROM guild_departures WHERE guild_id = ? AND left_at <= ? AND purging = 0',
  /** The claim: one transaction finds the departure as read and marks it; the delete triggers then let its rows go. */
  claim: 'UPDATE guild_departures SET purging = 1 WHERE guild_id = ? AND left_at = ? AND purging = 0',
  done: 'DELETE FROM guild_departures WHERE guild_id = ?',
  /** Where the next chunk of the server's chain starts: its `n`-th newest row (none: fewer are left, all go). */
  chunkStart: 'SELECT seq FROM rolls WHERE guild_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?',
} as const;

/** A table a purge empties of a server, a chunk at a time, by its key; `where` finds the server's rows. */
export type GuildTable = { table: string; key: readonly string[]; where?: string };

/** Rows deleted with a chunk of the server's chain, by the rolls they name (before the rolls: they refer to them). */
export const ROLL_CHILD_TABLES = ['roll_messages', 'roll_deliveries', 'sealed_payloads'] as const;

/**
 * Every other table that holds a server's rows, in the order they are emptied (units before the
 * games they belong to). tests/ledger/retention.test.ts holds it to the schema: a table with a
 * server or roll column that is missing here fails it.
 */
export const GUILD_TABLES: readonly GuildTable[] = [
  { table: 'units', key: ['id'], where: 'game_id IN (SELECT id FROM games WHERE guild_id = ?)' },
  { table: 'games', key: ['id'] },
  { table: 'channel_units', key: ['guild_id', 'channel_id', 'system', 'unit_key'] },
  { table: 'player_roll_counts', key: ['game_id', 'user_id'] },
  {
    table: 'dice_tallies',
    key: ['guild_id', 'channel_id', 'game_id', 'side', 'user_id', 'system', 'command', 'category', 'shape', 'hour', 'total'],
  },
  { table: 'saved_queries', key: ['id'] },
  { table: 'interactions', key: ['id'] },
  { table: 'beacon_bindings', key: ['interaction_id'] },
  { table: 'interaction_evidence', key: ['interaction_id'] },
  { table: 'roll_requests', key: ['id'] },
  { table: 'game_clocks', key: ['game_id'] },
  { table: 'schedules', key: ['id'] },
  { table: 'people', key: ['salt_id'] },
  { table: 'erasing', key: ['guild_id'] },
  { table: 'guild_config', key: ['guild_id'] },
];

/** Rows deleted at once: a chunk on SQLite holds the event loop a few milliseconds. */
export const PURGE_CHUNK = 500;

/** One chunk of a table's rows of the server: `?` the server, then the chunk's size. */
export function chunkDelete(t: GuildTable): string {
  const key = t.key.length > 1 ? `(${t.key.join(', ')})` : t.key[0]!;
  return `DELETE FROM ${t.table} WHERE ${key} IN (SELECT ${t.key.join(', ')} FROM ${t.table} WHERE ${t.where ?? 'guild_id = ?'} LIMIT ?)`;
}

/** The rows of a roll child table that name a roll of the server from position `seq` on. */
const childDelete = (table: string) => `DELETE FROM ${table} WHERE roll_id IN (SELECT id FROM rolls WHERE guild_id = ? AND seq >= ?)`;
const ROLLS_DELETE = 'DELETE FROM rolls WHERE guild_id = ? AND seq >= ?';

/** How a backend runs one statement of a purge, in the purge's transaction: the rows it changed, or the first row it read. */
export type PurgeRunner = {
  run(sql: string, params: unknown[]): Promise<number>;
  first<T>(sql: string, params: unknown[]): Promise<T | undefined>;
  /** Between two chunks: SQLite gives the event loop back here. */
  pause(): Promise<void>;
};

/**
 * The purge's steps, the same on both backends (inside the transaction the store opened): the
 * claim, the server's chain newest first with the rows that name its rolls (a row's re-rolls and
 * reveals come after it, so none is left pointing at a deleted one), every other table, and the
 * departure last, which lifts the mark. `extra`: tables only one backend has (PostgreSQL's chain heads).
 */
export async function purgeSteps(db: PurgeRunner, guildId: string, leftAt: string, extra: readonly GuildTable[] = []): Promise<PurgeCount | undefined> {
  if ((await db.run(RETENTION_SQL.claim, [guildId, leftAt])) !== 1) return undefined;
  const tables: Record<string, number> = {};
  const add = (table: string, n: number) => {
    if (n) tables[table] = (tables[table] ?? 0) + n;
  };
  for (;;) {
    const from = (await db.first<{ seq: number }>(RETENTION_SQL.chunkStart, [guildId, PURGE_CHUNK - 1]))?.seq ?? 0;
    for (const child of ROLL_CHILD_TABLES) add(child, await db.run(childDelete(child), [guildId, from]));
    const n = await db.run(ROLLS_DELETE, [guildId, from]);
    add('rolls', n);
    await db.pause();
    if (from === 0 || n === 0) break;
  }
  for (const t of [...GUILD_TABLES, ...extra]) {
    const sql = chunkDelete(t);
    for (let n = PURGE_CHUNK; n === PURGE_CHUNK; await db.pause()) {
      n = await db.run(sql, [guildId, PURGE_CHUNK]);
      add(t.table, n);
    }
  }
  await db.run(RETENTION_SQL.done, [guildId]);
  return { rows: Object.values(tables).reduce((a, n) => a + n, 0), tables };
}

/** The retention reads and writes on SQLite; the purge itself is the ledger's (it needs its transaction). */
export class Retention implements RetentionReads, RetentionWrites {
  private readonly q;
  constructor(private readonly db: Db) {
    this.q = Object.fromEntries(Object.entries(RETENTION_SQL).map(([k, sql]) => [k, db.prepare<unknown[]>(sql)])) as Record<
      keyof typeof RETENTION_SQL,
      Statement
    >;
  }

  retentionDays(guildId: string): number | null {
    return (this.q.days.get(guildId) as { retention_days: number | null } | undefined)?.retention_days ?? null;
  }

  departures(afterLeftAt: string, afterGuildId: string, limit: number): Departure[] {
    return this.q.departures.all(afterLeftAt, afterGuildId, limit) as Departure[];
  }

  knownGuilds(): string[] {
    return (this.q.known.all() as { guild_id: string }[]).map((r) => r.guild_id);
  }

  setRetentionDays(guildId: string, days: number | null): void {
    this.q.setDays.run(guildId, days);
  }

  markLeft(guildId: string, at: string): void {
    this.q.markLeft.run(guildId, at);
  }

  markBack(guildId: string, seenAt: string): boolean {
    return this.q.markBack.run(guildId, seenAt).changes === 1;
  }

  /** The purge's statements on this connection, prepared as they come (a chunk's statements are the same each time). */
  runner(pause: () => Promise<void>): PurgeRunner {
    const prepared = new Map<string, Statement>();
    const stmt = (sql: string) => {
      const s = prepared.get(sql) ?? this.db.prepare<unknown[]>(sql);
      prepared.set(sql, s);
      return s;
    };
    return {
      run: async (sql, params) => stmt(sql).run(...params).changes,
      first: async <T>(sql: string, params: unknown[]) => stmt(sql).get(...params) as T | undefined,
      pause,
    };
  }
}
