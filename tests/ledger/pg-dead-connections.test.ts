import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PgLedger } from '../../src/ledger/postgres/pg-ledger.js';

/**
 * A pool whose first `dead` connections fail at BEGIN as connections to a restarted server do
 * (57P01: terminated by the administrator), then live ones: what a roll meets when it takes idle
 * connections before the pool has heard that they died with the server.
 */
function poolAfterRestart(dead: number, error: { code?: string; message: string }) {
  const dropped: boolean[] = [];
  let handed = 0;
  const pool = {
    async connect() {
      const mine = handed++;
      return {
        async query(q: { name?: string; text: string } | string) {
          if (mine < dead) throw Object.assign(new Error(error.message), error.code ? { code: error.code } : {});
          return { rows: [], command: typeof q === 'string' ? q : q.text };
        },
        release(destroy?: boolean) {
          dropped.push(Boolean(destroy));
        },
      };
    },
  };
  const ledger = new (PgLedger as unknown as new (pool: unknown, now: () => Date, size: number) => PgLedger)(pool, () => new Date(), 10);
  return { ledger, dropped, handed: () => handed };
}

describe('a transaction on PostgreSQL right after the server restarted', () => {
  it('drops each pooled connection that died with the server and runs on the first live one', async () => {
    const { ledger, dropped } = poolAfterRestart(10, { code: '57P01', message: 'terminating connection due to administrator command' });
    const ran = await ledger.inTransaction(async (c: pg.PoolClient) => (await c.query('SELECT 1')).command);
    expect(ran).toBe('SELECT 1');
    expect(dropped).toEqual([...Array(10).fill(true), false]);
  });

  it('a connection that ended under it (no SQLSTATE) is dropped the same way', async () => {
    const { ledger, dropped } = poolAfterRestart(2, { message: 'Connection terminated unexpectedly' });
    await ledger.inTransaction(async () => undefined);
    expect(dropped).toEqual([true, true, false]);
  });

  it('any other failure of BEGIN fails the transaction at once, and a server that stays away fails it after one try more than the pool holds', async () => {
    const refused = poolAfterRestart(5, { code: '42501', message: 'permission denied' });
    await expect(refused.ledger.inTransaction(async () => 'ran')).rejects.toThrow('permission denied');
    expect(refused.handed()).toBe(1);
    const gone = poolAfterRestart(100, { code: '57P01', message: 'terminating connection due to administrator command' });
    await expect(gone.ledger.inTransaction(async () => 'ran')).rejects.toThrow('administrator command');
    expect(gone.handed()).toBe(11);
  });
});
