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
  REF,
  SPECIAL_SITUATIONS,
  WOUNDED_HERO_COUNTER,
  type SpecialSituation,
  type HobBand,
  type HobResult,
  type OverrideCode,
} from './hob-table.js';
import { EXEMPT_KINDS, type AslUnit, type ExemptKind } from './parse-unit.js';
import { isLeader, tagsOf as unitTags, type SubType } from './traits.js';
import { option, said, type Said } from '../../i18n/said.js';
import { sayIn } from '../../i18n/speak.js';
import { because, lines, worded } from '../words.js';
import { articleOf, capitalized } from '../../util/text.js';

export { SUB_TYPES, type SubType } from './traits.js';

/** Statuses under which a unit takes no Heat of Battle DR (A15.1); each is worded as `asl.exempt.<status>`. */
export const HOB_STATUS_CODES = ['none', 'human_wave', 'climbing', 'swimming', 'wading', 'boat', 'parachute', 'berserk'] as const;
export type HobStatus = (typeof HOB_STATUS_CODES)[number];

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
export function hobExemption(input: Pick<HobInput, 'unit' | 'status' | 'heroic'>): Said | undefined {
  const kind = input.unit.kind;
  if ((EXEMPT_KINDS as readonly string[]).includes(kind)) return said(`asl.exempt.${kind as ExemptKind}`);
  if (input.heroic) return said('asl.exempt.hero');
  return !input.status || input.status === 'none' ? undefined : said(`asl.exempt.${input.status}`);
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
  if (s?.japaneseOnly && unit.nationality !== 'japanese')
    return said('japaneseSituation', { situation: option('situation'), given: situation!, text: said('asl.situation', { situation: situation! }) });
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
  const row = (r: keyof typeof HOB_DRM) => mods.push(because(said(`asl.drm.${r}`), HOB_DRM[r]));
  if (isLeader(u) && !isPartisan(u)) row('leaderElite');
  else if (u.class === 'elite' && !isPartisan(u)) row('elite');
  // One nationality row at most: the nationality's own (a Partisan is its own nationality here).
  // The nationality by its code: each language names it (a reason in English text would stay English).
  if (nat && nat.hobDrm !== 0) mods.push(because(said('asl.drm.nationality', { nat: nat.key }), nat.hobDrm));
  if (tagsOf(input).has('nkvd')) row('nkvd');
  if (input.broken) row('broken');
  // Partisans are never Inexperienced, whatever class they are given (A25.24).
  if (!isLeader(u) && !isPartisan(u) && u.class === 'conscript') row('conscript');
  if (!isLeader(u) && !isPartisan(u) && u.class === 'green' && !input.withLeader) row('green');
  return applied(mods);
}

/** Units that never surrender to a Heat of Battle DR, and why (A15.5). */
export function neverSurrenders(input: HobInput): Said | undefined {
  const who = neverSurrendering(input);
  return who ? said('asl.never', { who }) : undefined;
}

function neverSurrendering(input: HobInput): string | undefined {
  const tags = tagsOf(input);
  if (input.unit.nationality === 'japanese' || input.unit.nationality === 'partisan') return input.unit.nationality;
  if (tags.has('gurkha')) return 'gurkha';
  if (tags.has('commissar')) return 'commissar';
  if (input.fanatic) return 'fanatic';
  if (tags.has('ss') && input.vsRussians) return 'ss';
  if (input.noQuarter) return 'no_quarter';
  return undefined;
}

type Hardening =
  | { kind: 'swap'; to: string }
  | { kind: 'fanatic' }
  | { kind: 'already_fanatic' }
  | { kind: 'generic'; to: Said }
  | { kind: 'unchanged'; why: Said };

/** What Battle Hardening does to this unit (A15.3); `subType` adds the sub-type the options give. */
export function hardeningOf(unit: AslUnit, alreadyFanatic: boolean, subType: SubType = 'none'): Hardening {
  const cat = catalog();
  const tags = unitTags(unit, subType);
  if (tags.has('commissar')) return { kind: 'unchanged', why: said('asl.hard.commissar') };
  const known = unit.known;
  let up: KnownUnit | 'fanatic' | undefined = known?.up;
  // Units outside the data, and a sub-type given as an option, take the Fanatic cases by class and sub-type.
  if (!isLeader(unit) && hardensToFanatic(cat.fanatic, unit.nationality, unit.class, [...tags])) up = 'fanatic';
  // Decision (docs/rules-decisions.md): A15.3 makes Fanatic "the best possible leader or partisan",
  // and names Partisans without limiting them to MMC: a Partisan leader becomes Fanatic, not a grade higher.
  if (isLeader(unit) && unit.nationality === 'partisan') up = 'fanatic';
  if (up === 'fanatic') return alreadyFanatic ? { kind: 'already_fanatic' } : { kind: 'fanatic' };
  if (up) return { kind: 'swap', to: up.name };
  if (isLeader(unit)) return { kind: 'generic', to: said('asl.hard.toLeader') };
  const next = unit.class ? CLASSES[CLASSES.indexOf(unit.class) + 1] : undefined;
  return { kind: 'generic', to: next ? said('asl.hard.toClass', { class: CLASS_NAMES[next]! }) : said('asl.hard.toNextClass') };
}

type Effect = { text: Said; tone: Tone; fields: Partial<HobStep> };

function heroEffect(input: HobInput, alsoHardened: boolean): Said {
  const nat = catalog().nationalities.get(input.unit.nationality)?.name ?? '';
  if (isLeader(input.unit)) return said('asl.hero.leader');
  const Article = capitalized(articleOf(nat));
  const text = said('asl.hero.mmc', { Article, nat, hero: HERO_COUNTER, wounded: WOUNDED_HERO_COUNTER, hardened: alsoHardened ? 'yes' : 'no' });
  // A hero created from a Fanatic MMC is Fanatic too (A10.8).
  return input.fanatic ? said('asl.hero.fanatic', { text, ref: REF.fanatic }) : text;
}

function hardeningEffect(input: HobInput): Effect {
  const h = hardeningOf(input.unit, input.fanatic, input.subType);
  switch (h.kind) {
    case 'unchanged':
      return { text: h.why, tone: 'neutral', fields: {} };
    case 'swap':
      return {
        text: said('asl.hard.swap', { unit: input.unit.name, to: h.to }),
        tone: 'good',
        fields: { unit_before: input.unit.name, unit_after: h.to, refusable: true },
      };
    case 'generic':
      return { text: said('asl.hard.generic', { to: h.to }), tone: 'good', fields: { unit_before: input.unit.name, refusable: true } };
    case 'fanatic':
      return { text: said('asl.hard.fanatic', { ref: REF.fanatic }), tone: 'good', fields: { fanatic: true, refusable: true } };
    case 'already_fanatic':
      return { text: said('asl.hard.alreadyFanatic'), tone: 'neutral', fields: {} };
  }
}

function berserkEffect(input: HobInput): Said {
  if (tagsOf(input).has('commissar')) return said('asl.berserk.commissar');
  const base = said('asl.berserk');
  return isLeader(input.unit) ? said('asl.berserk.leader', { base, ref: REF.berserkLeader }) : base;
}

function effectOf(result: HobResult, input: HobInput): Effect {
  switch (result) {
    case 'hero':
      return { text: heroEffect(input, false), tone: 'good', fields: {} };
    case 'hero_and_battle_hardening': {
      const h = hardeningEffect(input);
      return { text: lines([heroEffect(input, true), h.text]), tone: 'good', fields: h.fields };
    }
    case 'battle_hardening':
      return hardeningEffect(input);
    case 'berserk':
      return { text: berserkEffect(input), tone: 'mixed', fields: {} };
    case 'surrender':
      return { text: said('asl.surrender'), tone: 'bad', fields: {} };
    case 'disrupted':
      return { text: said('asl.disrupted', { ref: REF.disrupted }), tone: 'bad', fields: {} };
  }
}

const HOB_RESULTS: readonly HobResult[] = ['hero', 'hero_and_battle_hardening', 'battle_hardening', 'berserk', 'surrender', 'disrupted'];
/** Each result's name, in English (the catalogs' `asl.hob.<result>`). */
export const HOB_LABELS = Object.fromEntries(HOB_RESULTS.map((r) => [r, sayIn('en', said(`asl.hob.${r}`))])) as Record<HobResult, string>;

/** One Heat of Battle DR: 2d6 (coloured die first) + DRM, the band, then the overrides in order. */
export function hobStep(input: HobInput, roller: Roller, trigger?: string): HobStep {
  const exempt = hobExemption(input);
  if (exempt) throw new Error(`no Heat of Battle: ${sayIn('en', exempt)}`);
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
  const notes = overrides.map((o) =>
    said('asl.override', {
      text:
        o === 'never_surrender'
          ? said('asl.override.never_surrender', { who: neverSurrenders(input)! })
          : o === 'special_situation'
            ? said('asl.override.special_situation', { situation: said('asl.situation', { situation: input.situation! }) })
            : said(`asl.override.${o}`),
    }),
  );
  return {
    kind: 'hob',
    dice,
    original,
    modifiers,
    final,
    band,
    overrides,
    result,
    ...worded(said(`asl.hob.${result}`), lines([...notes, effect.text])),
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
          ...worded(said('asl.ntc.berserk', { unit: unit.name }), said('asl.ntc.commissar')),
          tone: 'mixed' as const,
          ref: 'A25.223',
        };
      }
      const dice = [roller.roll(6), roller.roll(6)];
      const original = sum(dice);
      const modifiers = applied([because(said(wounded ? 'asl.ntc.leadershipWounded' : 'asl.ntc.leadership', { leader: leader.name }), drm)]);
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
        ...worded(
          said(pass ? 'asl.ntc.berserk' : 'asl.ntc.no_change', { unit: unit.name }),
          said(pass ? 'asl.ntc.pass' : 'asl.ntc.fail', {
            final: String(final),
            ml: String(ml),
            wounded: wounded ? said('asl.ntc.wounded', { drm: signed(leader.leadership ?? 0), worse: signed(drm) }) : '',
          }),
        ),
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
