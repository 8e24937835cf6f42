import type { Roller } from '../../dice/roller.js';
import { signed } from '../../util/numbers.js';
import { enumerate, inputKey, remembered } from '../odds.js';
import { applied, bandFor, sum, type Modifier, type Outcome, type Step, type Tone } from '../types.js';
import { CLASS_NAMES, CLASSES, catalog, hardensToFanatic, type KnownUnit } from './catalog.js';
import {
  HERO_COUNTER,
  HOB_BANDS,
  HOB_DRM,
  HOB_REF,
  OVERRIDES,
  REF,
  SPECIAL_SITUATIONS,
  WOUNDED_HERO_COUNTER,
  type SpecialSituation,
  type HobBand,
  type HobResult,
  type OverrideCode,
} from './hob-table.js';
import { EXEMPT_KINDS, type AslUnit } from './parse-unit.js';
import { article, isLeader, tagsOf as unitTags, type SubType } from './traits.js';
import { option, said, type Said } from '../../i18n/said.js';

export { SUB_TYPES, type SubType } from './traits.js';

/** Statuses under which a unit takes no Heat of Battle DR, with the reason (A15.1). */
export const HOB_STATUSES = {
  none: undefined,
  human_wave: 'units taking part in a Human Wave are not subject to Heat of Battle',
  climbing: 'climbing units are not subject to Heat of Battle',
  swimming: 'swimming units are not subject to Heat of Battle',
  wading: 'wading units are not subject to Heat of Battle',
  boat: 'units in boats are not subject to Heat of Battle',
  parachute: 'units on parachute counters are not subject to Heat of Battle',
  berserk: 'units already berserk are not subject to Heat of Battle',
} as const;
export type HobStatus = keyof typeof HOB_STATUSES;
export const HOB_STATUS_CODES = Object.keys(HOB_STATUSES) as [HobStatus, ...HobStatus[]];

/** Which nationality a sub-type belongs to; any other is refused. */
export const SUB_TYPE_NATIONALITY: Record<Exclude<SubType, 'none'>, string> = {
  ss: 'german',
  nkvd: 'russian',
  gurkha: 'british',
  commissar: 'russian',
  volksgrenadier: 'german',
};

export type HobInput = {
  unit: AslUnit;
  /** Broken when the Original 2 was rolled (even if that 2 rallied it). */
  broken: boolean;
  /** Stacked with an unbroken leader: a Green MMC is then not inexperienced. */
  withLeader: boolean;
  enemyInLos: boolean;
  enemyAdjacent: boolean;
  fanatic: boolean;
  subType: SubType;
  vsRussians: boolean;
  noQuarter: boolean;
  status: HobStatus;
  /** A heroic leader (already made heroic) is exempt. */
  heroic?: boolean;
  /** A note of the A15.1 table that turns Berserk or Surrender into Battle Hardening. */
  situation?: SpecialSituation;
  /** A wounded leader: his leadership DRM is one worse for his berserk companions' NTCs (A17.3). */
  wounded?: boolean;
};

export type HobStep = Step & {
  kind: 'hob';
  result: HobResult;
  band: HobBand;
  overrides: OverrideCode[];
  /** Set where a substitution happens. */
  unit_before?: string;
  unit_after?: string;
  fanatic?: true;
  /** What triggered this DR when it is chained from a check. */
  trigger?: string;
  /** The rules give the owner the choice to refuse. */
  refusable?: true;
};

export type HobOutcome = Outcome<HobStep | NtcStep> & { result: HobResult };

export type NtcStep = Step & { kind: 'ntc'; unit: string; ml: number; result: 'berserk' | 'no_change' };

/** Why this unit takes no Heat of Battle DR, or undefined when it does. */
export function hobExemption(input: Pick<HobInput, 'unit' | 'status' | 'heroic'>): string | undefined {
  const kind = input.unit.kind;
  if (kind in EXEMPT_KINDS) return EXEMPT_KINDS[kind as keyof typeof EXEMPT_KINDS];
  if (input.heroic) return EXEMPT_KINDS.hero;
  return HOB_STATUSES[input.status];
}

/** A sub-type that does not fit the unit's nationality, as an error sentence. */
export function subTypeConflict(unit: AslUnit, subType: SubType): Said | undefined {
  if (subType === 'none') return undefined;
  const nat = SUB_TYPE_NATIONALITY[subType];
  if (unit.nationality !== nat)
    return said('subTypeNationality', {
      sub_type: option('sub_type'),
      given: subType,
      nat: catalog().nationalities.get(nat)!.name,
      unit: catalog().nationalities.get(unit.nationality)?.name ?? unit.nationality,
    });
  if (subType === 'commissar' && unit.kind !== 'leader') return said('commissarIsLeader', { sub_type: option('sub_type') });
  return undefined;
}

/** A situation that does not fit the unit, as an error sentence. */
export function situationConflict(unit: AslUnit, situation: SpecialSituation | undefined): Said | undefined {
  const s = situation ? SPECIAL_SITUATIONS[situation] : undefined;
  if (s?.japaneseOnly && unit.nationality !== 'japanese') return said('japaneseSituation', { situation: option('situation'), given: situation!, text: s.text });
  return undefined;
}

const tagsOf = (input: Pick<HobInput, 'unit' | 'subType'>) => unitTags(input.unit, input.subType);
const isPartisan = (u: AslUnit) => u.nationality === 'partisan';
/** Elite for Heat of Battle: class E MMC, and leaders except Partisan leaders (A25.24). */
const isEliteish = (u: AslUnit) => (isLeader(u) && !isPartisan(u)) || u.class === 'elite';

export function hobModifiers(input: HobInput): Modifier[] {
  const u = input.unit;
  const nat = catalog().nationalities.get(u.nationality);
  const mods: Modifier[] = [];
  if (isLeader(u) && !isPartisan(u)) mods.push({ ...HOB_DRM.leaderElite });
  else if (u.class === 'elite' && !isPartisan(u)) mods.push({ ...HOB_DRM.elite });
  // One nationality row at most: the nationality's own (a Partisan is its own nationality here).
  if (nat && nat.hobDrm !== 0) mods.push({ reason: nat.name, value: nat.hobDrm });
  if (tagsOf(input).has('nkvd')) mods.push({ ...HOB_DRM.nkvd });
  if (input.broken) mods.push({ ...HOB_DRM.broken });
  // Partisans are never Inexperienced, whatever class they are given (A25.24).
  if (!isLeader(u) && !isPartisan(u) && u.class === 'conscript') mods.push({ ...HOB_DRM.conscript });
  if (!isLeader(u) && !isPartisan(u) && u.class === 'green' && !input.withLeader) mods.push({ ...HOB_DRM.green });
  return applied(mods);
}

/** Units that never surrender to a Heat of Battle DR, and why (A15.5). */
export function neverSurrenders(input: HobInput): string | undefined {
  const tags = tagsOf(input);
  if (input.unit.nationality === 'japanese') return 'Japanese';
  if (input.unit.nationality === 'partisan') return 'Partisan';
  if (tags.has('gurkha')) return 'Gurkha';
  if (tags.has('commissar')) return 'Commissar';
  if (input.fanatic) return 'Fanatic';
  if (tags.has('ss') && input.vsRussians) return 'SS fighting Russians';
  if (input.noQuarter) return 'No Quarter';
  return undefined;
}

type Hardening =
  | { kind: 'swap'; to: string }
  | { kind: 'fanatic' }
  | { kind: 'already_fanatic' }
  | { kind: 'generic'; to: string }
  | { kind: 'unchanged'; why: string };

/** What Battle Hardening does to this unit (A15.3); `subType` adds the sub-type the options give. */
export function hardeningOf(unit: AslUnit, alreadyFanatic: boolean, subType: SubType = 'none'): Hardening {
  const cat = catalog();
  const tags = unitTags(unit, subType);
  if (tags.has('commissar')) return { kind: 'unchanged', why: 'A Commissar is never substituted (A25.221): Battle Hardening leaves him unchanged.' };
  const known = unit.known;
  let up: KnownUnit | 'fanatic' | undefined = known?.up;
  // Units outside the data, and a sub-type given as an option, take the Fanatic cases by class and sub-type.
  if (!isLeader(unit) && hardensToFanatic(cat.fanatic, unit.nationality, unit.class, [...tags])) up = 'fanatic';
  // Decision (docs/rules-decisions.md): A15.3 makes Fanatic "the best possible leader or partisan",
  // and names Partisans without limiting them to MMC: a Partisan leader becomes Fanatic, not a grade higher.
  if (isLeader(unit) && unit.nationality === 'partisan') up = 'fanatic';
  if (up === 'fanatic') return alreadyFanatic ? { kind: 'already_fanatic' } : { kind: 'fanatic' };
  if (up) return { kind: 'swap', to: up.name };
  if (isLeader(unit)) return { kind: 'generic', to: 'an unbroken, unpinned leader of the next higher grade' };
  const next = unit.class ? CLASSES[CLASSES.indexOf(unit.class) + 1] : undefined;
  return {
    kind: 'generic',
    to: next
      ? `an unbroken, unpinned ${CLASS_NAMES[next]} unit of the same size (the next higher class)`
      : 'an unbroken, unpinned unit of the next higher class of the same size',
  };
}

type Effect = { text: string; tone: Tone; fields: Partial<HobStep> };

function heroEffect(input: HobInput, alsoHardened: boolean): string {
  const nat = catalog().nationalities.get(input.unit.nationality)?.name ?? '';
  if (isLeader(input.unit)) {
    return 'The leader becomes heroic: he rallies if broken, keeps his leadership DRM, and is exempt from Heat of Battle from now on (A15.2).';
  }
  const who = article(nat);
  // A hero created from a Fanatic MMC is Fanatic too (A10.8).
  const fanatic = input.fanatic ? ` Created from a Fanatic unit, the hero is Fanatic too (${REF.fanatic}).` : '';
  return `${who[0]!.toUpperCase()}${who.slice(1)} ${HERO_COUNTER} hero (wounded side ${WOUNDED_HERO_COUNTER}) is created in the unit's Location with its fire and movement status; the unit itself ${alsoHardened ? 'is also battle hardened (below)' : 'is unchanged'} (A15.2).${fanatic}`;
}

function hardeningEffect(input: HobInput): Effect {
  const h = hardeningOf(input.unit, input.fanatic, input.subType);
  const owner = ' Its owner may refuse this.';
  switch (h.kind) {
    case 'unchanged':
      return { text: h.why, tone: 'neutral', fields: {} };
    case 'swap':
      return {
        text: `Battle hardened: replace ${input.unit.name} with an unbroken, unpinned ${h.to}.${owner} (A15.3)`,
        tone: 'good',
        fields: { unit_before: input.unit.name, unit_after: h.to, refusable: true },
      };
    case 'generic':
      return {
        text: `Battle hardened: replace it with ${h.to}; no number of its strength factor may drop, and of two candidates take the one that gains least.${owner} (A15.3)`,
        tone: 'good',
        fields: { unit_before: input.unit.name, refusable: true },
      };
    case 'fanatic':
      return {
        text: `Battle hardening makes it Fanatic instead: +1 to both its Morale Levels (at most 10), for the rest of the game.${owner} (A15.3, ${REF.fanatic})`,
        tone: 'good',
        fields: { fanatic: true, refusable: true },
      };
    case 'already_fanatic':
      return { text: 'It is already Fanatic: a further Battle Hardening result has no effect (A15.3).', tone: 'neutral', fields: {} };
  }
}

function berserkEffect(input: HobInput): string {
  if (tagsOf(input).has('commissar')) {
    return 'Berserk: its ML becomes 10 and it must charge the nearest Known enemy unit in its LOS (A15.4). Every friendly Infantry unit in his Location that is subject to Heat of Battle goes berserk at once, with no NTC (A25.223).';
  }
  const base =
    'Berserk: its ML becomes 10, it rallies if broken, loses any CX, TI, concealment and pin, never gets a leadership DRM, and in its MPh must charge the nearest Known enemy unit in its LOS with 8 MF (A15.4).';
  return isLeader(input.unit)
    ? `${base} Every other HoB-eligible friendly unit in his Location takes an NTC modified by his leadership; then he loses his leadership DRM until he returns to normal (${REF.berserkLeader}).`
    : base;
}

function effectOf(result: HobResult, input: HobInput): Effect {
  switch (result) {
    case 'hero':
      return { text: heroEffect(input, false), tone: 'good', fields: {} };
    case 'hero_and_battle_hardening': {
      const h = hardeningEffect(input);
      return { text: `${heroEffect(input, true)}\n${h.text}`, tone: 'good', fields: h.fields };
    }
    case 'battle_hardening':
      return hardeningEffect(input);
    case 'berserk':
      return { text: berserkEffect(input), tone: 'mixed', fields: {} };
    case 'surrender':
      return {
        text: 'It becomes broken (if not already) and Disrupted, and surrenders to the ADJACENT enemy unit by the RtPh method (A15.5, A20.21).',
        tone: 'bad',
        fields: {},
      };
    case 'disrupted':
      return {
        text: `No Known enemy is ADJACENT, so it does not surrender: it becomes broken (if not already) and Disrupted (A15.5, ${REF.disrupted}).`,
        tone: 'bad',
        fields: {},
      };
  }
}

export const HOB_LABELS: Record<HobResult, string> = {
  hero: 'Hero',
  hero_and_battle_hardening: 'Hero and Battle Hardening',
  battle_hardening: 'Battle Hardening',
  berserk: 'Berserk',
  surrender: 'Surrender',
  disrupted: 'Disrupted',
};

/** One Heat of Battle DR: 2d6 (coloured die first) + DRM, the band, then the overrides in order. */
export function hobStep(input: HobInput, roller: Roller, trigger?: string): HobStep {
  const exempt = hobExemption(input);
  if (exempt) throw new Error(`no Heat of Battle: ${exempt}`);
  const dice = [roller.roll(6), roller.roll(6)];
  const original = sum(dice);
  const modifiers = hobModifiers(input);
  const final = original + sum(modifiers.map((m) => m.value));
  const band = bandFor(HOB_BANDS, final).code;
  const overrides: OverrideCode[] = [];
  let result: HobResult = band;
  const override = (code: OverrideCode, to: HobResult) => {
    overrides.push(code);
    result = to;
  };
  const nat = input.unit.nationality;
  if ((nat === 'italian' || nat === 'axis_minor') && !isEliteish(input.unit) && final >= 10 && result !== 'surrender') {
    override('minor_surrender', 'surrender');
  }
  if (result === 'surrender' && neverSurrenders(input)) override('never_surrender', 'berserk');
  if ((result === 'berserk' || result === 'surrender') && input.situation && SPECIAL_SITUATIONS[input.situation]) {
    override('special_situation', 'battle_hardening');
  }
  if (result === 'berserk' && !input.enemyInLos) override('no_enemy_in_los', 'battle_hardening');
  if (result === 'surrender' && !input.enemyAdjacent) override('no_adjacent_enemy', 'disrupted');
  const effect = effectOf(result, input);
  const notes = overrides.map((o) => {
    const why = o === 'never_surrender' ? ` (${neverSurrenders(input)})` : o === 'special_situation' ? ` (${SPECIAL_SITUATIONS[input.situation!]!.text})` : '';
    return `${OVERRIDES[o].text}${why}`;
  });
  return {
    kind: 'hob',
    dice,
    original,
    modifiers,
    final,
    band,
    overrides,
    result,
    label: HOB_LABELS[result],
    effect: [...notes.map((n) => `Override: ${n}.`), effect.text].join('\n'),
    tone: effect.tone,
    ref: HOB_REF,
    ...effect.fields,
    ...(trigger ? { trigger } : {}),
  };
}

/**
 * A berserk leader's companions each take an NTC modified by his leadership (A15.41); a berserk
 * Commissar's go berserk at once, with no NTC (A25.223).
 */
export function berserkCompanionChecks(
  leader: AslUnit,
  companions: { unit: AslUnit; broken: boolean }[],
  roller: Roller,
  subType: SubType = 'none',
  wounded = false,
): NtcStep[] {
  // A wounded leader's leadership is one worse for every DRM he gives (A17.3): −1 → 0, 0 → +1.
  const drm = (leader.leadership ?? 0) + (wounded ? 1 : 0);
  const commissar = unitTags(leader, subType).has('commissar');
  return companions
    .filter((c) => !hobExemption({ unit: c.unit, status: 'none' }))
    .map(({ unit, broken }) => {
      const ml = broken ? unit.brokenMl : unit.ml;
      // The options refuse a companion with no ML before anything is rolled; the rules never guess one.
      if (ml === undefined) throw new Error(`${unit.name} has no Morale Level`);
      if (commissar) {
        return {
          kind: 'ntc' as const,
          unit: unit.name,
          ml,
          dice: [],
          original: 0,
          modifiers: [],
          final: 0,
          result: 'berserk' as const,
          label: `${unit.name}: berserk`,
          effect: 'The Commissar went berserk: it goes berserk too, with no NTC.',
          tone: 'mixed' as const,
          ref: 'A25.223',
        };
      }
      const dice = [roller.roll(6), roller.roll(6)];
      const original = sum(dice);
      const modifiers = applied([{ reason: `leadership of the berserk ${leader.name}${wounded ? ', wounded: one worse (A17.3)' : ''}`, value: drm }]);
      const final = original + drm;
      const pass = final <= ml;
      return {
        kind: 'ntc' as const,
        unit: unit.name,
        ml,
        dice,
        original,
        modifiers,
        final,
        result: pass ? ('berserk' as const) : ('no_change' as const),
        label: pass ? `${unit.name}: berserk` : `${unit.name}: no change`,
        effect: `${pass ? `Final ${final} ≤ ML ${ml}: it goes berserk too.` : `Final ${final} > ML ${ml}: its status does not change.`}${
          wounded ? ` (He is wounded: his leadership DRM ${signed(leader.leadership ?? 0)} is one worse, ${signed(drm)}, A17.3.)` : ''
        }`,
        tone: pass ? ('mixed' as const) : ('neutral' as const),
        ref: REF.berserkLeader,
      };
    });
}

/** A /hob roll: the DR, and a berserk leader's companions' NTCs. */
export function heatOfBattle(input: HobInput, roller: Roller, companions: { unit: AslUnit; broken: boolean }[] = [], trigger?: string): HobOutcome {
  const step = hobStep(input, roller, trigger);
  const ntcs =
    step.result === 'berserk' && isLeader(input.unit) ? berserkCompanionChecks(input.unit, companions, roller, input.subType, input.wounded ?? false) : [];
  return { system: 'asl', steps: [step, ...ntcs], result: step.result, tone: step.tone };
}

/** Results from best to worst for the unit, for "this result or better". */
export const HOB_ORDER = ['hero', 'hero_and_battle_hardening', 'battle_hardening', 'berserk', 'disrupted', 'surrender'] as const;

export const hobDistribution = (input: HobInput) =>
  remembered(inputKey('hob', input), () =>
    enumerate(
      (dice) => hobStep(input, dice),
      (s) => s.result,
    ),
  );
