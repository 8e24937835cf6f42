import type { Finding, Outcome } from '../types.js';

export const DISORDER_REF = 'Hearts of Tin, New Morale (a)(i)';
export const BRIGADE_REF = 'Hearts of Tin, New Morale (a)(ii)';

export const MELEE_RESULTS = ['none', 'defeated', 'pursued'] as const;
export type MeleeResult = (typeof MELEE_RESULTS)[number];

/** The causes of disorder; each gives one marker, and markers add up. */
export const DISORDER_CAUSES = {
  heavyLosses: 'lost 25% or more of its strength this turn',
  defeated: 'defeated in a melee',
  pursued: 'pursued after winning a melee',
} as const;

export type DisorderInput = {
  /** Strength at the start of this turn. */
  strength: number;
  /** Lost this turn. */
  lost: number;
  melee: MeleeResult;
};

export type DisorderFinding = Finding & { kind: 'disorder'; result: 'disorder' | 'no_disorder'; markers: number; causes: string[] };

const RALLY_REMINDER = 'It must be given a Rally order the next time its brigade is activated.';

/** How many disorder markers a unit gains this turn, and why. */
export function disorderGained(input: DisorderInput): Outcome<DisorderFinding> {
  const causes: string[] = [];
  // 25% of the strength at the start of the turn, compared in integers.
  if (4 * input.lost >= input.strength) causes.push(`${DISORDER_CAUSES.heavyLosses} (${input.lost} of ${input.strength})`);
  if (input.melee === 'defeated') causes.push(DISORDER_CAUSES.defeated);
  if (input.melee === 'pursued') causes.push(DISORDER_CAUSES.pursued);
  const markers = causes.length;
  const step: DisorderFinding = {
    kind: 'disorder',
    result: markers ? 'disorder' : 'no_disorder',
    markers,
    causes,
    label: markers ? `Gains ${markers} disorder marker${markers === 1 ? '' : 's'}` : 'No disorder',
    effect: markers ? `Add the marker${markers === 1 ? '' : 's'} to any it already has. ${RALLY_REMINDER}` : 'No cause of disorder applies this turn.',
    tone: markers ? 'bad' : 'good',
    ref: DISORDER_REF,
  };
  return { system: 'hearts-of-tin', steps: [step], result: step.result, tone: step.tone };
}

export type BrigadeInput = { original: number; lost: number };
export type BrigadeFinding = Finding & { kind: 'brigade'; result: 'shaken' | 'steady' };

/** A brigade that has lost half or more of its original strength is shaken, for good. */
export function brigadeMorale(input: BrigadeInput): Outcome<BrigadeFinding> {
  const shaken = 2 * input.lost >= input.original;
  const step: BrigadeFinding = {
    kind: 'brigade',
    result: shaken ? 'shaken' : 'steady',
    label: shaken ? 'Shaken' : 'Steady',
    effect: shaken
      ? `It has lost ${input.lost} of ${input.original}, half or more. At the end of every turn each of its units gains one disorder marker. Shaken does not wear off.`
      : `It has lost ${input.lost} of ${input.original}, less than half: not shaken.`,
    tone: shaken ? 'bad' : 'good',
    ref: BRIGADE_REF,
  };
  return { system: 'hearts-of-tin', steps: [step], result: step.result, tone: step.tone };
}
