import type { Finding, Outcome } from '../types.js';
import { list, said, type Said } from '../../i18n/said.js';
import { sayIn } from '../../i18n/speak.js';
import { worded } from '../words.js';

export const DISORDER_REF = 'Hearts of Tin, New Morale (a)(i)';
export const BRIGADE_REF = 'Hearts of Tin, New Morale (a)(ii)';

export const MELEE_RESULTS = ['none', 'defeated', 'pursued'] as const;
export type MeleeResult = (typeof MELEE_RESULTS)[number];

/** The causes of disorder (each gives one marker, and markers add up), as the catalogs word them. */
export const DISORDER_CAUSES = {
  heavyLosses: (what: Said) => said('hot.cause.heavyLosses', { what }),
  defeated: said('hot.cause.defeated'),
  pursued: said('hot.cause.pursued'),
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

/** `causes` in English as recorded; `cause_says` the same by identifier, for every reader's language. */
export type DisorderFinding = Finding & {
  kind: 'disorder';
  result: 'disorder' | 'no_disorder' | 'gone';
  markers: number;
  causes: string[];
  cause_says?: Said[];
};

/** How many disorder markers a unit gains this turn, and why. */
export function disorderGained(input: DisorderInput): Outcome<DisorderFinding> {
  const causes: Said[] = [];
  const total = (input.lostEarlier ?? 0) + input.lost;
  const notes: Said[] = [];
  if (total >= input.strength) {
    // A unit with no strength left is gone, not disordered.
    const step: DisorderFinding = {
      kind: 'disorder',
      result: 'gone',
      markers: 0,
      causes: [],
      ...worded(said('hot.gone.label'), said('hot.gone.effect', { strength: String(input.strength) })),
      tone: 'bad',
      ref: DISORDER_REF,
    };
    return { system: 'hearts-of-tin', steps: [step], result: step.result, tone: step.tone };
  }
  // 25% of the strength at the start of the turn, against everything lost this turn, in integers.
  if (4 * total >= input.strength) {
    const of = { total: String(total), strength: String(input.strength) };
    const what = input.lostEarlier ? said('hot.lostOfEarlier', { ...of, earlier: String(input.lostEarlier), now: String(input.lost) }) : said('hot.lostOf', of);
    if (input.markedForLosses) notes.push(said('hot.lossesMarked', { what }));
    else causes.push(DISORDER_CAUSES.heavyLosses(what));
  }
  if (input.melee === 'defeated') causes.push(DISORDER_CAUSES.defeated);
  if (input.melee === 'pursued') causes.push(DISORDER_CAUSES.pursued);
  const markers = causes.length;
  const tracked = input.markersBefore !== undefined;
  const now = tracked ? Math.min(10, input.markersBefore! + markers) : 0;
  const effect = !markers ? said('hot.noCause') : tracked ? said('hot.markersAdded', { n: markers, now: String(now) }) : said('hot.markersAdd', { n: markers });
  const result = markers ? 'disorder' : 'no_disorder';
  const step: DisorderFinding = {
    kind: 'disorder',
    result,
    markers,
    causes: causes.map((c) => sayIn('en', c)),
    cause_says: causes,
    ...worded(said(`hot.${result}.label`, { n: markers }), notes.length ? said('hot.withNotes', { effect, notes: list(notes, 'comma') }) : effect),
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
    ...worded(
      said(shaken ? 'hot.shaken.label' : 'hot.steady.label'),
      said(half ? 'hot.shakenNow' : shaken ? 'hot.shakenBefore' : 'hot.notShaken', { lost: String(input.lost), original: String(input.original) }),
    ),
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
