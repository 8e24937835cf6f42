import type { Finding, Outcome, Tone } from '../types.js';
import { own } from '../../util/own.js';

/** Wacht am Rhein 13.0: a unit's fatigue status, the events that change it, and recovery. */

export const STATUSES = ['normal', 'resting', 'fatigued'] as const;
export type FatigueStatus = (typeof STATUSES)[number];

export const MODES = ['tactical', 'prepared_assault', 'strategic', 'exploitation', 'maneuver_reserve', 'combat_reserve'] as const;
export type Mode = (typeof MODES)[number];

export const REF = {
  status: 'Wacht am Rhein 13.1.0',
  effects: 'Wacht am Rhein 13.1.1',
  recovery: 'Wacht am Rhein 13.1.2',
  reserve: 'Wacht am Rhein 13.1.3',
} as const;

/** What tracking needs: the status and whether the one-ENA exemption after leaving MR is armed. */
export type FatigueState = { status: FatigueStatus; mrExemption: boolean };

/**
 * Where in the game the event happens: the MR exemption covers only actions in an ENA (13.1.3).
 * `overkillBy`: whose attack the Overkill came from; only the unit's own is its action.
 */
export type EventContext = { inEna: boolean; overkillBy?: OverkillBy | undefined };
export const OVERKILL_BY = ['own_attack', 'enemy_attack'] as const;
export type OverkillBy = (typeof OVERKILL_BY)[number];

type EventRule = {
  text: string;
  ref: string;
  /** Fatigue from an action the unit took: what the MR exemption covers in its ENA. */
  exemptible?: true;
  /** The new state, and why, from the old one. */
  apply(s: FatigueState): { state: FatigueState; why: string };
};

/** The phases a Wacht am Rhein game knows, by the one key each is stored under, and their aliases. */
export const PHASE_KEYS = ['resting', 'ena', 'movement', 'combat'] as const;
/** Aliases by their folded form (lower case, no spaces): what players type for each phase. */
const PHASE_ALIASES: Record<string, (typeof PHASE_KEYS)[number]> = {
  rest: 'resting',
  resting: 'resting',
  ena: 'ena',
  extendednightactivity: 'ena',
  night: 'ena',
  movement: 'movement',
  move: 'movement',
  combat: 'combat',
  ga: 'combat',
  groundassault: 'combat',
};

/**
 * A phase as its one key: lower-cased, spaces and a trailing "phase"
 * removed, then the aliases ("Resting Phase", "resting" → resting). Other text is the game's own
 * phase name, kept as given.
 */
export function phaseKey(phase: string): string {
  const folded = phase
    .toLowerCase()
    .replace(/\s+/g, '')
    .replace(/phase$/, '');
  // Own keys only: a phase called "constructor" is the game's own text, not Object's.
  return own(PHASE_ALIASES, folded) ?? phase.trim();
}
export const isEnaPhase = (phase: string | null | undefined) => phase != null && phaseKey(phase) === 'ena';
export const isRestingPhase = (phase: string | null | undefined) => phase != null && phaseKey(phase) === 'resting';

const toFatigued = (s: FatigueState, cause: string) =>
  s.status === 'fatigued'
    ? { state: s, why: `${cause}: it is already fatigued and stays fatigued (no further effect).` }
    : { state: { ...s, status: 'fatigued' as const }, why: `${cause}: it becomes fatigued.` };

const toResting = (s: FatigueState, cause: string) =>
  s.status === 'fatigued'
    ? { state: s, why: `${cause}: a fatigued unit stays fatigued.` }
    : s.status === 'resting'
      ? { state: s, why: `${cause}: it is already resting and stays resting.` }
      : { state: { ...s, status: 'resting' as const }, why: `${cause}: it goes to resting.` };

/** The events of 13.1.0 and 13.1.3, as data. */
export const EVENTS = {
  overkill: {
    text: 'an Overkill result from a Ground Assault or Barrage, taken as fatigue',
    ref: REF.status,
    exemptible: true,
    apply: (s) => toFatigued(s, 'Overkill taken as fatigue'),
  },
  ena_activated: {
    text: 'selected for activation during Extended Night Activity (failed to activate, moved or fought)',
    ref: `${REF.status}, ${REF.reserve}`,
    exemptible: true,
    apply: (s) => toFatigued(s, 'Activated during Extended Night Activity'),
  },
  ena_defended_full: {
    text: 'defended during Extended Night Activity with its full strength',
    ref: REF.status,
    apply: (s) => toResting(s, 'Defended at full strength during ENA'),
  },
  ena_defended_half: {
    text: 'defended during Extended Night Activity at half strength, without retreating',
    ref: REF.status,
    apply: (s) => ({ state: s, why: 'Defended at half strength without retreating: no change.' }),
  },
  defender_retreated: {
    text: 'as a defender during Extended Night Activity, suffered a retreat',
    ref: REF.status,
    apply: (s) => toResting(s, 'Retreated as a defender during ENA'),
  },
  ga_attack_while_resting: {
    // The unit is the attacker in the GA; being assaulted is not this event.
    text: 'was the attacker in a Ground Assault while resting',
    ref: REF.status,
    exemptible: true,
    apply: (s) =>
      s.status === 'resting'
        ? { state: { ...s, status: 'fatigued' }, why: 'Attacked in a Ground Assault (as the attacker) while resting: it becomes fatigued.' }
        : { state: s, why: `This applies to a resting unit; it is ${s.status}: no change.` },
  },
  left_maneuver_reserve: {
    text: 'came out of Maneuver Reserve mode',
    ref: REF.reserve,
    apply: (s) => ({
      state: { ...s, mrExemption: true },
      why: 'Left Maneuver Reserve: no action it takes in the first possible Extended Night Activity will fatigue it; the exemption ends with that ENA.',
    }),
  },
} satisfies Record<string, EventRule>;

export type FatigueEvent = keyof typeof EVENTS;
/** Whether the exemption covers this event only if told whose attack an Overkill came from: asked, never guessed. */
export const needsOverkillBy = (state: FatigueState, event: FatigueEvent, at: EventContext) =>
  event === 'overkill' && state.mrExemption && at.inEna && at.overkillBy === undefined;
/** Whether the MR exemption can cover this event (fatigue from an action the unit took). */
export const exemptible = (event: FatigueEvent) => Boolean((EVENTS[event] as EventRule).exemptible);
export const EVENT_CODES = Object.keys(EVENTS) as [FatigueEvent, ...FatigueEvent[]];

export type FatigueFinding = Finding & { kind: 'fatigue_event' | 'recovery'; before: FatigueState; after: FatigueState; failed?: string[] };

const TONE: Record<FatigueStatus, Tone> = { normal: 'good', resting: 'mixed', fatigued: 'bad' };
const outcome = (f: FatigueFinding): Outcome<FatigueFinding> => ({ system: 'wacht-am-rhein', steps: [f], result: f.result, tone: f.tone });

export function applyEvent(state: FatigueState, event: FatigueEvent, at: EventContext = { inEna: false }): Outcome<FatigueFinding> {
  const rule = EVENTS[event] as EventRule;
  const fatigues = rule.apply(state).state.status === 'fatigued' && state.status !== 'fatigued';
  // 13.1.3: in the first possible ENA after leaving MR, no action fatigues the unit; the exemption
  // lasts for the whole ENA (several events alike) and is ended by the game when the ENA ends.
  // An Overkill suffered from the enemy's GA or Barrage is not the unit's own action (13.1.3).
  const ownAction = event !== 'overkill' || at.overkillBy === 'own_attack';
  const exempt = Boolean(rule.exemptible) && ownAction && state.mrExemption && at.inEna && fatigues;
  const { state: after, why } = exempt
    ? {
        state,
        why: `No fatigue: this is its first possible Extended Night Activity since leaving Maneuver Reserve (${REF.reserve}); the exemption lasts until this ENA ends.`,
      }
    : rule.apply(state);
  const changed = after.status !== state.status;
  return outcome({
    kind: 'fatigue_event',
    result: after.status,
    label: changed ? `${cap(state.status)} → ${cap(after.status)}` : `Stays ${after.status}`,
    effect: why,
    tone: TONE[after.status],
    ref: rule.ref,
    before: state,
    after,
  });
}

export type RestingConditions = { tactical: boolean; adjacentEnemy: boolean; moved: boolean };

/** The Resting Phase: one step back toward normal when every condition holds; else the failed ones. */
export function recover(state: FatigueState, c: RestingConditions): Outcome<FatigueFinding> {
  const failed = [
    c.tactical ? undefined : 'it is not in Tactical mode',
    c.adjacentEnemy ? 'it is adjacent to an enemy unit' : undefined,
    c.moved ? 'it moved in the Movement Phase' : undefined,
  ].filter((x): x is string => x !== undefined);
  if (state.status === 'normal') {
    return outcome({
      kind: 'recovery',
      result: 'normal',
      label: 'Already normal',
      effect: 'It is neither resting nor fatigued: nothing to recover.',
      tone: 'good',
      ref: REF.recovery,
      before: state,
      after: state,
      failed: [],
    });
  }
  if (failed.length) {
    return outcome({
      kind: 'recovery',
      result: state.status,
      label: `No recovery: stays ${state.status}`,
      effect: `It cannot recover because ${failed.join(', and ')}.`,
      tone: TONE[state.status],
      ref: REF.recovery,
      before: state,
      after: state,
      failed,
    });
  }
  const after: FatigueState = { ...state, status: state.status === 'fatigued' ? 'resting' : 'normal' };
  return outcome({
    kind: 'recovery',
    result: after.status,
    label: `${cap(state.status)} → ${cap(after.status)}`,
    effect: after.status === 'resting' ? 'The Fatigue marker flips to its Resting side.' : 'The Resting marker is removed.',
    tone: TONE[after.status],
    ref: REF.recovery,
    before: state,
    after,
    failed: [],
  });
}

/** Halved or quartered, fractions rounded up, in integers. */
export function effectiveValue(v: number, status: FatigueStatus): number {
  if (status === 'resting') return Math.floor((v + 1) / 2);
  if (status === 'fatigued') return Math.floor((v + 3) / 4);
  return v;
}

export type Strengths = { attack: number; defense: number; movement: number };

export const effective = (s: Strengths, status: FatigueStatus): Strengths => ({
  attack: effectiveValue(s.attack, status),
  defense: effectiveValue(s.defense, status),
  movement: effectiveValue(s.movement, status),
});

export function restrictions(status: FatigueStatus): string[] {
  return status === 'normal' ? [] : ['may not give or receive a RIB', 'may not enter Prepared Assault or Combat Reserve mode'];
}

const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** The game's position as a key: which turn and phase a recovery or an exemption belongs to. */
export const positionKey = (g: { turn: number | null; phase: string | null }) => `${g.turn ?? '-'}|${g.phase === null ? '' : phaseKey(g.phase)}`;
