import type { Departure } from '../ledger/retention.js';
import type { LedgerStore } from '../ledger/store.js';
import type { Logger } from '../log.js';

/**
 * Retention: a server's data is deleted a while after the bot leaves it. The transports say when
 * the bot leaves or is back (the gateway's events, or HTTP mode's look at the bot's servers:
 * src/discord/guild-presence.ts); GuildPresence records it, and the sweep deletes what is due. No
 * Discord here, and no SQL: the ledger's retention.ts holds that. The clock is injected: tests
 * choose the time, never wait for it.
 */

/** A sweep at start, then this often. */
export const SWEEP_EVERY_MS = 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Departures read at a time. */
const PAGE = 200;

/** The days a left server's data is kept: its own setting, else the host's. */
export const keptDays = (d: Pick<Departure, 'retention_days'>, hostDays: number) => d.retention_days ?? hostDays;

/** When a departure's data is due to be deleted (ms since the epoch). */
export const dueAt = (d: Departure, hostDays: number) => Date.parse(d.left_at) + keptDays(d, hostDays) * DAY_MS;

/** Every recorded departure, a page at a time, oldest first. */
async function* departures(store: LedgerStore): AsyncGenerator<Departure> {
  for (let after = { left_at: '', guild_id: '' }; ; ) {
    const page = await store.retention.departures(after.left_at, after.guild_id, PAGE);
    yield* page;
    if (page.length < PAGE) return;
    after = page[page.length - 1]!;
  }
}

/** Where the bot is: its departures from servers, and its returns, as the ledger keeps them. */
export class GuildPresence {
  constructor(
    private readonly store: LedgerStore,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The bot left this server (removed, or the server deleted): its data is kept for the retention period from now. */
  async left(guildId: string): Promise<void> {
    const at = this.now().toISOString();
    await this.store.transaction((tx) => tx.retention.markLeft(guildId, at), guildId);
    this.log.info('the bot left a server: its data is deleted once the retention period is over', { guild: guildId });
  }

  /** The bot is in this server (again): a departure recorded before now is forgotten. */
  async back(guildId: string, seenAt = this.now().toISOString()): Promise<boolean> {
    const was = await this.store.transaction((tx) => tx.retention.markBack(guildId, seenAt), guildId);
    if (was) this.log.info('the bot is back in a server it had left: its data is kept', { guild: guildId });
    return was;
  }

  /**
   * The servers the bot is in, as Discord listed them at `seenAt`: a server the ledger knows and
   * the list lacks is left now, a left one the list has is back. `mine`: the servers this listing
   * speaks for (a gateway shard sees only its own); the others are left as they are.
   */
  async reconcile(present: ReadonlySet<string>, seenAt: string, mine: (guildId: string) => boolean = () => true): Promise<{ left: number; back: number }> {
    const gone = new Set<string>();
    let back = 0;
    for await (const d of departures(this.store)) {
      gone.add(d.guild_id);
      if (present.has(d.guild_id) && mine(d.guild_id) && (await this.back(d.guild_id, seenAt))) back++;
    }
    let left = 0;
    for (const guildId of await this.store.retention.knownGuilds()) {
      if (present.has(guildId) || gone.has(guildId) || !mine(guildId)) continue;
      await this.left(guildId);
      left++;
    }
    return { left, back };
  }
}

/**
 * Deletes the data of the servers the bot left once their retention period is over: one
 * transaction per server, claimed in the database, so of several processes sweeping at once one
 * deletes each server, once. Sweeps of one process never overlap.
 */
export class RetentionSweeper {
  private running: Promise<number> | undefined;

  constructor(
    private readonly store: LedgerStore,
    /** RETENTION_DAYS: a server's own setting replaces it. */
    private readonly hostDays: number,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Deletes what is due now; resolves with how many servers this process deleted. */
  sweep(): Promise<number> {
    this.running ??= this.deleteDue().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** A sweep now, then every `everyMs` until stopped (the timer never keeps the process alive). */
  start(everyMs = SWEEP_EVERY_MS): { stop(): void } {
    const run = () => {
      this.sweep().catch((err: unknown) => this.log.error('the retention sweep failed', { err }));
    };
    run();
    const timer = setInterval(run, everyMs);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  private async deleteDue(): Promise<number> {
    const now = this.now().getTime();
    const due: Departure[] = [];
    for await (const d of departures(this.store)) if (dueAt(d, this.hostDays) <= now) due.push(d);
    let purged = 0;
    for (const d of due) if (await this.purge(d)) purged++;
    return purged;
  }

  /** One server's data deleted; a failure is logged and left for the next sweep (its transaction undid it all). */
  private async purge(d: Departure): Promise<boolean> {
    try {
      const count = await this.store.purgeGuild(d.guild_id, d.left_at);
      if (!count) return false;
      this.log.info('deleted the data of a server the bot left', { guild: d.guild_id, rows: count.rows, days: keptDays(d, this.hostDays) });
      return true;
    } catch (err) {
      this.log.warn('could not delete the data of a server the bot left: tried again at the next sweep', { guild: d.guild_id, err });
      return false;
    }
  }
}
