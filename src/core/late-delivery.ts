import type { APIEmbed } from 'discord.js';
import type { LedgerRow } from '../ledger/rows.js';
import type { LedgerStore } from '../ledger/store.js';
import type { Logger } from '../log.js';
import { discordTime } from '../render/embed.js';
import { isSealed } from '../render/review.js';
import type { Button } from '../render/embed.js';
import type { Router } from './router.js';
import { say } from '../i18n/reader.js';
import { command } from '../i18n/said.js';

/**
 * No ghost rolls: a roll is committed before its reply, so a process that stops between
 * the two leaves a roll on record that its channel never saw. When the bot comes back it looks for
 * such rolls (no message showed them, none was delivered late) and posts each to its channel,
 * naming its roller and when it was rolled; one it cannot post is marked, and /history says so.
 * Each late delivery is claimed in the ledger first, so of several processes one posts it.
 */

/** A message for a channel of a server: its id, once posted (the Discord layer checks the channel is the server's). */
export type ChannelPost = (guildId: string, channelId: string, message: LateMessage) => Promise<string>;
export type LateMessage = { content: string; embed: APIEmbed; buttons: Button[]; mention: string };

/** How far back the look reaches: past a day a late result helps no one at the table. */
export const LATE_LOOKBACK_MS = 24 * 60 * 60 * 1000;
/** The rolls taken in one look (a crash leaves a handful). */
const LATE_BATCH = 500;

/**
 * The post for a roll that never reached its channel; a sealed one stays sealed. Outside a request
 * it reads English: the row keeps no locale (a client setting is no part of the record).
 */
export async function lateMessage(router: Pick<Router, 'renderStored'>, row: LedgerRow): Promise<LateMessage> {
  const when = discordTime(row.created_at);
  const head = say('late.head', { user: row.user_id, command: row.command, when });
  if (isSealed(row)) {
    const embed = { title: say('late.sealedTitle', { id: row.id }), description: say('late.sealed', { user: row.user_id, reveal: command('reveal') }) };
    return { content: head, embed, buttons: [], mention: row.user_id };
  }
  const shown = await router.renderStored(row).catch(() => undefined);
  const result = say('late.result', { result: row.result ?? '—', show: command('roll show'), id: row.id });
  const embed = shown?.embed ?? { title: say('late.rollTitle', { id: row.id }), description: result };
  return { content: say('late.here', { head }), embed, buttons: shown?.buttons ?? [], mention: row.user_id };
}

/** Why a post failed, in a line /history can show (Discord's own reason, without any address). */
const reasonOf = (err: unknown) => `not delivered: ${String((err as Error)?.message ?? err).slice(0, 160)}`;

/**
 * Posts every roll committed in the last day, more than `inFlightMs` ago, that no message showed.
 * `inFlightMs` leaves alone the rolls another process is answering right now.
 */
export async function deliverUnshownRolls(
  d: { store: LedgerStore; router: Pick<Router, 'renderStored'>; post: ChannelPost; log: Logger },
  now: number,
  inFlightMs: number,
): Promise<{ posted: number; undelivered: number }> {
  const rows = await d.store.history.unshownRolls(new Date(now - LATE_LOOKBACK_MS).toISOString(), new Date(now - inFlightMs).toISOString(), LATE_BATCH);
  const done = { posted: 0, undelivered: 0 };
  for (const row of rows) {
    const mine = await d.store.transaction((tx) => tx.history.claimDelivery(row.id, tx.timestamp()), row.guild_id);
    if (!mine) continue;
    let outcome = 'posted';
    let messageId: string | undefined;
    try {
      messageId = await d.post(row.guild_id, row.channel_id, await lateMessage(d.router, row));
      done.posted++;
    } catch (err) {
      outcome = reasonOf(err);
      done.undelivered++;
      d.log.warn('a roll that never reached its channel could not be posted', { roll: row.id, guild: row.guild_id, channel: row.channel_id, err });
    }
    await d.store.transaction(async (tx) => {
      await tx.history.settleDelivery(row.id, outcome);
      if (messageId) await tx.history.linkMessage(row.id, messageId);
    }, row.guild_id);
  }
  if (rows.length) d.log.info('rolls that never reached their channel, delivered late', done);
  return done;
}
