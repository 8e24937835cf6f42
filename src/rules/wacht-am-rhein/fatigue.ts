import type { Finding, Outcome, Tone } from '../types.js';
import { own } from '../../util/own.js';
import { list, said, type Said } from '../../i18n/said.js';
import { sayIn } from '../../i18n/speak.js';
import { worded } from '../words.js';

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
  ref: string;
  /** Fatigue from an action the unit took: what the MR exemption covers in its ENA. */
  exemptible?: true;
  /** The new state, and why, from the old one (and where it happened: whose attack an Overkill was). */
  apply(s: FatigueState, at: EventContext): { state: FatigueState; why: Said };
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

const toFatigued = (s: FatigueState, cause: Said) =>
  s.status === 'fatigued'
    ? { state: s, why: said('war.alreadyFatigued', { cause }) }
    : { state: { ...s, status: 'fatigued' as const }, why: said('war.becomesFatigued', { cause }) };

const toResting = (s: FatigueState, cause: Said) =>
  s.status === 'fatigued'
    ? { state: s, why: said('war.staysFatigued', { cause }) }
    : s.status === 'resting'
      ? { state: s, why: said('war.alreadyResting', { cause }) }
      : { state: { ...s, status: 'resting' as const }, why: said('war.goesResting', { cause }) };

/** The events of 13.1.0 and 13.1.3, as data; each is worded as `war.event.<code>` in the catalogs. */
export const EVENTS = {
  overkill: {
    ref: REF.status,
    exemptible: true,
    // Worded by whose attack it was, when told: the unit's own GA must not read as an enemy's.
    apply: (s, at) => toFatigued(s, said('war.cause.overkill', { by: at.overkillBy ?? 'untold' })),
  },
  ena_activated: {
    ref: `${REF.status}, ${REF.reserve}`,
    exemptible: true,
    apply: (s) => toFatigued(s, said('war.cause.enaActivated')),
  },
  ena_defended_full: {
    ref: REF.status,
    apply: (s) => toResting(s, said('war.cause.defendedFull')),
  },
  ena_defended_half: {
    ref: REF.status,
    apply: (s) => ({ state: s, why: said('war.defendedHalf') }),
  },
  defender_retreated: {
    ref: REF.status,
    apply: (s) => toResting(s, said('war.cause.retreated')),
  },
  ga_attack_while_resting: {
    // The unit is the attacker in the GA; being assaulted is not this event.
    ref: REF.status,
    exemptible: true,
    apply: (s) =>
      s.status === 'resting'
        ? { state: { ...s, status: 'fatigued' }, why: said('war.gaWhileResting') }
        : { state: s, why: said('war.onlyResting', { status: s.status }) },
  },
  left_maneuver_reserve: {
    ref: REF.reserve,
    apply: (s) => ({ state: { ...s, mrExemption: true }, why: said('war.leftMr') }),
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
  const fatigues = rule.apply(state, at).state.status === 'fatigued' && state.status !== 'fatigued';
  // 13.1.3: in the first possible ENA after leaving MR, no action fatigues the unit; the exemption
  // lasts for the whole ENA (several events alike) and is ended by the game when the ENA ends.
  // An Overkill suffered from the enemy's GA or Barrage is not the unit's own action (13.1.3).
  const ownAction = event !== 'overkill' || at.overkillBy === 'own_attack';
  const exempt = Boolean(rule.exemptible) && ownAction && state.mrExemption && at.inEna && fatigues;
  const { state: after, why } = exempt ? { state, why: said('war.exempt', { ref: REF.reserve }) } : rule.apply(state, at);
  return outcome({
    kind: 'fatigue_event',
    result: after.status,
    ...worded(after.status !== state.status ? change(state, after) : said('war.stays', { status: after.status }), why),
    tone: TONE[after.status],
    ref: rule.ref,
    before: state,
    after,
  });
}

export type RestingConditions = { tactical: boolean; adjacentEnemy: boolean; moved: boolean };

/** The Resting Phase: one step back toward normal when every condition holds; else the failed ones. */
export function recover(state: FatigueState, c: RestingConditions): Outcome<FatigueFinding> {
  const failing = [
    c.tactical ? undefined : said('war.notTactical'),
    c.adjacentEnemy ? said('war.adjacentEnemy') : undefined,
    c.moved ? said('war.moved') : undefined,
  ].filter((x): x is Said => x !== undefined);
  const failed = failing.map((f) => sayIn('en', f));
  if (state.status === 'normal') {
    return outcome({
      kind: 'recovery',
      result: 'normal',
      ...worded(said('war.alreadyNormal.label'), said('war.alreadyNormal.effect')),
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
      ...worded(said('war.noRecovery.label', { status: state.status }), said('war.noRecovery.effect', { failed: list(failing, 'chain') })),
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
    ...worded(change(state, after), said(after.status === 'resting' ? 'war.flips' : 'war.markerRemoved')),
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

export function restrictions(status: FatigueStatus): Said[] {
  return status === 'normal' ? [] : [said('war.noRib'), said('war.noModes')];
}

/** A change of status as a result's name: `Resting → Fatigued`. */
const change = (before: FatigueState, after: FatigueState) =>
  said('war.change', { from: said('war.Status', { status: before.status }), to: said('war.Status', { status: after.status }) });

/** The game's position as a key: which turn and phase a recovery or an exemption belongs to. */
export const positionKey = (g: { turn: number | null; phase: string | null }) => `${g.turn ?? '-'}|${g.phase === null ? '' : phaseKey(g.phase)}`;
