import { withArticle } from '../util/text.js';
import type { APIEmbed } from 'discord.js';
import { CHECK_REASONS, COMMANDER_RANGE_M } from '../rules/lightning-war/morale-table.js';
import type { MoraleInput, MoraleOutcome } from '../rules/lightning-war/morale.js';
import { oddsField, resultEmbed, stepFields, userText } from './embed.js';

function situation(i: MoraleInput): string {
  return [
    i.rally ? `rally attempt${i.state ? ` of ${withArticle(i.state)} unit` : ''}` : 'morale check',
    i.unitType.replace('_', ' '),
    `${i.morale} morale`,
    i.casualties ? `${i.casualties.lost}/${i.casualties.original} lost` : 'no casualties',
    i.cover === 'none' ? 'no cover' : `${i.cover} cover`,
    i.commander ? `commander within ${COMMANDER_RANGE_M[i.unitType]} m` : undefined,
    i.enemyWithin100m ? 'visible enemy within 100 m' : undefined,
    i.reason ? `because ${CHECK_REASONS[i.reason]}` : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

export function moraleEmbed(a: {
  unit: string | undefined;
  userName: string;
  input: MoraleInput;
  outcome: MoraleOutcome;
  row: { id: string; hash: string };
}): APIEmbed {
  const step = a.outcome.steps[0]!;
  const notes = a.input.rally ? ['A commander who attempts a rally writes no orders this turn.'] : [];
  const check = a.input.rally ? 'Rally' : 'Morale check';
  return resultEmbed({
    title: a.unit ? `${check} · ${userText(a.unit)}` : check,
    headline: step.label,
    userName: a.userName,
    tone: a.outcome.tone,
    description: situation(a.input),
    fields: [...stepFields(step, { notes }), ...(a.outcome.odds ? [oddsField(a.outcome.odds)] : [])],
    rollId: a.row.id,
    hash: a.row.hash,
  });
}
