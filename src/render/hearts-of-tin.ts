import type { APIEmbed } from 'discord.js';
import type { RallyInput, RallyOutcome } from '../rules/hearts-of-tin/rally.js';
import type { BrigadeFinding, DisorderFinding } from '../rules/hearts-of-tin/disorder.js';
import type { Outcome } from '../rules/types.js';
import { findingField, headlineOf, oddsField, resultEmbed, stepFields, stepLine, userText } from './embed.js';

type Recorded = { id: string; hash: string };

/** What the player told us about the unit, so the reply can be checked against the table. */
function situation(input: RallyInput): string {
  const parts = [
    `${input.disorder} disorder marker${input.disorder === 1 ? '' : 's'}`,
    input.quality,
    input.band ? 'joined by a band' : undefined,
    input.enemyInSight ? 'enemy in sight within 24"' : 'no enemy within 24"',
    input.commanderNear ? 'commander within 12"' : undefined,
  ];
  return parts.filter(Boolean).join(' · ');
}

export function rallyEmbed(a: {
  unit: string | undefined;
  userName: string;
  input: RallyInput;
  first: { row: Recorded; outcome: RallyOutcome };
  /** Offered a commander re-roll (the button is on the message). */
  rerollOffered: boolean;
  reroll?: { row: Recorded; outcome: RallyOutcome; userName: string };
}): APIEmbed {
  const first = a.first.outcome.steps[0]!;
  const last = a.reroll ?? a.first;
  // A re-roll replaces the first result: the first is one line, the re-roll is shown in full.
  const fields = a.reroll
    ? [
        { name: 'First roll', value: `${stepLine(first)} — the commander joined and the unit rolled again.`, inline: false },
        ...stepFields(a.reroll.outcome.steps[0]!, { heading: 'Commander re-roll', notes: [`Called by ${a.reroll.userName}; this result replaces the first.`] }),
      ]
    : stepFields(first, { notes: a.rerollOffered ? ['A commander within 12" may join the unit and let it roll once more.'] : [] });
  const odds = last.outcome.odds;
  if (odds) fields.push(oddsField(odds));
  return resultEmbed({
    title: a.unit ? `Rally · ${userText(a.unit)}` : 'Rally',
    headline: headlineOf(last.outcome.steps),
    userName: a.userName,
    tone: last.outcome.tone,
    description: situation(a.input),
    fields,
    rollId: last.row.id,
    hash: last.row.hash,
    footerExtra: a.reroll ? `re-roll of ${a.first.row.id}` : undefined,
  });
}

/** /disorder and /brigade: a ruling with its causes, no dice. */
export function findingEmbed(a: {
  title: string;
  /** The unit or brigade, when named. */
  name: string | undefined;
  userName: string;
  description: string;
  outcome: Outcome<DisorderFinding | BrigadeFinding>;
  row: Recorded;
}): APIEmbed {
  const f = a.outcome.steps[0]!;
  const fields = [];
  if (f.kind === 'disorder' && f.causes.length) {
    fields.push({ name: 'Causes', value: f.causes.map((c) => `\`+1\` ${c}`).join('\n'), inline: false });
  }
  fields.push(findingField(f));
  return resultEmbed({
    title: a.name ? `${a.title} · ${userText(a.name)}` : a.title,
    headline: f.label,
    userName: a.userName,
    tone: a.outcome.tone,
    description: a.description,
    fields,
    rollId: a.row.id,
    hash: a.row.hash,
  });
}
