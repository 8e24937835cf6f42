/**
 * Work that can wait, run when the bot is not busy answering: over HTTP, fetching the message a
 * reply became (for /history's links) costs about as much CPU as the roll itself, and when a whole
 * tournament rolls at once it would delay the answers still waiting. Queued work starts, a few at a
 * time, once `busy()` says no first answer is pending, and in any case after `maxWaitMs`, so a
 * server never quiet still gets its links (an interaction's token lasts 15 minutes).
 */
export class WhenQuiet {
  private readonly queue: { start: () => void; since: number }[] = [];
  private running = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly busy: () => boolean,
    private readonly o: { concurrency?: number; maxWaitMs?: number; checkMs?: number } = {},
  ) {}

  /** Runs `work` when quiet; resolves or rejects as it does. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await new Promise<void>((start) => {
      this.queue.push({ start, since: Date.now() });
      this.pump();
    });
    try {
      return await work();
    } finally {
      this.running--;
      this.pump();
    }
  }

  /** Starts what may start now; call it when the bot may have become quiet. */
  pump(): void {
    const limit = this.o.concurrency ?? 4;
    const overdue = () => Date.now() - this.queue[0]!.since >= (this.o.maxWaitMs ?? 2_000);
    while (this.queue.length && this.running < limit && (!this.busy() || overdue())) {
      this.running++;
      this.queue.shift()!.start();
    }
    // Checked again on a timer too: work waiting on a busy bot becomes overdue with no event to say so.
    if (this.queue.length && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, this.o.checkMs ?? 100);
    }
  }

  /** Work queued or running. */
  get size(): number {
    return this.queue.length + this.running;
  }
}
