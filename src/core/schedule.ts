import type { APIEmbed } from 'discord.js';
import type { GameClock, RollRequest, Schedule } from '../ledger/requests.js';
import type { Game } from '../ledger/roster.js';
import type { LedgerStore } from '../ledger/store.js';
import type { Logger } from '../log.js';
import { userText } from '../render/embed.js';
import { say } from '../i18n/reader.js';
import { drawCard } from './clock-card.js';
import { clockOrNone, nextReminder, quietEnd } from './clock.js';

/**
 * What is due, fired: reminders to whoever the game waits for, and status cards redrawn. Every
 * process of a bot may run a Scheduler on one database; each due schedule is claimed by one
 * conditional update that moves its due time on from the value read (requests.ts), so exactly one
 * process fires it, once, and a restart finds it already moved. The clock is injected: tests
 * drive `tick` with the time they choose, never by waiting.
 */

/** How the bot speaks outside an interaction: a post in a channel of the server, and an edit of one it made. */
export type ClockPost = {
  /** Posts in the channel, pinging `mention` alone (when given); returns the message's id. */
  post(guildId: string, channelId: string, m: { content?: string; embed?: APIEmbed; mention?: string }): Promise<string>;
  /** Edits a message the bot posted there; false when the message is gone (deleted), so a new one is posted. */
  edit(guildId: string, channelId: string, messageId: string, embed: APIEmbed): Promise<boolean>;
};

/** What firing a schedule now comes to: its next due time (null: none), and what to send, if anything. */
type Plan = { next: string | null; send?: () => Promise<void> };

/** How often a bot looks for what is due; a reminder is late by this much at most. */
export const TICK_MS = 15_000;
/** The most schedules one tick fires (the rest wait for the next). */
const BATCH = 50;

const relative = (iso: string) => `<t:${Math.floor(Date.parse(iso) / 1000)}:R>`;

export class Scheduler {
  private readonly now: () => Date;
  private running: Promise<number> | undefined;

  constructor(
    private readonly ledger: LedgerStore,
    private readonly out: ClockPost,
    private readonly log: Logger,
    now?: () => Date,
  ) {
    this.now = now ?? (() => new Date());
  }

  /** Fires what is due now; resolves with how many this process fired. Ticks never overlap. */
  tick(): Promise<number> {
    this.running ??= this.fireDue().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Ticks every `everyMs` until stopped (the timer never keeps the process alive). */
  start(everyMs = TICK_MS): { stop(): void } {
    const timer = setInterval(() => {
      this.tick().catch((err: unknown) => this.log.error('the scheduler could not fire what is due', { err }));
    }, everyMs);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  private async fireDue(): Promise<number> {
    const now = this.now();
    let fired = 0;
    for (const s of await this.ledger.requests.dueSchedules(now.toISOString(), BATCH)) if (await this.fire(s, now)) fired++;
    return fired;
  }

  /** Claims the schedule as read and, when this process won it and something is to be sent, sends it. */
  private async fire(s: Schedule, now: Date): Promise<boolean> {
    const plan = await this.plan(s, now);
    const at = now.toISOString();
    const won = await this.ledger.transaction((tx) => tx.requests.claimSchedule(s.id, s.due_at!, plan.next, plan.send ? at : null), s.guild_id);
    if (!won || !plan.send) return false;
    try {
      await plan.send();
    } catch (err) {
      // Claimed and not delivered: a reminder is missed rather than sent twice.
      this.log.warn('a scheduled message could not be posted', { schedule: s.id, channel: s.channel_id, err });
    }
    return true;
  }

  private async plan(s: Schedule, now: Date): Promise<Plan> {
    const g = await this.ledger.roster.game(s.guild_id, s.game_id);
    if (!g) return { next: null };
    const c = clockOrNone(g, await this.ledger.requests.clock(g.id));
    if (s.kind === 'card') return { next: null, send: () => this.redraw(g, c) };
    if (g.ended_at) return { next: null };
    const r = s.kind === 'ask' ? await this.ledger.requests.request(s.guild_id, s.id.slice('ask:'.length)) : undefined;
    if (s.kind === 'ask' && r?.state !== 'open') return { next: null };
    if (s.kind === 'turn' && c.turn_player_id !== s.user_id) return { next: null };
    // In quiet hours nothing is sent: the reminder waits for their end.
    const quiet = quietEnd(now, c);
    if (quiet) return { next: quiet.toISOString() };
    return { next: nextReminder(now, c), send: () => this.remind(s, g, r) };
  }

  private async remind(s: Schedule, g: Game, r: RollRequest | undefined): Promise<void> {
    const player = s.user_id!;
    const content = r
      ? say('clock.remindAsk', {
          player,
          game: userText(g.name),
          roll: `\`/${r.roll.trim().replaceAll('`', "'")}\``,
          asker: r.asker_id,
          since: relative(r.created_at),
        })
      : say('clock.remindTurn', { player, game: userText(g.name), since: relative(s.since) });
    await this.out.post(s.guild_id, s.channel_id, { content, mention: player });
  }

  /** The card edited in place; posted anew (and remembered) when it has none yet, or it was deleted. */
  private async redraw(g: Game, c: GameClock): Promise<void> {
    const embed = await drawCard(this.ledger, g, c);
    if (c.card_message_id && (await this.out.edit(g.guild_id, g.channel_id, c.card_message_id, embed))) return;
    const id = await this.out.post(g.guild_id, g.channel_id, { embed });
    await this.ledger.transaction(
      (tx) => tx.requests.patchClock({ game_id: g.id, guild_id: g.guild_id, channel_id: g.channel_id, card_message_id: id }),
      g.guild_id,
    );
  }
}
