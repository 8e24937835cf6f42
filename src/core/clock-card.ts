import type { APIEmbed } from 'discord.js';
import type { GameClock, RollRequest } from '../ledger/requests.js';
import type { LedgerRow } from '../ledger/rows.js';
import type { Game } from '../ledger/roster.js';
import type { LedgerStore } from '../ledger/store.js';
import { clip, limitEmbed, outcomeName, TONE_COLOUR, userText } from '../render/embed.js';
import { systemName } from '../rules/systems.js';
import { commandShown, say } from '../i18n/reader.js';
import { waitedText } from './requests.js';

/**
 * A game's status card: its turn and phase, whose move it is, the rolls waiting for an answer, and
 * the last rolls, in one message the bot edits as the game goes (schedule.ts redraws it).
 */

export const CARD_REQUESTS = 10;
export const CARD_ROLLS = 5;

const relative = (iso: string) => `<t:${Math.floor(Date.parse(iso) / 1000)}:R>`;

/** A roll in a line: who, what, the result (a sealed roll's stays hidden until its reveal). */
function rollLine(r: LedgerRow): string {
  const sealed = (r.outcome as { sealed?: boolean } | null)?.sealed;
  const result = sealed || r.result === null ? '🔒' : `**${outcomeName(r.outcome, r.result)}**`;
  return `<@${r.user_id}> ${commandShown(r.command)}${r.unit ? ` · ${userText(r.unit)}` : ''} · ${result} · ${relative(r.created_at)}`;
}

/** A requested roll as typed, in code: backticks inside are shown as quotes so they cannot close it. */
const rollText = (r: RollRequest) => `\`/${clip(r.roll.trim().replaceAll('`', "'"), 80)}\``;

const requestLine = (r: RollRequest) => `<@${r.player_id}> ${rollText(r)} · ${relative(r.created_at)}`;

/** A settled request's message as it reads afterwards: answered (linking the answer's message, when known) or withdrawn. */
export function settledEmbed(r: RollRequest, answerMessageId: string | undefined): APIEmbed {
  if (r.state === 'cancelled') {
    return limitEmbed({
      title: say('ask.cancelledTitle'),
      color: TONE_COLOUR.neutral,
      description: say('ask.cancelledBody', { roll: rollText(r), player: r.player_id, by: r.settled_by ?? r.asker_id }),
    });
  }
  const answer = answerMessageId
    ? `[${say('ask.doneAnswer')}](https://discord.com/channels/${r.guild_id}/${r.channel_id}/${answerMessageId})`
    : `\`${r.answer_id ?? '?'}\``;
  const waited = waitedText(r.created_at, r.settled_at ?? r.created_at);
  const description = say('ask.doneBody', { player: r.player_id, roll: rollText(r), asker: r.asker_id, when: relative(r.created_at), waited, answer });
  return limitEmbed({ title: say('ask.doneTitle'), color: TONE_COLOUR.neutral, description });
}

/** The card as drawn from what is read now. */
export function cardEmbed(g: Game, c: GameClock, open: RollRequest[], rolls: LedgerRow[]): APIEmbed {
  const turn = g.turn === null ? say('card.noTurn') : `${g.turn}${g.phase ? ` · ${userText(g.phase)}` : ''}`;
  const move = c.turn_player_id && c.turn_since ? `<@${c.turn_player_id}> · ${relative(c.turn_since)}` : say('card.nobody');
  return limitEmbed({
    title: say('card.title', { game: userText(g.name) }),
    color: TONE_COLOUR.neutral,
    ...(g.ended_at ? { description: say('card.ended') } : {}),
    fields: [
      { name: say('card.turn'), value: turn, inline: true },
      { name: say('card.move'), value: move, inline: true },
      { name: say('card.requests'), value: open.length ? open.slice(0, CARD_REQUESTS).map(requestLine).join('\n') : say('card.none') },
      { name: say('card.rolls'), value: rolls.length ? rolls.map(rollLine).join('\n') : say('card.noRolls') },
    ],
    footer: { text: say('card.footer', { system: systemName(g.system) }) },
  });
}

/** The card of a game as its ledger says now. */
export async function drawCard(ledger: LedgerStore, g: Game, c: GameClock): Promise<APIEmbed> {
  const open = await ledger.requests.openRequests(g.id, CARD_REQUESTS + 1);
  const { rows } = await ledger.history.page({ guildId: g.guild_id, gameId: g.id }, CARD_ROLLS, 0, 0);
  return cardEmbed(g, c, open, rows);
}
