import type { APIEmbed } from 'discord.js';
import { effective, restrictions, type FatigueFinding, type FatigueStatus, type Strengths } from '../rules/wacht-am-rhein/fatigue.js';
import type { Outcome } from '../rules/types.js';
import { findingField, labelOf, limitEmbed, resultEmbed, TONE_COLOUR, userText } from './embed.js';
import { say, shown } from '../i18n/reader.js';

const values = (s: Strengths) => `${s.attack}-${s.defense}-${s.movement}`;

/** A status's restrictions in the reader's language, one after another. */
export const restrictionsText = (status: FatigueStatus) => restrictions(status).map(shown).join('; ');

/** The status, the effective strengths and movement, and the restrictions. */
export function fatigueStatusEmbed(name: string | undefined, printed: Strengths, status: FatigueStatus, mrExemption: boolean): APIEmbed {
  const now = effective(printed, status);
  const how = say('war.r.how', { status });
  return limitEmbed({
    title: `${say('war.r.fatigue')} · ${name ? userText(name) : say('war.r.untracked')}`,
    color: TONE_COLOUR[status === 'normal' ? 'good' : status === 'resting' ? 'mixed' : 'bad'],
    fields: [
      { name: say('war.r.status'), value: say('war.status', { status }), inline: true },
      {
        name: say('war.r.strengths'),
        value: `**${values(now)}** (${status === 'normal' ? how : say('war.r.roundedFrom', { how, printed: values(printed) })})`,
        inline: true,
      },
      { name: say('war.r.restrictions'), value: restrictionsText(status) || say('war.r.none'), inline: false },
      ...(mrExemption ? [{ name: say('war.r.mr'), value: say('war.r.mrNote'), inline: false }] : []),
      { name: say('war.r.rule'), value: '*Wacht am Rhein 13.1.1*', inline: false },
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
    const limits = restrictionsText(f.after.status);
    fields.push({
      name: say('war.r.now'),
      value: `${say('war.status', { status: f.after.status })} · ${values(now)}${limits ? ` · ${limits}` : ''}`,
      inline: false,
    });
  }
  return resultEmbed({
    title: `${a.title} · ${a.name ? userText(a.name) : say('war.r.untracked')}`,
    headline: labelOf(f),
    userName: a.userName,
    tone: a.outcome.tone,
    ...(a.event ? { description: say('war.r.event', { event: a.event }) } : {}),
    fields,
    rollId: a.row.id,
    hash: a.row.hash,
  });
}
