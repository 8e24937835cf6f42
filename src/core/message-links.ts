import type { LedgerStore } from '../ledger/store.js';
import type { Logger } from '../log.js';

/**
 * Remembers which chat message showed a roll (for links in /history). Links are metadata beside the
 * chain, written in small batches off the reply's path (one commit for many); every transport
 * flushes what is pending when it shuts down.
 */
export class MessageLinks {
  private pending: [string, string][] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ledger: Pick<LedgerStore, 'transaction'>,
    private readonly log: Logger,
    private readonly batchMs = 50,
  ) {}

  shown(rollId: string, messageId: string): void {
    this.pending.push([rollId, messageId]);
    this.timer ??= setTimeout(() => void this.flush(), this.batchMs);
  }

  /** Writes what is pending in one transaction; resolves when written (or logged as failed). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const links = this.pending.splice(0);
    if (!links.length) return;
    try {
      await this.ledger.transaction(async (tx) => {
        for (const [rollId, messageId] of links) await tx.history.linkMessage(rollId, messageId);
      });
    } catch (err) {
      this.log.warn('could not link rolls to their messages', { count: links.length, err });
    }
  }
}
