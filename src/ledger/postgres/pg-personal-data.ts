import type pg from 'pg';
import type { Sql } from '../personal-data.js';
import { numbered } from './pg-ledger.js';

/** personal-data.ts's SQL on a PostgreSQL connection (the pool's, or a transaction's). */
export const pgSql = (q: Pick<pg.PoolClient, 'query'>): Sql => ({
  dialect: 'postgres',
  rows: async <T>(sql: string, params: unknown[]) => (await q.query(numbered(sql), params)).rows as T[],
  run: async (sql, params) => (await q.query(numbered(sql), params)).rowCount ?? 0,
});
