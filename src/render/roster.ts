import type { APIEmbed } from 'discord.js';
import type { Game, RosterUnit } from '../ledger/roster.js';
import { systemName } from '../rules/systems.js';
import { discordTime, limitEmbed, TONE_COLOUR, userText } from './embed.js';

export const UNITS_PER_PAGE = 10;

const turnText = (g: Game) => (g.turn === null ? 'not set' : `${g.turn}${g.phase ? ` · ${userText(g.phase)}` : ''}`);

export function gameEmbed(title: string, g: Game, extra: { units?: number; rolls?: number; rulings?: number; note?: string } = {}): APIEmbed {
  const fields = [
    { name: 'System', value: systemName(g.system), inline: true },
    { name: 'Turn', value: turnText(g), inline: true },
    ...(extra.units !== undefined ? [{ name: 'Roster', value: `${extra.units} unit${extra.units === 1 ? '' : 's'}`, inline: true }] : []),
    ...(extra.rolls !== undefined ? [{ name: 'Rolls so far', value: String(extra.rolls), inline: true }] : []),
    ...(extra.rulings ? [{ name: 'Rulings without dice', value: String(extra.rulings), inline: true }] : []),
    { name: 'Started', value: `<@${g.started_by}> · ${discordTime(g.started_at)}`, inline: true },
    ...(g.ended_at ? [{ name: 'Ended', value: discordTime(g.ended_at), inline: true }] : []),
  ];
  return limitEmbed({ title: `${title} · ${userText(g.name)}`, color: TONE_COLOUR.neutral, description: extra.note, fields, footer: { text: `game ${g.id}` } });
}

/** How a unit of the game's system reads: its line, and more about it now (its system's unit spec). */
export type UnitReading = {
  summary: (f: Record<string, unknown>) => string;
  details?: (f: Record<string, unknown>) => { name: string; value: string }[];
};

export function unitEmbed(title: string, reading: UnitReading, u: RosterUnit, note?: string): APIEmbed {
  const fields = [
    { name: 'Now', value: reading.summary(u.fields), inline: false },
    { name: 'Owner', value: userText(u.owner_name), inline: true },
    ...(u.side ? [{ name: 'Side', value: userText(u.side), inline: true }] : []),
    ...(reading.details?.(u.fields) ?? []).map((d) => ({ ...d, inline: false })),
  ];
  return limitEmbed({ title: `${title} · ${userText(u.name)}`, color: TONE_COLOUR.neutral, description: note, fields });
}

export function unitListEmbed(g: Game, reading: UnitReading, units: RosterUnit[], page: number, pages: number, total: number): APIEmbed {
  const lines = units.map((u) => `**${userText(u.name)}**${u.side ? ` (${userText(u.side)})` : ''} — ${reading.summary(u.fields)}`);
  return limitEmbed({
    title: `Roster · ${userText(g.name)}`,
    color: TONE_COLOUR.neutral,
    description: lines.length ? lines.join('\n') : 'No units yet: add one with /unit add.',
    footer: { text: `page ${page + 1} of ${Math.max(1, pages)} · ${total} unit${total === 1 ? '' : 's'} · game ${g.id}` },
  });
}
