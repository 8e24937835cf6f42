import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LedgerWriteError } from '../../src/ledger/errors.js';
import { type BatchSql, GroupCommit, MAX_BATCH } from '../../src/ledger/group-commit.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { ledgerEntry } from '../helpers/ledger.js';
import { tmpDb } from '../helpers/tmp.js';

/** `n` units of work queued at once, each appending one row named by its index (unit `fail` throws after its append). */
function burst(ledger: Ledger, n: number, fail = new Set<number>()) {
  return Array.from({ length: n }, (_, i) =>
    ledger.transaction(async (tx) => {
      const row = await tx.append(ledgerEntry({ unit: `u${i}` }));
      if (fail.has(i)) throw new Error(`unit ${i} refused`);
      return row.guild_seq;
    }),
  );
}

const units = (ledger: Ledger) => (ledger.db.prepare('SELECT unit FROM rolls ORDER BY guild_seq').all() as { unit: string }[]).map((r) => r.unit);

describe('group commit', () => {
  it('units that queue while one runs share one COMMIT, each row its own chained entry in order', async () => {
    const ledger = Ledger.open(tmpDb());
    const seqs = await Promise.all(burst(ledger, MAX_BATCH));
    expect(seqs).toEqual(Array.from({ length: MAX_BATCH }, (_, i) => i + 1));
    expect(ledger.commits).toEqual({ commits: 1, units: MAX_BATCH });
    expect(units(ledger)).toEqual(Array.from({ length: MAX_BATCH }, (_, i) => `u${i}`));
    expect(ledger.verify('g1')).toMatchObject({ ok: true, count: MAX_BATCH });
    ledger.close();
  });

  it('a batch holds MAX_BATCH units at most: a few more at once are two commits', async () => {
    const ledger = Ledger.open(tmpDb());
    await Promise.all(burst(ledger, MAX_BATCH + 6));
    expect(ledger.commits).toEqual({ commits: 2, units: MAX_BATCH + 6 });
    ledger.close();
  });

  it('between batches the event loop turns: what waits on it (sockets, timers) runs before the second batch', async () => {
    const ledger = Ledger.open(tmpDb());
    const order: string[] = [];
    const loop = new Promise<void>((resolve) => setImmediate(() => resolve(void order.push('event loop'))));
    const rows = burst(ledger, MAX_BATCH + 1).map((p, i) => p.then(() => void (i === MAX_BATCH && order.push('second batch'))));
    await Promise.all([loop, ...rows]);
    expect(order).toEqual(['event loop', 'second batch']);
    ledger.close();
  });

  it('a unit that fails is undone alone: its caller hears its error, the others commit and the chain has no gap', async () => {
    const ledger = Ledger.open(tmpDb());
    const results = await Promise.allSettled(burst(ledger, 6, new Set([0, 3])));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((results[3] as PromiseRejectedResult).reason.message).toBe('unit 3 refused');
    expect(results.filter((r) => r.status === 'fulfilled').map((r) => r.value)).toEqual([1, 2, 3, 4]);
    expect(units(ledger)).toEqual(['u1', 'u2', 'u4', 'u5']);
    expect(ledger.verify('g1')).toMatchObject({ ok: true, count: 4 });
    ledger.close();
  });

  it('a reply waits for the COMMIT that holds its row: another connection already sees it', async () => {
    const file = tmpDb();
    const ledger = Ledger.open(file);
    const reader = new Database(file, { readonly: true });
    const seen = burst(ledger, 5).map((p) => p.then((seq) => reader.prepare('SELECT COUNT(*) AS n FROM rolls WHERE guild_seq = ?').get(seq)));
    expect(await Promise.all(seen)).toEqual(Array(5).fill({ n: 1 }));
    reader.close();
    ledger.close();
  });

  it('a COMMIT that fails fails every unit of its batch, and none of their rows is written', async () => {
    const ledger = Ledger.open(tmpDb());
    // A deferred foreign key is checked at COMMIT: the third unit's dangling reference fails the whole batch there.
    ledger.db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
      CREATE TABLE child (p INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)`);
    const all = burst(ledger, 4);
    const dangling = ledger.transaction(async () => ledger.db.prepare('INSERT INTO child (p) VALUES (42)').run());
    const results = await Promise.allSettled([...all, dangling]);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(LedgerWriteError);
    }
    expect(ledger.count('g1')).toBe(0);
    // The next unit starts a fresh transaction.
    await ledger.transaction((tx) => tx.append(ledgerEntry()));
    expect(ledger.verify('g1')).toMatchObject({ ok: true, count: 1 });
    ledger.close();
  });
});

describe('group commit when the database rolls the whole batch back', () => {
  it('every unit done before the failure fails with the database error, and the next batch begins afresh', async () => {
    const calls: string[] = [];
    let open = false;
    const step = (name: string, openAfter: boolean) => () => {
      open = openAfter;
      calls.push(name);
    };
    const sql: BatchSql = {
      begin: step('begin', true),
      commit: step('commit', false),
      rollback: step('rollback', false),
      savepoint: () => calls.push('savepoint'),
      release: () => calls.push('release'),
      rollbackTo: () => calls.push('rollbackTo'),
      inTransaction: () => open,
    };
    const group = new GroupCommit(sql, (e) => new LedgerWriteError(String((e as Error).message)));
    const full = new Error('database or disk is full');
    const a = group.run(async () => 'a');
    const b = group.run(async () => {
      open = false; // what SQLite does on a full disk: the transaction is gone
      throw full;
    });
    const c = group.run(async () => 'c');
    const results = await Promise.allSettled([a, b, c]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      'database or disk is full',
      'database or disk is full',
      'c',
    ]);
    expect(calls).toEqual(['begin', 'savepoint', 'begin', 'commit']);
    expect(group.counts).toEqual({ commits: 1, units: 1 });
  });
});
