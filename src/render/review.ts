import type { APIEmbed } from 'discord.js';
import type { LedgerRow } from '../ledger/rows.js';
import { codeBlock, discordTime, limitEmbed, modifierLine, number, outcomeName, resultName, TONE_COLOUR, userText } from './embed.js';

export const HISTORY_PAGE = 10;

export const messageLink = (row: { guild_id: string; channel_id: string }, messageId: string | undefined) =>
  messageId && /^\d+$/.test(row.guild_id) ? `https://discord.com/channels/${row.guild_id}/${row.channel_id}/${messageId}` : undefined;

/** The kinds of row a player meets among a roll's linked rows, in words. */
const ROW_KINDS: Record<string, string> = { reroll: 'Re-roll' };

/** A roll made with `sealed:true`: its result shows to GMs, and to everyone once revealed. */
export const isSealed = (row: LedgerRow) => Boolean((row.input as { sealed?: boolean } | null)?.sealed);

/**
 * One history line: time, who, command, unit, result, message link, roll id; voided rolls struck
 * through; a roll the bot could not post after it stopped before its reply (issue 45) marked.
 */
export function historyLine(
  row: LedgerRow,
  extra: { voidReason?: string | undefined; messageId?: string | undefined; undelivered?: string | undefined; hidden: boolean },
): string {
  const result = extra.hidden ? 'sealed' : row.result ? outcomeName(row.outcome, row.result) : '—';
  const link = messageLink(row, extra.messageId);
  const missed = extra.undelivered ? ` · ⚠️ never shown in its channel (${userText(extra.undelivered)})` : '';
  // Who rolled, by mention: a display name alone can be copied by another member (Discord shows the mention as the member's name, and it cannot be faked).
  const body = `${discordTime(row.created_at)} <@${row.user_id}> /${row.command}${row.unit ? ` · ${userText(row.unit)}` : ''} · **${result}**${link ? ` · [message](${link})` : ''}${missed} · \`${row.id}\``;
  return extra.voidReason !== undefined ? `~~${body}~~ *(void: ${extra.voidReason ? userText(extra.voidReason) : 'no reason given'})*` : body;
}

/** `capped`: more rows match than were counted; the footer says how to reach older ones. */
export function historyEmbed(title: string, lines: string[], page: number, pages: number, total: number, scope: string, capped = false): APIEmbed {
  const count = capped ? `the newest ${total} rolls (narrow with until: for older ones)` : `${total} roll${total === 1 ? '' : 's'}`;
  return limitEmbed({
    title,
    color: TONE_COLOUR.neutral,
    description: lines.length ? lines.join('\n') : 'No rolls match.',
    footer: { text: `${scope} · page ${page + 1} of ${Math.max(1, pages)} · ${count} · newest first` },
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

/** One roll in full: input, dice, every step with its modifiers, result, relatives and hash. */
export function rollDetailEmbed(row: LedgerRow, related: LedgerRow[], messageId: string | undefined, hidden: boolean): APIEmbed {
  const outcome = row.outcome as { steps?: AnyStep[]; odds?: { exactly: string; or_better: string } };
  const fields = [
    {
      name: 'Who and where',
      value: `${userText(row.user_name)} (<@${row.user_id}>) · <#${row.channel_id}> · ${discordTime(row.created_at)}${row.game_id ? ` · game ${row.game_id}${row.turn != null ? ` turn ${row.turn}` : ''}${row.phase ? ` ${userText(row.phase)}` : ''}` : ''}`,
      inline: false,
    },
    { name: 'Input', value: codeBlock(JSON.stringify(row.input), 'json'), inline: false },
  ];
  if (hidden) {
    fields.push({ name: 'Result', value: 'Sealed: only a GM can see it until it is revealed (the ledger holds a commitment to it).', inline: false });
  } else {
    fields.push({ name: 'Dice', value: row.dice.length ? row.dice.join(' ') : 'none (a ruling)', inline: true });
    for (const s of outcome.steps ?? []) {
      const mods = (s.modifiers ?? []).map(modifierLine).join('\n');
      const roll = s.dice ? `${s.dice.join(' ')} → Original ${number(s.original ?? 0)}${mods ? `\n${mods}` : ''}\nFinal ${number(s.final ?? 0)}\n` : '';
      fields.push({
        name: `Step: ${resultName(s.kind ?? '')}`,
        value: `${roll}**${s.label ?? resultName(s.result ?? '')}**${s.ref ? ` · *${s.ref}*` : ''}`,
        inline: false,
      });
    }
    if (outcome.odds) fields.push({ name: 'Odds', value: `this result ${outcome.odds.exactly}, this or better ${outcome.odds.or_better}`, inline: true });
  }
  if (related.length) {
    fields.push({
      name: 'Linked rows',
      value: related
        .map(
          (r) =>
            `\`${r.id}\` ${resultName(r.kind, ROW_KINDS)}${r.result ? ` · ${outcomeName(r.outcome, r.result)}` : ''} by <@${r.user_id}>${(r.input as { reason?: string; note?: string }).reason ? `: ${userText((r.input as { reason: string }).reason)}` : ''}${(r.input as { note?: string }).note ? `: ${userText((r.input as { note: string }).note)}` : ''}`,
        )
        .join('\n'),
      inline: false,
    });
  }
  const link = messageLink(row, messageId);
  fields.push({
    name: 'Ledger',
    value: `position ${row.guild_seq} · hash \`${row.hash}\`\nprev \`${row.prev_hash}\`${link ? `\n[the message](${link})` : ''}`,
    inline: false,
  });
  return limitEmbed({ title: `Roll ${row.id} · /${row.command}${row.unit ? ` · ${userText(row.unit)}` : ''}`, color: TONE_COLOUR.neutral, fields });
}
