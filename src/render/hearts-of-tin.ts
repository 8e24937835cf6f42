import type { APIEmbed } from 'discord.js';
import type { RallyInput, RallyOutcome } from '../rules/hearts-of-tin/rally.js';
import type { BrigadeFinding, DisorderFinding } from '../rules/hearts-of-tin/disorder.js';
import type { Outcome } from '../rules/types.js';
import { findingField, headlineOf, labelOf, oddsField, resultEmbed, stepFields, stepLine, userText } from './embed.js';
import { say, shown } from '../i18n/reader.js';

type Recorded = { id: string; hash: string };

/**
 * A rally's title and what the player told us about the unit, so the reply can be checked against
 * the table: one header for the roll and for its odds, so neither can leave out an input.
 */
export function rallyHeader(unit: string | undefined, input: RallyInput): { title: string; situation: string } {
  // Without a unit the title names the roll, not "Rally": a Rally result would read "Rally — Rally".
  return { title: unit ? `${say('hot.r.rally')} · ${userText(unit)}` : say('hot.r.rallyRoll'), situation: situation(input) };
}

function situation(input: RallyInput): string {
  const parts = [
    say('hot.r.markers', { n: input.disorder }),
    say('hot.r.quality', { quality: input.quality }),
    input.band ? say('hot.r.band') : undefined,
    say(input.enemyInSight ? 'hot.r.enemyInSight' : 'hot.r.noEnemy'),
    input.commanderNear ? say('hot.r.commanderNear') : undefined,
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
        { name: say('hot.r.firstRoll'), value: say('hot.r.rolledAgain', { line: stepLine(first) }), inline: false },
        ...stepFields(a.reroll.outcome.steps[0]!, { heading: say('hot.r.reroll'), notes: [say('hot.r.calledBy', { name: a.reroll.userName })] }),
      ]
    : stepFields(first, { notes: a.rerollOffered ? [say('hot.r.mayRejoin')] : [] });
  const odds = last.outcome.odds;
  if (odds) fields.push(oddsField(odds));
  const { title, situation } = rallyHeader(a.unit, a.input);
  return resultEmbed({
    title,
    headline: headlineOf(last.outcome.steps),
    userName: a.userName,
    tone: last.outcome.tone,
    description: situation,
    fields,
    rollId: last.row.id,
    hash: last.row.hash,
    footerExtra: a.reroll ? say('footerReroll', { id: a.first.row.id }) : undefined,
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
    const causes = f.cause_says?.map(shown) ?? f.causes;
    fields.push({ name: say('fieldCauses'), value: causes.map((c) => `\`+1\` ${c}`).join('\n'), inline: false });
  }
  fields.push(findingField(f));
  return resultEmbed({
    title: a.name ? `${a.title} · ${userText(a.name)}` : a.title,
    headline: labelOf(f),
    userName: a.userName,
    tone: a.outcome.tone,
    description: a.description,
    fields,
    rollId: a.row.id,
    hash: a.row.hash,
  });
}
