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
  /** Lost now (this report). */
  lost: number;
  melee: MeleeResult;
  /** Lost earlier in the same turn (a roster unit's reports add up, "State across a game"). */
  lostEarlier?: number;
  /** The 25% marker was already given this turn: it is given once per turn for that cause. */
  markedForLosses?: boolean;
  /** A roster unit's markers before this report: the reply then says how many it has now. */
  markersBefore?: number;
};

export type DisorderFinding = Finding & { kind: 'disorder'; result: 'disorder' | 'no_disorder' | 'gone'; markers: number; causes: string[] };

const RALLY_REMINDER = 'It must be given a Rally order the next time its brigade is activated.';

/** How many disorder markers a unit gains this turn, and why. */
export function disorderGained(input: DisorderInput): Outcome<DisorderFinding> {
  const causes: string[] = [];
  const total = (input.lostEarlier ?? 0) + input.lost;
  const notes: string[] = [];
  if (total >= input.strength) {
    // A unit with no strength left is gone, not disordered.
    const step: DisorderFinding = {
      kind: 'disorder',
      result: 'gone',
      markers: 0,
      causes: [],
      label: 'Gone',
      effect: `It has lost all ${input.strength} of its strength this turn: it is gone from the field, not disordered. Remove it.`,
      tone: 'bad',
      ref: DISORDER_REF,
    };
    return { system: 'hearts-of-tin', steps: [step], result: step.result, tone: step.tone };
  }
  // 25% of the strength at the start of the turn, against everything lost this turn, in integers.
  if (4 * total >= input.strength) {
    const what = input.lostEarlier
      ? `${total} of ${input.strength}: ${input.lostEarlier} earlier this turn and ${input.lost} now`
      : `${total} of ${input.strength}`;
    if (input.markedForLosses) notes.push(`It has lost ${what}, but the marker for this turn's losses was already given.`);
    else causes.push(`${DISORDER_CAUSES.heavyLosses} (${what})`);
  }
  if (input.melee === 'defeated') causes.push(DISORDER_CAUSES.defeated);
  if (input.melee === 'pursued') causes.push(DISORDER_CAUSES.pursued);
  const markers = causes.length;
  const s = markers === 1 ? '' : 's';
  const tracked = input.markersBefore !== undefined;
  const now = tracked ? Math.min(10, input.markersBefore! + markers) : undefined;
  const effect = markers
    ? `${tracked ? `Marker${s} added on the roster: it now has ${now}.` : `Add the marker${s} to any it already has.`} ${RALLY_REMINDER}`
    : 'No cause of disorder applies this turn.';
  const step: DisorderFinding = {
    kind: 'disorder',
    result: markers ? 'disorder' : 'no_disorder',
    markers,
    causes,
    label: markers ? `Gains ${markers} disorder marker${s}` : 'No disorder',
    effect: [effect, ...notes].join(' '),
    tone: markers ? 'bad' : 'good',
    ref: DISORDER_REF,
  };
  return { system: 'hearts-of-tin', steps: [step], result: step.result, tone: step.tone };
}

export type BrigadeInput = { original: number; lost: number };
export type BrigadeFinding = Finding & { kind: 'brigade'; result: 'shaken' | 'steady' };

/**
 * A brigade that has lost half or more of its original strength is shaken, for good:
 * `alreadyShaken` (the roster remembers it) keeps it shaken though units joining or strengths
 * edited bring its losses under half.
 */
export function brigadeMorale(input: BrigadeInput & { alreadyShaken?: boolean }): Outcome<BrigadeFinding> {
  const half = 2 * input.lost >= input.original;
  const shaken = half || input.alreadyShaken === true;
  const step: BrigadeFinding = {
    kind: 'brigade',
    result: shaken ? 'shaken' : 'steady',
    label: shaken ? 'Shaken' : 'Steady',
    effect: half
      ? `It has lost ${input.lost} of ${input.original}, half or more. At the end of every turn each of its units gains one disorder marker. Shaken does not wear off.`
      : shaken
        ? `It was shaken earlier and shaken status does not go away, though it has now lost ${input.lost} of ${input.original}, less than half. At the end of every turn each of its units gains one disorder marker.`
        : `It has lost ${input.lost} of ${input.original}, less than half: not shaken.`,
    tone: shaken ? 'bad' : 'good',
    ref: BRIGADE_REF,
  };
  return { system: 'hearts-of-tin', steps: [step], result: step.result, tone: step.tone };
}

/** A brigade's unit as the roster keeps it: a removed (routed) unit lost all of its original strength. */
export type BrigadeUnit = { original: number; strength: number; removed: boolean };

/** A brigade's original strength and losses from every unit it ever had. */
export function brigadeLosses(units: readonly BrigadeUnit[]): BrigadeInput & { gone: number } {
  let original = 0;
  let lost = 0;
  let gone = 0;
  for (const u of units) {
    original += u.original;
    lost += u.removed ? u.original : u.original - u.strength;
    if (u.removed) gone++;
  }
  return { original, lost, gone };
}
