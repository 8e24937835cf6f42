import type { APIEmbed } from 'discord.js';
import type { Game, RosterUnit } from '../ledger/roster.js';
import { systemName, type SystemId } from '../rules/systems.js';
import { effective, restrictions, type FatigueStatus } from '../rules/wacht-am-rhein/fatigue.js';
import { discordTime, limitEmbed, TONE_COLOUR, userText } from './embed.js';

export const UNITS_PER_PAGE = 10;

const turnText = (g: Game) => (g.turn === null ? 'not set' : `${g.turn}${g.phase ? ` · ${userText(g.phase)}` : ''}`);

export function gameEmbed(title: string, g: Game, extra: { units?: number; rolls?: number; rulings?: number; note?: string } = {}): APIEmbed {
  const fields = [
    { name: 'System', value: systemName(g.system), inline: true },
    { name: 'Turn', value: turnText(g), inline: true },
    ...(extra.units !== undefined ? [{ name: 'Roster', value: `${extra.units} unit${extra.units === 1 ? '' : 's'}`, inline: true }] : []),
    ...(extra.rolls !== undefined ? [{ name: 'Rolls so far', value: String(extra.rolls), inline: true }] : []),
    ...(extra.rulings !== undefined ? [{ name: 'Rulings so far', value: String(extra.rulings), inline: true }] : []),
    { name: 'Started', value: `<@${g.started_by}> · ${discordTime(g.started_at)}`, inline: true },
    ...(g.ended_at ? [{ name: 'Ended', value: discordTime(g.ended_at), inline: true }] : []),
  ];
  return limitEmbed({ title: `${title} · ${userText(g.name)}`, color: TONE_COLOUR.neutral, description: extra.note, fields, footer: { text: `game ${g.id}` } });
}

/** One line of what a unit is now, in its system's terms (effective values where they differ). */
type Fields = Record<string, any>;

/** Each built-in system's roster line (the compiler holds it to the list of systems). */
const SUMMARIES: Record<SystemId, (f: Fields) => string> = {
  asl: (f) => {
    const flags = ['broken', 'disrupted', 'berserk', 'fanatic', 'heroic', 'wounded'].filter((k) => f[k]);
    return `${f.counter}${flags.length ? ` · ${flags.join(', ')}` : ''}`;
  },
  'hearts-of-tin': (f) =>
    `${f.quality}${f.band ? ' + band' : ''} · strength ${f.strength}/${f.original} · disorder ${f.disorder}${f.brigade ? ` · ${f.brigade}` : ''}${f.brigade_shaken ? ' (shaken)' : ''}`,
  'lightning-war': (f) =>
    `${f.morale} · ${String(f.unit_type).replace('_', ' ')} · casualties ${f.casualties}/${f.original}${f.state && f.state !== 'steady' ? ` · ${f.state}` : ''}`,
  'wacht-am-rhein': (f) => {
    const e = effective({ attack: f.attack, defense: f.defense, movement: f.movement }, f.fatigue as FatigueStatus);
    const printed = `${f.attack}-${f.defense}-${f.movement}`;
    const now = `${e.attack}-${e.defense}-${e.movement}`;
    return `${now}${now !== printed ? ` (printed ${printed})` : ''} · ${f.fatigue} · ${String(f.mode).replace('_', ' ')}${f.mr_exemption ? ' · ENA exemption armed' : ''}`;
  },
};

/** A rule pack's fields are whole numbers under the names its file gives (checked at install). */
const packSummary = (f: Fields) =>
  Object.entries(f)
    .map(([k, v]) => `${k.replaceAll('_', ' ')} ${userText(String(v))}`)
    .join(' · ');

export function unitSummary(system: string, u: RosterUnit): string {
  const f = u.fields as Fields;
  const own = (SUMMARIES as Partial<Record<string, (f: Fields) => string>>)[system];
  return own ? own(f) : system.startsWith('pack:') ? packSummary(f) : JSON.stringify(f);
}

export function unitEmbed(title: string, system: string, u: RosterUnit, note?: string): APIEmbed {
  const f = u.fields as Record<string, any>;
  const fields = [
    { name: 'Now', value: unitSummary(system, u), inline: false },
    { name: 'Owner', value: userText(u.owner_name), inline: true },
    ...(u.side ? [{ name: 'Side', value: userText(u.side), inline: true }] : []),
  ];
  if (system === 'wacht-am-rhein' && f.fatigue !== 'normal') {
    fields.push({ name: 'Restrictions', value: restrictions(f.fatigue as FatigueStatus).join('; '), inline: false });
  }
  return limitEmbed({ title: `${title} · ${userText(u.name)}`, color: TONE_COLOUR.neutral, description: note, fields });
}

export function unitListEmbed(g: Game, units: RosterUnit[], page: number, pages: number, total: number): APIEmbed {
  const lines = units.map((u) => `**${userText(u.name)}**${u.side ? ` (${userText(u.side)})` : ''} — ${unitSummary(g.system, u)}`);
  return limitEmbed({
    title: `Roster · ${userText(g.name)}`,
    color: TONE_COLOUR.neutral,
    description: lines.length ? lines.join('\n') : 'No units yet: add one with /unit add.',
    footer: { text: `page ${page + 1} of ${Math.max(1, pages)} · ${total} unit${total === 1 ? '' : 's'} · game ${g.id}` },
  });
}
