import type { APIEmbed } from 'discord.js';
import type { Game, RosterUnit } from '../ledger/roster.js';
import { systemName } from '../rules/systems.js';
import { discordTime, limitEmbed, TONE_COLOUR, userText } from './embed.js';
import { say } from '../i18n/reader.js';
import { command } from '../i18n/said.js';

export const UNITS_PER_PAGE = 10;

const turnText = (g: Game) => (g.turn === null ? say('roster.turnNotSet') : `${g.turn}${g.phase ? ` · ${userText(g.phase)}` : ''}`);

export function gameEmbed(title: string, g: Game, extra: { units?: number; rolls?: number; rulings?: number; note?: string } = {}): APIEmbed {
  const fields = [
    { name: say('roster.system'), value: systemName(g.system), inline: true },
    { name: say('roster.turn'), value: turnText(g), inline: true },
    ...(extra.units !== undefined ? [{ name: say('roster.roster'), value: say('roster.units', { n: extra.units }), inline: true }] : []),
    ...(extra.rolls !== undefined ? [{ name: say('roster.rolls'), value: String(extra.rolls), inline: true }] : []),
    ...(extra.rulings ? [{ name: say('roster.rulings'), value: String(extra.rulings), inline: true }] : []),
    { name: say('roster.started'), value: `<@${g.started_by}> · ${discordTime(g.started_at)}`, inline: true },
    ...(g.ended_at ? [{ name: say('roster.ended'), value: discordTime(g.ended_at), inline: true }] : []),
  ];
  const footer = { text: say('roster.gameFooter', { id: g.id }) };
  return limitEmbed({ title: `${title} · ${userText(g.name)}`, color: TONE_COLOUR.neutral, description: extra.note, fields, footer });
}

/** How a unit of the game's system reads: its line, and more about it now (its system's unit spec). */
export type UnitReading = {
  summary: (f: Record<string, unknown>) => string;
  details?: (f: Record<string, unknown>) => { name: string; value: string }[];
};

export function unitEmbed(title: string, reading: UnitReading, u: RosterUnit, note?: string): APIEmbed {
  const fields = [
    { name: say('roster.now'), value: reading.summary(u.fields), inline: false },
    { name: say('roster.owner'), value: userText(u.owner_name), inline: true },
    ...(u.side ? [{ name: say('roster.side'), value: userText(u.side), inline: true }] : []),
    ...(reading.details?.(u.fields) ?? []).map((d) => ({ ...d, inline: false })),
  ];
  return limitEmbed({ title: `${title} · ${userText(u.name)}`, color: TONE_COLOUR.neutral, description: note, fields });
}

export function unitListEmbed(g: Game, reading: UnitReading, units: RosterUnit[], page: number, pages: number, total: number): APIEmbed {
  const lines = units.map((u) => `**${userText(u.name)}**${u.side ? ` (${userText(u.side)})` : ''} — ${reading.summary(u.fields)}`);
  return limitEmbed({
    title: say('roster.listTitle', { game: userText(g.name) }),
    color: TONE_COLOUR.neutral,
    description: lines.length ? lines.join('\n') : say('roster.empty', { add: command('unit add') }),
    footer: { text: say('roster.page', { page: String(page + 1), pages: String(Math.max(1, pages)), n: total, id: g.id }) },
  });
}
