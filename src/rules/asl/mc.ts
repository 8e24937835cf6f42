import type { Roller } from '../../dice/roller.js';
import { enumerate, inputKey, remembered } from '../odds.js';
import { applied, sum, type Modifier, type Outcome, type Step, type Tone } from '../types.js';
import { CLASS_NAMES, CLASSES, catalog } from './catalog.js';
import { berserkCompanionChecks, hobExemption, hobStep, type HobInput, type HobStep, type NtcStep } from './hob.js';
import { displayName, type AslUnit } from './parse-unit.js';

export const TERRAINS = ['none', 'building', 'woods', 'pillbox', 'trench'] as const;
export type Terrain = (typeof TERRAINS)[number];

export const MC_REF = 'A10.1';
export const RALLY_REF = 'A10.6';
export const ELR_REF = 'A19.13';
export const CASUALTY_REDUCTION_REF = 'A7.302';

export type McResult = 'passed' | 'pinned' | 'broken' | 'casualty_reduction' | 'replaced' | 'disrupted' | 'eliminated';
export type RallyResult = 'rallied' | 'not_rallied' | 'fate';

export type CheckInput = {
  unit: AslUnit;
  check: 'mc' | 'rally';
  /** The #MC: 0 is a NMC. */
  number: number;
  /** Overrides the ML the unit's data gives. */
  ml: number | undefined;
  /** An unbroken leader's leadership DRM (MC), or the rallying leader's (rally). */
  leaderDrm: number | undefined;
  elr: number;
  /** Caused by the IFT: a Final equal to the ML pins. */
  ift: boolean;
  broken: boolean;
  terrain: Terrain;
  desperation: boolean;
  selfRally: boolean;
  /** Everything Heat of Battle needs if the Original DR is 2. */
  hob: Omit<HobInput, 'unit' | 'broken'>;
  companions: { unit: AslUnit; broken: boolean }[];
};

export type CheckStep = Step & { kind: 'mc' | 'rally'; ml: number; result: McResult | RallyResult; unit_before?: string; unit_after?: string };
export type CheckOutcome = Outcome<CheckStep | HobStep | NtcStep> & { result: McResult | RallyResult };

/** The Morale Level the check is made against: broken side when broken or rallying; Fanatic +1, at most 10. */
export function moraleLevel(input: CheckInput): { ml: number; note?: string } {
  if (input.ml !== undefined) return { ml: input.ml, note: `ML ${input.ml} as given` };
  const side = input.check === 'rally' || input.broken ? input.unit.brokenMl : input.unit.ml;
  if (side === undefined) throw new Error('the unit has no Morale Level: give `ml`');
  if (input.hob.fanatic && side < 10) return { ml: side + 1, note: `Fanatic: ML ${side} + 1` };
  return { ml: side };
}

export function checkModifiers(input: CheckInput): Modifier[] {
  const mods: Modifier[] = [];
  if (input.check === 'mc') {
    if (input.number > 0) mods.push({ reason: `${input.number}MC`, value: input.number });
    if (input.leaderDrm !== undefined) mods.push({ reason: 'leadership of an unbroken leader in the Location', value: input.leaderDrm });
  } else {
    if (input.leaderDrm !== undefined && !input.selfRally) mods.push({ reason: 'leadership of the rallying leader', value: input.leaderDrm });
    if (input.terrain !== 'none') mods.push({ reason: `in ${input.terrain}`, value: -1 });
    if (input.desperation) mods.push({ reason: 'under Desperation Morale', value: 4 });
    if (input.selfRally) mods.push({ reason: 'Self-Rally', value: 1 });
  }
  return applied(mods);
}

/** ELR failure: a broken unit of the next lower class, or Disrupted when there is none (A19.13). */
function replacement(unit: AslUnit): { to?: string; generic?: string } {
  if (unit.known) return unit.known.down ? { to: displayName(catalog(), unit.known.down) } : {};
  const i = unit.class ? CLASSES.indexOf(unit.class) : -1;
  return i > 0 ? { generic: `a broken ${CLASS_NAMES[CLASSES[i - 1]!]} unit of the same size` } : {};
}

function casualtyReduction(unit: AslUnit): string {
  if (unit.kind === 'leader') return 'the leader is wounded, or eliminated if already wounded (A17)';
  if (unit.kind === 'squad') {
    const half = unit.known?.half;
    return `it is reduced to a ${half ? displayName(catalog(), half) : 'half-squad'}`;
  }
  return 'a half-squad or single unit reduced is eliminated';
}

type Reading = { result: McResult | RallyResult; label: string; effect: string; tone: Tone; ref: string; before?: string; after?: string };

function readMc(input: CheckInput, original: number, final: number, ml: number): Reading {
  const u = input.unit;
  if (original === 12) {
    return input.broken
      ? { result: 'eliminated', label: 'Eliminated', effect: 'An Original 12 on a broken unit: it is eliminated.', tone: 'bad', ref: MC_REF }
      : { result: 'casualty_reduction', label: 'Casualty Reduction', effect: `An Original 12: ${casualtyReduction(u)}, and it is broken.`, tone: 'bad', ref: `${MC_REF}, ${CASUALTY_REDUCTION_REF}` };
  }
  if (final <= ml) {
    if (final === ml && input.ift && !input.broken) {
      return { result: 'pinned', label: 'Pinned', effect: `Final ${final} equals ML ${ml} on an IFT-caused check: it passes but is pinned.`, tone: 'mixed', ref: `${MC_REF}, A7.8` };
    }
    return { result: 'passed', label: 'Passed', effect: `Final ${final} ≤ ML ${ml}: no effect.`, tone: 'good', ref: MC_REF };
  }
  const by = final - ml;
  if (input.broken) {
    return { result: 'casualty_reduction', label: 'Casualty Reduction', effect: `Failed by ${by} while broken: ${casualtyReduction(u)}.`, tone: 'bad', ref: `${MC_REF}, ${CASUALTY_REDUCTION_REF}` };
  }
  if (by > input.elr && u.kind !== 'leader') {
    const r = replacement(u);
    if (r.to) {
      return { result: 'replaced', label: 'Replaced (ELR)', effect: `Failed by ${by}, more than its ELR of ${input.elr}: replace it with a broken ${r.to}.`, tone: 'bad', ref: ELR_REF, before: u.name, after: r.to };
    }
    if (r.generic) {
      return { result: 'replaced', label: 'Replaced (ELR)', effect: `Failed by ${by}, more than its ELR of ${input.elr}: replace it with ${r.generic}.`, tone: 'bad', ref: ELR_REF, before: u.name };
    }
    return { result: 'disrupted', label: 'Disrupted (ELR)', effect: `Failed by ${by}, more than its ELR of ${input.elr}, and there is no lower class: it breaks and is Disrupted.`, tone: 'bad', ref: `${ELR_REF}, A19.12` };
  }
  return { result: 'broken', label: 'Broken', effect: `Final ${final} > ML ${ml}: the unit breaks.`, tone: 'bad', ref: MC_REF };
}

function readRally(input: CheckInput, original: number, final: number, ml: number): Reading {
  if (original === 12) {
    return { result: 'fate', label: 'Fate', effect: `An Original 12: ${casualtyReduction(input.unit)}; it does not rally.`, tone: 'bad', ref: `${RALLY_REF}, ${CASUALTY_REDUCTION_REF}` };
  }
  if (original === 2) {
    return input.selfRally
      ? { result: 'rallied', label: 'Rallied', effect: 'An Original 2 on a Self-Rally: it rallies. No Heat of Battle; leader creation applies instead.', tone: 'good', ref: RALLY_REF }
      : { result: 'rallied', label: 'Rallied', effect: 'An Original 2 with a leader: it rallies, and takes a Heat of Battle DR (below).', tone: 'good', ref: RALLY_REF };
  }
  return final <= ml
    ? { result: 'rallied', label: 'Rallied', effect: `Final ${final} ≤ ML ${ml}: the unit rallies.`, tone: 'good', ref: RALLY_REF }
    : { result: 'not_rallied', label: 'Not rallied', effect: `Final ${final} > ML ${ml}: it stays broken.`, tone: 'bad', ref: RALLY_REF };
}

/** Why an Original 2 does not chain Heat of Battle here, or undefined when it does. */
export function hobChainBlocked(input: CheckInput): string | undefined {
  if (input.check === 'rally' && input.selfRally) return 'a Self-Rally never triggers Heat of Battle';
  return hobExemption({ unit: input.unit, status: input.hob.status, heroic: input.hob.heroic });
}

/** A Morale Check or Rally DR, chaining the Heat of Battle DR on an Original 2. */
export function moraleCheck(input: CheckInput, roller: Roller): CheckOutcome {
  const dice = [roller.roll(6), roller.roll(6)];
  const original = sum(dice);
  const modifiers = checkModifiers(input);
  const final = original + sum(modifiers.map((m) => m.value));
  const { ml, note } = moraleLevel(input);
  const r = input.check === 'mc' ? readMc(input, original, final, ml) : readRally(input, original, final, ml);
  const blocked = original === 2 ? hobChainBlocked(input) : undefined;
  const notes = [note, original === 2 && blocked ? `Original 2, but no Heat of Battle: ${blocked}.` : undefined].filter(Boolean);
  const step: CheckStep = {
    kind: input.check,
    dice,
    original,
    modifiers,
    final,
    ml,
    result: r.result,
    label: r.label,
    effect: [r.effect, ...notes].join(' '),
    tone: r.tone,
    ref: r.ref,
    ...(r.before ? { unit_before: r.before } : {}),
    ...(r.after ? { unit_after: r.after } : {}),
  };
  const steps: (CheckStep | HobStep | NtcStep)[] = [step];
  if (original === 2 && !blocked) {
    // The +1 broken DRM goes by the state when the 2 was rolled; a rally is always of a broken unit.
    const hobInput: HobInput = { ...input.hob, unit: input.unit, broken: input.broken || input.check === 'rally' };
    const trigger = `Original 2 on the ${input.check === 'mc' ? 'Morale Check' : 'Rally'}`;
    const hob = hobStep(hobInput, roller, trigger);
    steps.push(hob);
    if (hob.result === 'berserk' && input.unit.kind === 'leader') steps.push(...berserkCompanionChecks(input.unit, input.companions, roller));
  }
  return { system: 'asl', steps, result: step.result, tone: step.tone };
}

/** Results from best to worst, for "this result or better". */
export const MC_ORDER = ['passed', 'pinned', 'broken', 'replaced', 'disrupted', 'casualty_reduction', 'eliminated'] as const;
export const ASL_RALLY_ORDER = ['rallied', 'not_rallied', 'fate'] as const;
export const checkOrder = (input: CheckInput): readonly string[] => (input.check === 'mc' ? MC_ORDER : ASL_RALLY_ORDER);

/**
 * Exact distribution of a check. With `chain`, an Original 2's Heat of Battle result is part of
 * the outcome ("passed → hero"); without, only the check's own result counts.
 */
export function checkDistribution(input: CheckInput, chain = false) {
  const noCompanions = { ...input, companions: [] };
  return remembered(inputKey(`mc:${chain}`, noCompanions), () => enumerate(
    (dice) => moraleCheck(noCompanions, dice),
    (o) => {
      const hob = chain ? o.steps.find((s) => s.kind === 'hob') : undefined;
      return hob ? `${o.result} → ${hob.result}` : o.result;
    },
  ));
}
