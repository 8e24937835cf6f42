import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_WAL_BYTES, Checkpointer, WRITER_CHECKPOINT_PAGES } from '../../src/ledger/checkpointer.js';
import { WAL_KEPT_BYTES } from '../../src/ledger/database.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { ledgerEntry } from '../helpers/ledger.js';
import { tmpDb } from '../helpers/tmp.js';

/** Appends one row per transaction until the WAL has taken `bytes` more (it grows by whole frames). */
async function writeWal(ledger: Ledger, file: string, bytes: number): Promise<void> {
  const size = () => fs.statSync(`${file}-wal`).size;
  let written = 0;
  while (written < bytes) {
    const before = size();
    await ledger.transaction((tx) => tx.append(ledgerEntry({ unit: `Unit ${written}` })));
    written += Math.max(0, size() - before) || 4096 * 10;
  }
}

describe('checkpoints in a worker thread', () => {
  it('start once the WAL is busy, then keep it near its size while the writer never checkpoints on its own thread', async () => {
    const file = tmpDb();
    const ledger = Ledger.open(file, { checkpointInWorker: true });
    // An idle ledger has no worker: the writer checkpoints as SQLite does by default.
    expect(ledger.checkpointer!.seen.started).toBe(false);
    expect(ledger.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    // Three times the size in rounds of a quarter. Once the WAL has passed the size, the next round
    // waits for the worker's checkpoint, however long a busy machine makes it (no clock decides).
    for (let round = 0; round < 12; round++) {
      const before = ledger.checkpointer!.seen.checkpoints;
      await writeWal(ledger, file, CHECKPOINT_WAL_BYTES / 4);
      if (ledger.checkpointer!.seen.started && fs.statSync(`${file}-wal`).size > CHECKPOINT_WAL_BYTES)
        await expect.poll(() => ledger.checkpointer!.seen.checkpoints, { timeout: 60_000, interval: 20 }).toBeGreaterThan(before);
    }
    expect(ledger.checkpointer!.seen).toMatchObject({ started: true, error: undefined });
    expect(ledger.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    expect(ledger.checkpointer!.seen.checkpoints).toBeGreaterThanOrEqual(2);
    // Without the worker the WAL would hold all of it (the writer no longer checkpoints).
    expect(fs.statSync(`${file}-wal`).size).toBeLessThan(2 * CHECKPOINT_WAL_BYTES);
    expect(ledger.verify('g1').ok).toBe(true);
    ledger.close();
  });

  it('under writes without a pause, the WAL still starts afresh: the writer catches the worker up, now and then', async () => {
    const file = tmpDb();
    const catchUp = 2 * WAL_KEPT_BYTES;
    const ledger = Ledger.open(file, { checkpointInWorker: true, walCatchUpBytes: catchUp });
    // Commits back to back, the event loop never turning between them (SQLite answers at once):
    // the worker's copy never finds the WAL still, so only the writer's own pass lets it restart.
    const total = 3 * catchUp;
    for (let written = 0; written < total; written += 2 ** 20) await writeWal(ledger, file, 2 ** 20);
    const { seen } = ledger.checkpointer!;
    expect(seen).toMatchObject({ started: true, error: undefined });
    expect(seen.catchUps).toBeGreaterThanOrEqual(1);
    // Each catch-up lets the WAL restart, cut back below the catch-up size: not one at every look.
    expect(seen.catchUps).toBeLessThanOrEqual(total / (catchUp - WAL_KEPT_BYTES) + 1);
    expect(fs.statSync(`${file}-wal`).size).toBeLessThan(catchUp + WAL_KEPT_BYTES);
    expect(ledger.verify('g1').ok).toBe(true);
    ledger.close();
  });

  it("the writer's catch-up never throws into the COMMIT it follows, and waits longer after each pass that could not finish", () => {
    // A ledger whose WAL is past the size, while the worker runs: its checkpoint fails (a full disk), then cannot finish (a reader).
    const file = tmpDb();
    fs.writeFileSync(`${file}-wal`, Buffer.alloc(4096));
    let calls = 0;
    let answer: () => unknown = () => {
      throw new Error('SQLITE_FULL: database or disk is full');
    };
    const pragma = () => {
      calls++;
      return answer();
    };
    const db = { name: file, pragma } as unknown as ConstructorParameters<typeof Checkpointer>[0];
    const checkpointer = new Checkpointer(db, 1024);
    Object.assign(checkpointer.seen, { started: true });
    const commits = (n: number) => {
      for (let i = 0; i < n; i++) checkpointer.committed();
    };
    expect(() => commits(64)).not.toThrow();
    expect(checkpointer.seen.error).toMatch(/disk is full/);
    expect(calls).toBe(1);
    // Passes that cannot finish: the next after 1 look, then 2, 4, … (a look is 64 commits), not at every look.
    answer = () => [{ busy: 0, log: 100, checkpointed: 40 }];
    commits(64 * 64);
    expect(calls).toBeGreaterThan(1);
    expect(calls).toBeLessThanOrEqual(8);
    expect(checkpointer.seen.catchUps).toBe(0);
    // One that finishes is counted, and the waits start again from none.
    answer = () => [{ busy: 0, log: 100, checkpointed: 100 }];
    commits(64 * 128);
    expect(checkpointer.seen.catchUps).toBeGreaterThanOrEqual(1);
  });

  it('a worker that ends hands the checkpoints back to the writer', async () => {
    const file = tmpDb();
    const ledger = Ledger.open(file, { checkpointInWorker: true });
    while (!ledger.checkpointer!.seen.started) await writeWal(ledger, file, CHECKPOINT_WAL_BYTES / 4);
    expect(ledger.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    // As if it crashed: the writer's own checkpoint comes back at SQLite's default.
    await (ledger.checkpointer as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await expect.poll(() => ledger.checkpointer!.seen.ended, { timeout: 10_000 }).toBe(true);
    expect(ledger.db.pragma('wal_autocheckpoint', { simple: true })).toBe(WRITER_CHECKPOINT_PAGES);
    ledger.close();
  });

  it('is off unless asked for: the writer checkpoints as SQLite does by default', () => {
    const ledger = Ledger.open(tmpDb());
    expect(ledger.checkpointer).toBeUndefined();
    expect(ledger.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    ledger.close();
  });
});
