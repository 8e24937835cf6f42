import type { APIEmbed } from 'discord.js';
import type { LedgerRow } from '../ledger/rows.js';
import { discordTime, limitEmbed, modifierLine, number, outcomeName, resultName, TONE_COLOUR, userText } from './embed.js';
import { commandShown, say } from '../i18n/reader.js';
import { command } from '../i18n/said.js';

export const HISTORY_PAGE = 10;

export const messageLink = (row: { guild_id: string; channel_id: string }, messageId: string | undefined) =>
  messageId && /^\d+$/.test(row.guild_id) ? `https://discord.com/channels/${row.guild_id}/${row.channel_id}/${messageId}` : undefined;

/** The kinds of row a player meets among a roll's linked rows, in words. */
const rowKinds = (): Record<string, string> => ({ reroll: say('review.reroll') });

/** A roll made with `sealed:true`: its result shows to GMs, and to everyone once revealed. */
export const isSealed = (row: LedgerRow) => Boolean((row.input as { sealed?: boolean } | null)?.sealed);

/**
 * One history line: time, who, command, unit, result, message link, roll id; voided rolls struck
 * through; a roll the bot could not post after it stopped before its reply marked.
 */
export function historyLine(
  row: LedgerRow,
  extra: { voidReason?: string | undefined; messageId?: string | undefined; undelivered?: string | undefined; hidden: boolean },
): string {
  const result = extra.hidden ? say('review.sealed') : row.result ? outcomeName(row.outcome, row.result) : '—';
  const link = messageLink(row, extra.messageId);
  const missed = extra.undelivered ? ` · ${say('review.neverShown', { why: userText(extra.undelivered) })}` : '';
  // Who rolled, by mention: a display name alone can be copied by another member (Discord shows the mention as the member's name, and it cannot be faked).
  const body = `${discordTime(row.created_at)} <@${row.user_id}> ${commandShown(row.command)}${row.unit ? ` · ${userText(row.unit)}` : ''} · **${result}**${link ? ` · [${say('review.message')}](${link})` : ''}${missed} · \`${row.id}\``;
  if (extra.voidReason === undefined) return body;
  return `~~${body}~~ *${say('review.void', { reason: extra.voidReason ? userText(extra.voidReason) : say('review.noReason') })}*`;
}

/** `capped`: more rows match than were counted; the footer says how to reach older ones. */
export function historyEmbed(title: string, lines: string[], page: number, pages: number, total: number, scope: string, capped = false): APIEmbed {
  const count = capped ? say('review.capped', { n: total }) : say('review.rolls', { n: total });
  return limitEmbed({
    title,
    color: TONE_COLOUR.neutral,
    description: lines.length ? lines.join('\n') : say('review.noRolls'),
    footer: { text: say('review.footer', { scope, page: String(page + 1), pages: String(Math.max(1, pages)), count }) },
  });
}

type AnyStep = {
  kind: string;
  label?: string;
  result?: string;
  dice?: number[];
  original?: number;
  modifiers?: { reason: string; value: number }[];
  final?: number;
  ref?: string;
};

/** The game, turn and phase a roll was made in, as the detail's first field ends. */
function gameOf(row: LedgerRow): string {
  if (!row.game_id) return '';
  const turn = row.turn != null ? say('review.turn', { turn: String(row.turn) }) : '';
  return `${say('review.inGame', { id: row.game_id, turn })}${row.phase ? ` ${userText(row.phase)}` : ''}`;
}

/** A row linked to a roll (a re-roll, a void, a note): its kind, result, who, and why. */
function linkedLine(r: LedgerRow): string {
  const input = r.input as { reason?: string; note?: string };
  const why = `${input.reason ? `: ${userText(input.reason)}` : ''}${input.note ? `: ${userText(input.note)}` : ''}`;
  const result = r.result ? ` · ${outcomeName(r.outcome, r.result)}` : '';
  return say('review.linkedRow', { id: r.id, kind: resultName(r.kind, rowKinds()), result, user: r.user_id, why });
}

/** One roll in full: input, dice, every step with its modifiers, result, relatives and hash. */
export function rollDetailEmbed(row: LedgerRow, related: LedgerRow[], messageId: string | undefined, hidden: boolean, typed: string): APIEmbed {
  const outcome = row.outcome as { steps?: AnyStep[]; odds?: { exactly: string; or_better: string } };
  const fields = [
    {
      name: say('review.whoWhere'),
      value: `${userText(row.user_name)} (<@${row.user_id}>) · <#${row.channel_id}> · ${discordTime(row.created_at)}${gameOf(row)}`,
      inline: false,
    },
    // As it was typed, which wraps on a phone; the whole input (a beacon's round, Discord's digest) is in /export.
    { name: say('review.input'), value: `\`${typed.replaceAll('`', "'")}\``, inline: false },
  ];
  if (hidden) {
    fields.push({ name: say('fieldResult'), value: say('review.sealedHidden'), inline: false });
  } else {
    fields.push({ name: say('fieldDice'), value: row.dice.length ? row.dice.join(' ') : say('review.noDice'), inline: true });
    for (const s of outcome.steps ?? []) {
      const mods = (s.modifiers ?? []).map(modifierLine).join('\n');
      const original = say('diceToOriginal', { dice: s.dice?.join(' ') ?? '', original: number(s.original ?? 0) }).replaceAll('**', '');
      const roll = s.dice ? `${original}${mods ? `\n${mods}` : ''}\n${say('review.final', { final: number(s.final ?? 0) })}\n` : '';
      fields.push({
        name: say('review.step', { kind: resultName(s.kind ?? '') }),
        value: `${roll}**${s.label ?? resultName(s.result ?? '')}**${s.ref ? ` · *${s.ref}*` : ''}`,
        inline: false,
      });
    }
    if (outcome.odds) {
      fields.push({ name: say('fieldOdds'), value: say('review.odds', { exactly: outcome.odds.exactly, better: outcome.odds.or_better }), inline: true });
    }
  }
  if (related.length) {
    fields.push({
      name: say('review.linked'),
      value: related.map(linkedLine).join('\n'),
      inline: false,
    });
  }
  const link = messageLink(row, messageId);
  fields.push({
    name: say('review.ledger'),
    value: `${say('review.position', { seq: String(row.guild_seq), hash: row.hash, prev: row.prev_hash })}${link ? `\n[${say('review.theMessage')}](${link})` : ''}${row.unreadable ? `\n${say('review.unreadable', { verify: command('verify') })}` : ''}`,
    inline: false,
  });
  const title = say('review.rollTitle', { id: row.id, command: commandShown(row.command), unit: row.unit ? ` · ${userText(row.unit)}` : '' });
  return limitEmbed({ title, color: TONE_COLOUR.neutral, fields });
}
