import { yieldToEventLoop } from '../util/yield.js';

/** The statements a batch needs, prepared once by the backend (SQLite: better-sqlite3 statements). */
export type BatchSql = {
  begin(): void;
  commit(): void;
  rollback(): void;
  savepoint(): void;
  release(): void;
  rollbackTo(): void;
  inTransaction(): boolean;
};

type Unit = { work: () => Promise<unknown>; resolve: (v: unknown) => void; reject: (e: unknown) => void };
type Done = { unit: Unit; result: unknown };

/**
 * Units of work in one batch at most: bounds the wait of the first reply behind the others' work,
 * and how long the event loop waits for its turn between batches. 200 beacon results at once ran
 * in batches of 64 (~60 ms each), and a reply's HTTP request took a batch to connect; a COMMIT
 * shared by 16 costs each unit a few microseconds more.
 */
export const MAX_BATCH = 16;

/**
 * Group commit: units of work that queue while one runs share its transaction and its one COMMIT.
 * Each unit runs alone (one after another, so no two interleave between awaits), inside a
 * savepoint from the second on, so a unit that fails is undone alone and its caller hears at once;
 * the others' promises settle only after the COMMIT that holds their rows, so no reply announces a
 * row that a crash could still lose. A COMMIT that fails fails every unit of its batch.
 */
export class GroupCommit {
  private readonly pending: Unit[] = [];
  private running = false;
  /** COMMITs that succeeded, and the units they held: rows per commit, for the bench and the tests. */
  readonly counts = { commits: 0, units: 0 };

  constructor(
    private readonly sql: BatchSql,
    private readonly asWriteError: (err: unknown) => unknown,
    /** Told after each COMMIT that succeeded (the checkpointer looks at the WAL). */
    private readonly afterCommit: () => void = () => undefined,
    private readonly maxBatch = MAX_BATCH,
  ) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (v: unknown) => void, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      while (this.pending.length) {
        await this.batch();
        // The batches of a long queue are all promise work: without a turn of the event loop between
        // them no socket is written, and the replies of every batch but the last wait for the last.
        if (this.pending.length) await yieldToEventLoop();
      }
    } finally {
      this.running = false;
    }
  }

  private async batch(): Promise<void> {
    try {
      this.sql.begin();
    } catch (err) {
      this.pending.shift()?.reject(this.asWriteError(err));
      return;
    }
    const done: Done[] = [];
    while (this.pending.length && done.length < this.maxBatch) {
      const unit = this.pending.shift()!;
      // The first unit needs no savepoint: alone in the transaction, a failure rolls all of it back.
      const alone = done.length === 0;
      if (!alone) this.sql.savepoint();
      try {
        const result = await unit.work();
        if (!alone) this.sql.release();
        done.push({ unit, result });
      } catch (err) {
        unit.reject(this.asWriteError(err));
        if (this.undo(alone, done, err)) return;
      }
    }
    this.commit(done);
  }

  /**
   * Undoes a failed unit's writes. True when the batch is over: the unit was alone in it, or SQLite
   * had already rolled the whole transaction back (a full disk, an I/O error), and the others fail too.
   */
  private undo(alone: boolean, done: Done[], err: unknown): boolean {
    if (alone || !this.sql.inTransaction()) {
      if (this.sql.inTransaction()) this.sql.rollback();
      this.failAll(done, err);
      return true;
    }
    this.sql.rollbackTo();
    this.sql.release();
    return false;
  }

  private commit(done: Done[]): void {
    try {
      this.sql.commit();
    } catch (err) {
      if (this.sql.inTransaction()) this.sql.rollback();
      this.failAll(done, err);
      return;
    }
    this.counts.commits++;
    this.counts.units += done.length;
    for (const d of done) d.unit.resolve(d.result);
    this.afterCommit();
  }

  private failAll(done: Done[], err: unknown): void {
    const failure = this.asWriteError(err);
    for (const d of done.splice(0)) d.unit.reject(failure);
  }
}
