import type { Worker } from 'node:worker_threads';
import { besideModule, startWorker } from '../util/worker.js';
import type { Db } from './database.js';

/** The WAL size past which the worker checkpoints: SQLite's own default (1,000 pages of 4 KiB). */
export const CHECKPOINT_WAL_BYTES = 4_096_000;
export const CHECKPOINT_EVERY_MS = 100;
/** The writer's own automatic checkpoint stays as a backstop (a worker that died), at ten times the worker's size. */
export const BACKSTOP_PAGES = 10_000;

/**
 * Checkpoints in a worker thread (issue 29): SQLite's automatic checkpoint runs inside the COMMIT
 * that crosses 1,000 WAL pages, so that roll paid the copy and two fsyncs on the thread every
 * server waits on — a tenth of a roll's time on average, and its worst case. The writer keeps its
 * own checkpoint at ten times the size as a backstop.
 */
export class Checkpointer {
  private readonly worker: Worker;
  /** Checkpoints the worker made, and its last failure (for the tests and a health check). */
  readonly seen = { checkpoints: 0, error: undefined as string | undefined };

  constructor(db: Db) {
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    this.worker = startWorker(besideModule(import.meta.url, 'checkpoint-worker'), {
      file: db.name,
      walBytes: CHECKPOINT_WAL_BYTES,
      everyMs: CHECKPOINT_EVERY_MS,
    });
    this.worker.on('message', (m: { checkpoint?: unknown; error?: string }) => {
      if (m.error) this.seen.error = m.error;
      else this.seen.checkpoints++;
    });
    this.worker.on('error', (err) => {
      this.seen.error = err.message;
    });
    // The process may end without closing the ledger: the worker does not keep it alive.
    this.worker.unref();
  }

  /** Asks the worker to close its connection and end (before the writer closes the file). */
  stop(): void {
    this.worker.postMessage('stop');
  }
}
