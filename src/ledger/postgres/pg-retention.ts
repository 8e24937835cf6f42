import type pg from 'pg';
import { purgeSteps, RETENTION_SQL, type Departure, type GuildTable, type PurgeCount, type RetentionReads, type RetentionWrites } from '../retention.js';
import type { Async } from '../transaction.js';
import { numbered } from './pg-ledger.js';

type Q = Pick<pg.PoolClient, 'query'>;

const R = Object.fromEntries(Object.entries(RETENTION_SQL).map(([k, sql]) => [k, numbered(sql)])) as Record<keyof typeof RETENTION_SQL, string>;

/** PostgreSQL alone keeps each server's chain head in a table of its own: it goes with the server. */
export const PG_ONLY: readonly GuildTable[] = [{ table: 'chain_heads', key: ['guild_id'] }];

/** Retention's reads and writes on a PostgreSQL connection (the pool's, or a transaction's): the same SQL as SQLite's (retention.ts). */
export function pgRetention(q: Q): Async<RetentionReads & RetentionWrites> {
  return {
    retentionDays: async (guildId) => (await q.query<{ retention_days: number | null }>(R.days, [guildId])).rows[0]?.retention_days ?? null,
    departures: async (afterLeftAt, afterGuildId, limit) => (await q.query<Departure>(R.departures, [afterLeftAt, afterGuildId, limit])).rows,
    knownGuilds: async () => (await q.query<{ guild_id: string }>(R.known)).rows.map((r) => r.guild_id),
    setRetentionDays: async (guildId, days) => {
      await q.query(R.setDays, [guildId, days]);
    },
    markLeft: async (guildId, at) => {
      await q.query(R.markLeft, [guildId, at]);
    },
    markBack: async (guildId, seenAt) => ((await q.query(R.markBack, [guildId, seenAt])).rowCount ?? 0) === 1,
  };
}

/** A server's purge on a transaction's connection (the caller holds the server's lock): retention.ts's steps. */
export function pgPurge(c: Q, guildId: string, leftAt: string): Promise<PurgeCount | undefined> {
  const runner = {
    run: async (sql: string, params: unknown[]) => (await c.query(numbered(sql), params)).rowCount ?? 0,
    first: async <T>(sql: string, params: unknown[]) => (await c.query(numbered(sql), params)).rows[0] as T | undefined,
    // The server does the work: this process's event loop is free while it does.
    pause: async () => undefined,
  };
  return purgeSteps(runner, guildId, leftAt, PG_ONLY);
}
