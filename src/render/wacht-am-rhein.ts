import type { APIEmbed } from 'discord.js';
import { effective, restrictions, type FatigueFinding, type FatigueStatus, type Strengths } from '../rules/wacht-am-rhein/fatigue.js';
import type { Outcome } from '../rules/types.js';
import { findingField, limitEmbed, resultEmbed, TONE_COLOUR, userText } from './embed.js';

const values = (s: Strengths) => `${s.attack}-${s.defense}-${s.movement}`;

/** The status, the effective strengths and movement, and the restrictions. */
export function fatigueStatusEmbed(name: string | undefined, printed: Strengths, status: FatigueStatus, mrExemption: boolean): APIEmbed {
  const now = effective(printed, status);
  const how = status === 'resting' ? 'halved' : status === 'fatigued' ? 'quartered' : 'as printed';
  return limitEmbed({
    title: `Fatigue · ${name ? userText(name) : 'untracked unit'}`,
    color: TONE_COLOUR[status === 'normal' ? 'good' : status === 'resting' ? 'mixed' : 'bad'],
    fields: [
      { name: 'Status', value: status, inline: true },
      {
        name: 'Attack-defense-movement',
        value: `**${values(now)}** (${how}${status === 'normal' ? '' : `, rounded up, from ${values(printed)}`})`,
        inline: true,
      },
      { name: 'Restrictions', value: restrictions(status).join('; ') || 'none', inline: false },
      ...(mrExemption ? [{ name: 'Maneuver Reserve', value: 'Its first Extended Night Activity since leaving MR causes no fatigue.', inline: false }] : []),
      { name: 'Rule', value: '*Wacht am Rhein 13.1.1*', inline: false },
    ],
  });
}

export function fatigueChangeEmbed(a: {
  title: string;
  name: string | undefined;
  userName: string;
  outcome: Outcome<FatigueFinding>;
  row: { id: string; hash: string };
  printed?: Strengths;
  /** What happened, as the event table words it. */
  event?: string;
}): APIEmbed {
  const f = a.outcome.steps[0]!;
  const fields = [findingField(f)];
  if (a.printed) {
    const now = effective(a.printed, f.after.status);
    fields.push({
      name: 'Now',
      value: `${f.after.status} · ${values(now)}${restrictions(f.after.status).length ? ` · ${restrictions(f.after.status).join('; ')}` : ''}`,
      inline: false,
    });
  }
  return resultEmbed({
    title: `${a.title} · ${a.name ? userText(a.name) : 'untracked unit'}`,
    headline: f.label,
    userName: a.userName,
    tone: a.outcome.tone,
    ...(a.event ? { description: `Event: ${a.event}` } : {}),
    fields,
    rollId: a.row.id,
    hash: a.row.hash,
  });
}
