import type { APIEmbed } from 'discord.js';
import type { LedgerRow } from '../ledger/rows.js';
import { noticeEmbed, userText } from '../render/embed.js';
import type { AnySystemId, Outcome } from '../rules/types.js';
import type { Context, RecordSummary, Reply } from './command.js';
import type { Button } from '../render/embed.js';
import { gameNote, type Scope } from './games.js';
import { gameOptionsOf } from '../ledger/roster.js';
import { commandShown, say } from '../i18n/reader.js';
import { command } from '../i18n/said.js';

/** Building the replies commands give: results, sealed notices, plain messages and errors. */

/** What a dice roll (/dr, /roll dice: an outcome that declares its tally) adds to its summary. */
function diceSummary(row: LedgerRow, outcome: Outcome): Partial<RecordSummary> {
  const o = outcome as Outcome & { tally?: { total: number }; category?: string; final?: number; notes?: string[] };
  if (!o.tally) return {};
  return { dice: row.dice, category: o.category ?? null, original: o.tally.total, final: o.final ?? o.tally.total, notes: o.notes ?? [] };
}

export function summarise(row: LedgerRow, outcome: Outcome): RecordSummary {
  return {
    command: row.command,
    system: row.system,
    roll_id: row.id,
    ...(row.parent_id ? { parent_roll_id: row.parent_id } : {}),
    steps: outcome.steps,
    result: outcome.result,
    ...diceSummary(row, outcome),
  };
}

/** The embed with the game note said under it, when the channel's game is of another system. */
export function noted(scope: Pick<Scope, 'channelGame'>, system: string | null, embed: APIEmbed): APIEmbed {
  const note = system ? gameNote(scope, system as AnySystemId) : undefined;
  return note ? { ...embed, description: [embed.description, `*${note}*`].filter(Boolean).join('\n') } : embed;
}

/** A tournament game's result offers the opponent an Acknowledge (commands/review/acknowledge.ts). */
function acknowledgeButton(found: { row: LedgerRow; scope?: Pick<Scope, 'channelGame'> }): Button[] {
  const g = found.scope?.channelGame;
  if (!g || found.row.game_id !== g.id || gameOptionsOf(g).fair !== 'tournament') return [];
  return [{ custom_id: `v1:ack:${found.row.id}`, label: say('reply.acknowledge'), style: 'secondary' }];
}

/** A public result message for a recorded outcome, with its JSON summary. */
export function resultMessage(found: { row: LedgerRow; outcome: Outcome; scope?: Pick<Scope, 'channelGame'> }, embed: APIEmbed, buttons: Button[] = []): Reply {
  return { type: 'message', ephemeral: false, embed, buttons: [...buttons, ...acknowledgeButton(found)], record: summarise(found.row, found.outcome) };
}

/**
 * The reply to a roll that may be sealed. A sealed roll is in the ledger like any other, but the
 * channel sees only that it happened: the result goes to the roller if a GM, and to the GMs'
 * channel; /reveal publishes it later.
 */
export async function rollMessage(
  ctx: Context,
  sealed: boolean | undefined,
  found: { row: LedgerRow; outcome: Outcome; scope: Pick<Scope, 'channelGame'> },
  shown: APIEmbed,
  buttons: Button[] = [],
): Promise<Reply> {
  const embed = noted(found.scope, found.row.system, shown);
  if (!sealed) return resultMessage(found, embed, buttons);
  const { row } = found;
  const gmChannel = (await ctx.settings()).gm_channel_id;
  const shownToYou = ctx.actor.isGm ? say('reply.sealedShownToYou') : '';
  const body = say('reply.sealedBody', { id: row.id, user: row.user_id, hash: row.hash.slice(0, 8), reveal: command('reveal') });
  // Whether the GMs' channel got it is known only once the post is tried: the transport posts
  // first and ends the reply with `sent` or `failed`.
  const notify = gmChannel
    ? {
        channelId: gmChannel,
        embed,
        sent: say('reply.sealedSent', { gm: ctx.actor.isGm ? 'yes' : 'no', channel: gmChannel }),
        failed: say('reply.sealedFailed', { shown: shownToYou, channel: gmChannel, id: row.id, show: command('roll show') }),
      }
    : undefined;
  const unposted = gmChannel ? '' : shownToYou || say('reply.sealedNoGmChannel', { gmChannel: command('config gm-channel'), show: command('roll show') });
  return {
    type: 'message',
    ephemeral: false,
    embed: noticeEmbed(say('reply.sealedTitle', { command: commandShown(row.command), unit: row.unit ? ` · ${userText(row.unit)}` : '' }), body + unposted),
    buttons: [],
    record: { command: row.command, system: row.system, roll_id: row.id, sealed: true, steps: [], result: null },
    // The rules' choices (re-roll, refuse hardening) are offered with the reveal, when the result is public.
    ...(ctx.actor.isGm ? { private: { embed, buttons: [] } } : {}),
    ...(notify ? { notify } : {}),
  };
}

/**
 * The reply once its post to another channel was tried: the post's outcome is said in the reply's
 * last sentence, and nothing is left to post.
 */
export function afterNotify<R extends Reply>(reply: R, posted: boolean): R {
  const r: Reply = reply;
  if (r.type !== 'message' || !r.notify) return reply;
  const { notify, ...rest } = r;
  const description = `${rest.embed.description ?? ''}${posted ? notify.sent : notify.failed}`;
  return { ...rest, embed: { ...rest.embed, description } } as R;
}

/** A message that records nothing of its own (status, rosters, notices). */
export const message = (embed: APIEmbed, ephemeral = false, buttons: Button[] = []): Reply => ({ type: 'message', ephemeral, embed, buttons });

export const errorReply = (message: string): Reply => ({ type: 'error', message });
