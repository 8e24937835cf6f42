import type { Worker } from 'node:worker_threads';
import { besideModule, startWorker } from '../util/worker.js';
import { walBytes, type Db } from './database.js';

/** The WAL size past which the worker checkpoints: SQLite's own default (1,000 pages of 4 KiB). */
export const CHECKPOINT_WAL_BYTES = 4_096_000;
export const CHECKPOINT_EVERY_MS = 100;
/** SQLite's own automatic checkpoint (pages): the writer's while no worker runs, and again if the worker ends. */
export const WRITER_CHECKPOINT_PAGES = 1_000;
/** Commits between two looks at the WAL's size. */
const LOOK_EVERY = 64;
/**
 * The WAL's size past which the writer checkpoints once itself while the worker runs. The worker's
 * checkpoint never ends with the WAL wholly copied while the writer commits without a pause (a
 * copy of 30 MB takes longer than the next COMMIT is away), and only a WAL wholly copied starts
 * afresh: sustained, it grew by every row (1.8 GB over 20,000 rolls in a row), and the page cache's
 * writeback of it slowed every COMMIT twofold. The writer's own pass copies what the worker has not
 * yet (4 ms at the median and 30 ms in the bench's sustained run; 130 ms once on a loaded machine), and the next transaction
 * starts the WAL afresh, cut back to `journal_size_limit` (database.ts).
 */
export const CATCH_UP_WAL_BYTES = 64 * 2 ** 20;
/** Looks a catch-up that did not finish waits at most before the next. */
const MAX_CATCH_UP_WAIT = 64;

/**
 * Checkpoints in a worker thread: SQLite's automatic checkpoint runs inside the COMMIT
 * that crosses 1,000 WAL pages, so that roll paid the copy and two fsyncs on the thread every
 * server waits on. The worker starts when the WAL first reaches that size (a ledger that is
 * written to; an idle bot keeps its memory); while it runs the writer never checkpoints, and if it
 * ends the writer takes its checkpoints back. A backstop that stayed on while the worker ran cost
 * the most where it mattered: a long read (a GM's /export or /verify of a million rows) keeps the
 * WAL from starting afresh, the WAL passed the backstop, and every COMMIT then ran a checkpoint on
 * the serving thread (loop stalls of 230–335 ms in the bench's stall line).
 */
export class Checkpointer {
  private worker: Worker | undefined;
  /** Started once: a worker that could not start is not tried again. */
  private tried = false;
  private commits = 0;
  /** Looks to skip before the writer's next catch-up, and the last such wait (doubled after each pass that did not finish). */
  private waitLooks = 0;
  private backoff = 0;
  /** Checkpoints the worker made, the writer's catch-ups, and the worker's last failure (for the tests and a health check). */
  readonly seen = { started: false, ended: false, checkpoints: 0, catchUps: 0, error: undefined as string | undefined };

  constructor(
    private readonly db: Db,
    private readonly catchUpBytes = CATCH_UP_WAL_BYTES,
  ) {}

  /** After each COMMIT: now and then, whether the WAL has grown enough for the worker to take over, or for the writer to catch it up. */
  committed(): void {
    if (++this.commits % LOOK_EVERY !== 0) return;
    if (this.seen.started && !this.seen.ended) {
      this.catchUp();
      return;
    }
    if (this.tried) return;
    try {
      if (walBytes(this.db.name) >= CHECKPOINT_WAL_BYTES) this.start();
    } catch (err) {
      // No worker (threads refused): the writer's own checkpoint goes on at SQLite's default.
      this.seen.error = (err as Error).message;
    }
  }

  /**
   * The writer's own checkpoint, when the WAL has passed its size. A pass that could not copy it all
   * (a reader's snapshot still needs it, or the worker held the checkpoint) waits twice as many looks
   * before the next, up to 64 (4,096 commits): readers that keep the WAL from restarting do not
   * make every 64th COMMIT copy and sync on the serving thread. A failure (a full disk) is noted, as
   * the worker's are, and never reaches the COMMIT it follows.
   */
  private catchUp(): void {
    if (this.waitLooks > 0) {
      this.waitLooks--;
      return;
    }
    try {
      if (walBytes(this.db.name) < this.catchUpBytes) return;
      const [done] = this.db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
      if (done && !done.busy && done.log === done.checkpointed) {
        this.seen.catchUps++;
        this.backoff = 0;
        return;
      }
    } catch (err) {
      this.seen.error = (err as Error).message;
    }
    this.backoff = Math.min(Math.max(1, this.backoff * 2), MAX_CATCH_UP_WAIT);
    this.waitLooks = this.backoff;
  }

  private start(): void {
    this.tried = true;
    this.worker = startWorker(besideModule(import.meta.url, 'checkpoint-worker'), {
      file: this.db.name,
      maxWalBytes: CHECKPOINT_WAL_BYTES,
      everyMs: CHECKPOINT_EVERY_MS,
    });
    // Only once the worker runs does the writer stop checkpointing on its own thread.
    this.db.pragma('wal_autocheckpoint = 0');
    this.seen.started = true;
    this.worker.on('message', (m: { checkpoint?: unknown; error?: string }) => {
      if (m.error) this.seen.error = m.error;
      else this.seen.checkpoints++;
    });
    this.worker.on('error', (err) => {
      this.seen.error = err.message;
    });
    // A worker that ends (crashed, or stopped at close) hands the checkpoints back to the writer.
    this.worker.on('exit', () => {
      if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`);
      this.seen.ended = true;
    });
    // The process may end without closing the ledger: the worker does not keep it alive.
    this.worker.unref();
  }

  /** Asks the worker to close its connection and end (before the writer closes the file). */
  stop(): void {
    this.worker?.postMessage('stop');
  }
}
