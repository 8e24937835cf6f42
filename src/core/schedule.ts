import { createHash } from 'node:crypto';
import type { APIEmbed } from 'discord.js';
import type { GameClock, RollRequest, Schedule } from '../ledger/requests.js';
import type { Game } from '../ledger/roster.js';
import type { LedgerStore } from '../ledger/store.js';
import type { Logger } from '../log.js';
import { userText } from '../render/embed.js';
import { answering, say } from '../i18n/reader.js';
import { drawCard, settledEmbed } from './clock-card.js';
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
  /**
   * Posts in the channel, pinging `mention` alone (when given); returns the message's id. `nonce`
   * names the firing: Discord shows one message for two posts of one nonce, so a retry of a post
   * that did arrive (its answer lost) is not shown twice.
   */
  post(guildId: string, channelId: string, m: { content?: string; embed?: APIEmbed; mention?: string; nonce?: string }): Promise<string>;
  /** Replaces a message the bot posted there by `embed`, its buttons gone; false when the message is gone (deleted). */
  edit(guildId: string, channelId: string, messageId: string, embed: APIEmbed): Promise<boolean>;
};

/** What firing a schedule now comes to: its next due time (null: none), and what to send, if anything. */
type Plan = { next: string | null; send?: (nonce: string) => Promise<void> };

/** How often a bot looks for what is due; a reminder is late by this much at most. */
export const TICK_MS = 15_000;
/** The most schedules one tick fires (the rest wait for the next). */
const BATCH = 50;
/** A firing Discord did not take is tried again after 1, 2, 4 and 8 minutes: five tries in all, then given up. */
export const RETRY_MS = 60_000;
export const MAX_TRIES = 5;

/**
 * Discord's nonce for one firing (at most 25 characters): its retries share it, the next firing
 * does not, nor a schedule set again (a new turn, a request re-planned: its wait begins anew).
 */
const nonceOf = (s: Schedule) =>
  createHash('sha256')
    .update(`${s.id}:${s.since}:${s.fired - s.attempts}`)
    .digest('base64url')
    .slice(0, 25);

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
      await plan.send(nonceOf(s));
      if (s.attempts) await this.ledger.transaction((tx) => tx.requests.delivered(s.id), s.guild_id);
    } catch (err) {
      await this.retry(s, plan.next, now, err);
    }
    return true;
  }

  /**
   * Claimed and not delivered (Discord down, a timeout): due again after a growing wait, as the
   * claim left it; never later than its own next firing, which tries anyway. Given up after MAX_TRIES.
   */
  private async retry(s: Schedule, next: string | null, now: Date, err: unknown): Promise<void> {
    const at = new Date(now.getTime() + RETRY_MS * 2 ** s.attempts).toISOString();
    const sooner = next !== null && next <= at;
    const again = !sooner && (await this.ledger.transaction((tx) => tx.requests.retrySchedule(s.id, next, at, MAX_TRIES - 1), s.guild_id));
    // Not tried again: its tries start from none at the schedule's next firing.
    if (!again) await this.ledger.transaction((tx) => tx.requests.delivered(s.id), s.guild_id);
    const what = again ? 'tried again' : sooner ? 'left to its next firing' : 'given up';
    this.log.warn(`a scheduled message could not be posted: ${what}`, { schedule: s.id, channel: s.channel_id, tries: s.attempts + 1, err });
  }

  private async plan(s: Schedule, now: Date): Promise<Plan> {
    const g = await this.ledger.roster.game(s.guild_id, s.game_id);
    if (!g) return { next: null };
    const c = clockOrNone(g, await this.ledger.requests.clock(g.id));
    // What the bot posts unprompted is said in the language of the server it was set up in.
    const speaking = (locale: string | null, work: () => Promise<void>) => () => answering(locale ?? undefined, work);
    if (s.kind === 'card') return { next: null, send: (nonce) => speaking(c.locale, () => this.redraw(g, c, nonce))() };
    const r = s.kind === 'ask' || s.kind === 'settle' ? await this.ledger.requests.request(s.guild_id, s.id.slice(s.kind.length + 1)) : undefined;
    if (s.kind === 'settle') return { next: null, ...(r && r.state !== 'open' ? { send: speaking(r.locale ?? c.locale, () => this.settle(r)) } : {}) };
    if (g.ended_at) return { next: null };
    if (s.kind === 'ask' && r?.state !== 'open') return { next: null };
    if (s.kind === 'turn' && c.turn_player_id !== s.user_id) return { next: null };
    // In quiet hours nothing is sent: the reminder waits for their end.
    const quiet = quietEnd(now, c);
    if (quiet) return { next: quiet.toISOString() };
    return { next: nextReminder(now, c), send: (nonce) => speaking(r?.locale ?? c.locale, () => this.remind(s, g, r, nonce))() };
  }

  /** A settled request's message shows how it was settled, its button gone (when the bot knows the message). */
  private async settle(r: RollRequest): Promise<void> {
    const links = await this.ledger.history.messages([r.id, ...(r.answer_id ? [r.answer_id] : [])]);
    const messageId = links.get(r.id);
    if (!messageId) return;
    const answer = r.answer_id ? links.get(r.answer_id) : undefined;
    await this.out.edit(r.guild_id, r.channel_id, messageId, settledEmbed(r, answer));
  }

  private async remind(s: Schedule, g: Game, r: RollRequest | undefined, nonce: string): Promise<void> {
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
    await this.out.post(s.guild_id, s.channel_id, { content, mention: player, nonce });
  }

  /** The card edited in place; posted anew (and remembered) when it has none yet, or it was deleted. */
  private async redraw(g: Game, c: GameClock, nonce: string): Promise<void> {
    const embed = await drawCard(this.ledger, g, c);
    if (c.card_message_id && (await this.out.edit(g.guild_id, g.channel_id, c.card_message_id, embed))) return;
    const id = await this.out.post(g.guild_id, g.channel_id, { embed, nonce });
    await this.ledger.transaction(
      (tx) => tx.requests.patchClock({ game_id: g.id, guild_id: g.guild_id, channel_id: g.channel_id, card_message_id: id }),
      g.guild_id,
    );
  }
}
