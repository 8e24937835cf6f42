import type { Roller } from '../../dice/roller.js';
import { enumerate, inputKey, remembered } from '../odds.js';
import { applied, sum, type Modifier, type Outcome, type Step, type Tone } from '../types.js';
import { CLASS_NAMES, CLASSES } from './catalog.js';
import { WOUNDED_HERO_COUNTER } from './hob-table.js';
import { berserkCompanionChecks, hobExemption, hobStep, type HobInput, type HobStep, type NtcStep } from './hob.js';
import type { AslUnit } from './parse-unit.js';
import { elrImmune, isCommissar, isLeader, isMmc, isSmc, neverDisrupted, woundedConflict } from './traits.js';
import { command, option, said, type Said, type Value } from '../../i18n/said.js';
import { sayIn } from '../../i18n/speak.js';
import { because, joined, worded } from '../words.js';
import { articleOf } from '../../util/text.js';

export const TERRAINS = ['none', 'building', 'woods', 'pillbox', 'trench'] as const;
export const COMMISSAR_ROLES = ['none', 'in_location', 'leads_rally'] as const;
export type CommissarRole = (typeof COMMISSAR_ROLES)[number];
export type Terrain = (typeof TERRAINS)[number];

export const MC_REF = 'A10.1';
export const CASUALTY_MC_REF = 'A10.31';
export const RALLY_REF = 'A10.6';
export const ELR_REF = 'A19.13';
export const CASUALTY_REDUCTION_REF = 'A7.302';
export const WOUND_REF = 'A17.11';
/** ELR when neither the options nor the unit data give one. */
export const DEFAULT_ELR = 3;

export type McResult =
  | 'passed'
  | 'pinned'
  | 'step_reduced'
  | 'broken'
  | 'wounded'
  | 'replaced'
  | 'disrupted'
  | 'casualty_reduction'
  | 'elr_unresolved'
  | 'eliminated';
export type RallyResult = 'rallied' | 'not_rallied' | 'replaced' | 'casualty_reduction' | 'fate' | 'eliminated';

export type CheckInput = {
  unit: AslUnit;
  check: 'mc' | 'rally';
  /** The #MC: 0 is a NMC. */
  number: number;
  /** Overrides the ML the unit's data gives. */
  ml: number | undefined;
  /** An unbroken leader's leadership DRM (MC), or the rallying leader's (rally). */
  leaderDrm: number | undefined;
  /** The ELR; undefined takes the unit's own (5 for underscored MLs and Partisans) or DEFAULT_ELR. */
  elr: number | undefined;
  /** Caused by the IFT (or Collateral, Bombardment, FPF): a Final equal to the ML pins. */
  ift: boolean;
  broken: boolean;
  /** A wounded SMC (A17). */
  wounded: boolean;
  terrain: Terrain;
  desperation: boolean;
  selfRally: boolean;
  /** Self-Rally: the player's first MMC rally attempt of his own RPh (A18.11). */
  firstRally: boolean;
  /**
   * A Commissar with the unit (A25.22): `in_location` gives +1 ML on this MC or on a rally another
   * leader leads; `leads_rally` makes him the rallying leader (+1 ML, no Desperation, A25.222).
   */
  commissar: CommissarRole;
  /** Everything Heat of Battle needs if the Original DR is 2; `status: berserk` is a berserk unit. */
  hob: Omit<HobInput, 'unit' | 'broken'>;
  companions: { unit: AslUnit; broken: boolean }[];
};

/** What the result does to the unit, for a roster to apply: the rules decide it, the roster only writes it. */
export type Becomes = {
  counter?: string;
  broken?: boolean;
  disrupted?: boolean;
  berserk?: boolean;
  wounded?: boolean;
  eliminated?: true;
  /** Two of the new counter (a squad exchanged for two HS). */
  two?: true;
};

export type CheckStep = Step & {
  kind: 'mc' | 'rally';
  ml: number;
  result: McResult | RallyResult;
  unit_before?: string;
  unit_after?: string;
  becomes?: Becomes;
};
export type WoundStep = Step & { kind: 'wound'; result: 'wounded' | 'killed'; becomes: Becomes };
export type CheckOutcome = Outcome<CheckStep | WoundStep | HobStep | NtcStep> & { result: McResult | RallyResult };

const berserkOf = (input: CheckInput) => input.hob.status === 'berserk';
const heroLike = (input: CheckInput) => input.unit.kind === 'hero' || (input.hob.heroic ?? false);
const commissarItself = (input: CheckInput) => isCommissar(input.unit, input.hob.subType);
/** A Commissar in the Location adds +1 to the other units' ML (A25.221–.222). */
const commissarNear = (input: CheckInput) => input.commissar !== 'none' && !commissarItself(input);
/**
 * The rallying leader's DRM. A rally that is no Self-Rally always has a rallying leader (checkConflict
 * refuses one with neither), so only a Commissar who leads it can come without `leader_drm`: 0.
 */
const rallyLeaderDrm = (input: CheckInput) => input.leaderDrm ?? 0;
const japaneseSquad = (u: AslUnit) => u.nationality === 'japanese' && u.kind === 'squad';
const reducedSide = (u: AslUnit) => u.known?.reduced ?? false;

/** A check the rules cannot take as given, as the sentence that refuses it; undefined when it can be rolled. */
export function checkConflict(input: CheckInput): Said | undefined {
  const u = input.unit;
  if (japaneseSquad(u) && (input.broken || input.check === 'rally')) return said('japaneseSquadUnbroken', { unit: u.name });
  if (heroLike(input) && (input.broken || input.check === 'rally')) return said('heroNeverBroken', { unit: u.name });
  if (berserkOf(input) && (input.broken || input.check === 'rally')) return said('berserkNeverBroken', { unit: u.name, edit: command('unit edit') });
  if (input.commissar === 'leads_rally' && input.check !== 'rally') return said('commissarLeadsRally', { commissar: option('commissar') });
  if (input.commissar === 'leads_rally' && input.selfRally) return said('selfRallyNoCommissar');
  // Commissars are Russian (A25.22), as sub_type:nkvd is: on another nationality's unit he is refused.
  if (input.commissar !== 'none' && u.nationality !== 'russian')
    return said('commissarsRussian', { commissar: option('commissar'), given: input.commissar, unit: u.name });
  if (input.commissar !== 'none' && commissarItself(input)) return said('isTheCommissar', { unit: u.name });
  if (input.check === 'rally' && !input.selfRally && input.leaderDrm === undefined && input.commissar !== 'leads_rally')
    return said('whoRallies', { unit: u.name, leader_drm: option('leader_drm'), self_rally: option('self_rally') });
  return woundedConflict(u, input.wounded);
}

/** The Morale Level the check is made against: broken side when broken or rallying; berserk 10; wounds −1; Fanatic +1 (at most 10). */
export function moraleLevel(input: CheckInput): { ml: number; note?: Said } {
  if (berserkOf(input)) return { ml: 10, note: input.ml !== undefined ? said('asl.ml.berserkGiven', { ml: String(input.ml) }) : said('asl.ml.berserk') };
  const notes: Said[] = [];
  const base = unitMoraleLevel(input, notes);
  // Decision: a Commissar's +1 is the situation's, so it applies to an `ml` given as the unit's own too.
  if (commissarNear(input) && base < 10) {
    notes.push(said(input.commissar === 'leads_rally' ? 'asl.ml.commissarRally' : 'asl.ml.commissarNear', { ml: String(base) }));
    return { ml: base + 1, note: joined(notes, 'semicolon') };
  }
  return notes.length ? { ml: base, note: joined(notes, 'semicolon') } : { ml: base };
}

/** The unit's own ML for this check: as given, or its side with wounds and Fanatic status. */
function unitMoraleLevel(input: CheckInput, notes: Said[]): number {
  if (input.ml !== undefined) {
    notes.push(said('asl.ml.given', { ml: String(input.ml) }));
    return input.ml;
  }
  const side = input.check === 'rally' || input.broken ? input.unit.brokenMl : input.unit.ml;
  if (side === undefined) throw new Error('the unit has no Morale Level: give `ml`');
  let ml = side;
  if ((input.check === 'rally' || input.broken) && side !== input.unit.ml) notes.push(said('asl.ml.brokenSide', { ml: String(side) }));
  if (input.wounded && isSmc(input.unit) && input.unit.counter !== WOUNDED_HERO_COUNTER) {
    ml -= 1;
    notes.push(said('asl.ml.wounded', { ml: String(side) }));
  }
  if (input.hob.fanatic && ml < 10) {
    notes.push(said('asl.ml.fanatic', { ml: String(ml) }));
    ml += 1;
  }
  return ml;
}

/** The ELR that applies, and where it came from. */
export function effectiveElr(input: CheckInput): { elr: number; source?: Said } {
  if (input.elr !== undefined) return { elr: input.elr };
  if (input.unit.known?.elr !== undefined)
    return { elr: input.unit.known.elr, source: said('asl.elrSource', { source: input.unit.known.underscored ? 'underscored' : 'counter' }) };
  if (input.unit.nationality === 'partisan') return { elr: 5, source: said('asl.elrSource', { source: 'partisans' }) };
  return { elr: DEFAULT_ELR };
}

export function checkModifiers(input: CheckInput): Modifier[] {
  const mods: Modifier[] = [];
  // A berserk unit never gets a leadership DRM (A15.42), nor does a Commissar another leader's (A25.221).
  const noLeader = berserkOf(input) || commissarItself(input);
  if (input.check === 'mc') {
    const leader = noLeader ? undefined : input.leaderDrm;
    if (input.number > 0) mods.push(because(said('asl.mod.number', { n: String(input.number) }), input.number));
    if (leader !== undefined) mods.push(because(said('asl.mod.leader'), leader));
  } else {
    const leader = noLeader ? undefined : rallyLeaderDrm(input);
    if (leader !== undefined && !input.selfRally)
      mods.push(because(said('asl.mod.rallyLeader', { commissar: input.commissar === 'leads_rally' ? 'yes' : 'no' }), leader));
    if (input.terrain !== 'none') mods.push(because(said('asl.mod.terrain', { terrain: input.terrain }), -1));
    // A Commissar's rally ignores Desperation Morale (A25.222).
    if (input.desperation && input.commissar !== 'leads_rally') mods.push(because(said('asl.mod.desperation'), 4));
    if (input.selfRally) mods.push(because(said('asl.mod.selfRally'), 1));
  }
  return applied(mods);
}

type Reading = {
  result: McResult | RallyResult;
  label: Said;
  effect: Said;
  /** An ELR Replacement's sentence without its full stop, for an Original 12 to go on from. */
  clause?: Said;
  tone: Tone;
  ref: string;
  after?: string;
  becomes?: Becomes;
  /** A wound follows: roll the Wound Severity dr with this drm (A17.11). */
  wound?: { drm: Modifier[] };
};

const nameOf = (u: { name: string } | undefined, fallback: Said): Value => u?.name ?? fallback;

/** Casualty Reduction (A7.302): squad → HS of its type; HS or crew eliminated; SMC wounded. */
function casualtyReduction(input: CheckInput, broken: boolean, casualtyMc: boolean): Omit<Reading, 'result' | 'label' | 'tone' | 'ref'> {
  const HS = said('asl.hsOfType');
  const u = input.unit;
  if (isSmc(u)) {
    const drm: Modifier[] = [];
    // The +1 is for a wounded SMC, or a hero or berserk leader on a Casualty MC "as if already
    // wounded" (A10.31, A17.11); an ordinary leader's Casualty MC rolls the plain dr.
    if (input.wounded) drm.push(because(said('asl.mod.alreadyWounded'), 1));
    else if (casualtyMc && (heroLike(input) || berserkOf(input))) drm.push(because(said('asl.mod.o12Wounded', { ref: CASUALTY_MC_REF }), 1));
    return {
      effect: said('asl.cr.wounded'),
      wound: { drm },
      becomes: broken && !heroLike(input) && !berserkOf(input) ? { broken: true } : {},
    };
  }
  if (u.kind === 'squad') {
    const half = u.known?.half;
    return {
      effect: said('asl.cr.reduced', { broken: broken ? 'yes' : 'no', name: nameOf(half, HS) }),
      after: half?.name,
      becomes: { ...(half ? { counter: half.name } : {}), broken },
    };
  }
  return { effect: said('asl.cr.eliminated'), becomes: { eliminated: true } };
}

/** ELR Replacement of an MMC by the next lower Class (A19.13), when the data or the class gives one. */
function lowerClass(u: AslUnit): { to?: { name: string }; generic?: Said } {
  if (u.known) return u.known.down ? { to: u.known.down } : {};
  const i = u.class ? CLASSES.indexOf(u.class) : -1;
  const lower = i > 0 ? CLASS_NAMES[CLASSES[i - 1]!]! : undefined;
  return lower ? { generic: said('asl.lowerGeneric', { article: articleOf(lower), class: lower }) } : {};
}

/** Broken and Disrupted, or only broken for the kinds never Disrupted (A19.12). */
function disruptOrBreak(input: CheckInput, why: Said, ref: string): Reading {
  const never = neverDisrupted(input.unit, input.hob);
  return never
    ? {
        result: 'broken',
        label: said('asl.mc.broken'),
        effect: said('asl.disrupt.only', { why, never: said('asl.neverDisrupted', { who: never }) }),
        tone: 'bad',
        ref: `${ref}, A19.12`,
        becomes: { broken: true },
      }
    : {
        result: 'disrupted',
        label: said('asl.mc.brokenDisrupted'),
        effect: said('asl.disrupt.both', { why }),
        tone: 'bad',
        ref: `${ref}, A19.12`,
        becomes: { broken: true, disrupted: true },
      };
}

/** An unbroken unit that failed by more than its ELR (A19.1–A19.13). */
function elrFailure(input: CheckInput, by: number, elr: number): Reading {
  const u = input.unit;
  const over = said('asl.elr.over', { by: String(by), elr: String(elr) });
  const replaced = (clause: Said) => ({ result: 'replaced' as const, label: said('asl.mc.replaced'), effect: said('sentence', { what: clause }), clause });
  if (isLeader(u)) {
    const down = u.known?.down;
    if (down)
      return {
        ...replaced(said('asl.elr.leaderDown', { over, to: down.name })),
        tone: 'bad',
        ref: ELR_REF,
        after: down.name,
        becomes: { counter: down.name, broken: true },
      };
    if (!u.known)
      return {
        ...replaced(said('asl.elr.leaderGeneric', { over })),
        tone: 'bad',
        ref: ELR_REF,
        becomes: { broken: true },
      };
    return disruptOrBreak(input, said('asl.elr.leaderNot', { over, counter: u.counter ?? '' }), ELR_REF);
  }
  if (u.known?.underscored) {
    if (u.kind === 'squad' && u.known.half) {
      const hs = u.known.half.name;
      return {
        ...replaced(said('asl.elr.twoHs', { over, hs })),
        tone: 'bad',
        ref: ELR_REF,
        after: hs,
        becomes: { counter: hs, broken: true, two: true },
      };
    }
    return disruptOrBreak(input, said('asl.elr.hsUnderscored', { over }), ELR_REF);
  }
  const r = lowerClass(u);
  if (r.to)
    return {
      ...replaced(said('asl.elr.to', { over, to: r.to.name })),
      tone: 'bad',
      ref: ELR_REF,
      after: r.to.name,
      becomes: { counter: r.to.name, broken: true },
    };
  if (r.generic)
    return {
      ...replaced(said('asl.elr.generic', { over, generic: r.generic })),
      tone: 'bad',
      ref: ELR_REF,
      becomes: { broken: true },
    };
  return disruptOrBreak(input, said('asl.elr.noLower', { over }), ELR_REF);
}

/** A Japanese squad past its ELR on an IFT MC: Replaced by the next lower Class, then Step-Reduced (G1.123–G1.124). */
function japaneseReplaced(u: AslUnit, reduced: boolean, of: { by: string; elr: string }): Reading | undefined {
  const ref = reduced ? 'G1.124' : 'G1.123';
  const words = { ...of, reduced: reduced ? 'yes' : 'no', ref };
  const lower = u.known?.down;
  if (lower) {
    const to = reduced ? lower.half : lower.flip;
    return {
      result: 'replaced',
      label: said('asl.mc.replacedStep'),
      effect: said('asl.jp.replacedTo', { ...words, to: nameOf(to, said('asl.aUnit')) }),
      tone: 'bad',
      ref,
      after: to?.name,
      becomes: { ...(to ? { counter: to.name } : {}), broken: false },
    };
  }
  if (!u.known && u.class) return { result: 'replaced', label: said('asl.mc.replacedStep'), effect: said('asl.jp.replaced', words), tone: 'bad', ref };
  return undefined;
}

/** A Japanese squad: no broken side, Step Reduction instead (G1.1–G1.14). */
function readJapaneseSquad(input: CheckInput, original: number, final: number, ml: number, elr: number): Reading {
  const u = input.unit;
  const reduced = reducedSide(u);
  const half = u.known?.half;
  const hs = nameOf(half, said('asl.hsOfType'));
  const of = { by: String(final - ml), elr: String(elr) };
  if (original === 12) {
    // Decision (G1.14 could not be checked here): Casualty Reduction turns either side into one broken HS.
    return {
      result: 'casualty_reduction',
      label: said('asl.mc.casualty_reduction'),
      effect: said('asl.jp.o12', { hs }),
      tone: 'bad',
      ref: `G1.14, ${CASUALTY_MC_REF}`,
      after: half?.name,
      becomes: { ...(half ? { counter: half.name } : {}), broken: true },
    };
  }
  if (final <= ml) return passOrPin(input, final, ml);
  const by = final - ml;
  const exceeds = by > elr;
  if (!input.ift) {
    // Other MCs (G1.13): the squad breaks into broken HS; past the ELR those are of the next lower Class.
    const lower = exceeds && u.class !== 'conscript' ? u.known?.down?.half : undefined;
    const to = lower ?? half;
    const name = nameOf(to, said('asl.hsOfType'));
    return {
      result: 'broken',
      label: said(reduced ? 'asl.mc.brokenOneHs' : 'asl.mc.brokenTwoHs'),
      effect: said('asl.jp.broken', { reduced: reduced ? 'yes' : 'no', name, lower: lower ? said('asl.jp.lower', of) : '' }),
      tone: 'bad',
      ref: 'G1.13',
      after: to?.name,
      becomes: { ...(to ? { counter: to.name } : {}), broken: true, ...(reduced ? {} : { two: true as const }) },
    };
  }
  if (exceeds && u.class === 'conscript') {
    return {
      result: 'elr_unresolved',
      label: said('asl.mc.elrG1125'),
      effect: said('asl.jp.conscript', of),
      tone: 'bad',
      ref: 'G1.125',
    };
  }
  const replaced = exceeds ? japaneseReplaced(u, reduced, of) : undefined;
  if (replaced) return replaced;
  const to = reduced ? half : u.known?.flip;
  return {
    result: 'step_reduced',
    label: said('asl.mc.step_reduced'),
    effect: said('asl.jp.step', {
      final: String(final),
      ml: String(ml),
      how: reduced ? said('asl.jp.exchange', { hs }) : said('asl.jp.flip', { to: to ? `, ${to.name}` : '' }),
      ref: reduced ? 'G1.122' : 'G1.121',
    }),
    tone: 'bad',
    ref: reduced ? 'G1.122' : 'G1.121',
    after: to?.name,
    becomes: to ? { counter: to.name } : {},
  };
}

function passOrPin(input: CheckInput, final: number, ml: number): Reading {
  // Broken units, heroes, berserk units and Japanese SMC never pin (A7.8, A15.2, A15.42, G1.4).
  const neverPins = input.broken || heroLike(input) || berserkOf(input) || (input.unit.nationality === 'japanese' && isSmc(input.unit));
  if (final === ml && input.ift && !neverPins) {
    return {
      result: 'pinned',
      label: said('asl.mc.pinned'),
      effect: said('asl.pinned', { final: String(final), ml: String(ml) }),
      tone: 'mixed',
      ref: `${MC_REF}, A7.8`,
    };
  }
  return { result: 'passed', label: said('asl.mc.passed'), effect: said('asl.passed', { final: String(final), ml: String(ml) }), tone: 'good', ref: MC_REF };
}

/** An elimination: the unit is gone. */
const eliminated = (effect: Said, ref: string): Reading => ({
  result: 'eliminated',
  label: said('asl.mc.eliminated'),
  effect,
  tone: 'bad',
  ref,
  becomes: { eliminated: true },
});

/** A Casualty Reduction (or a wound, for an SMC) with the cause said first. */
function reducedBy(input: CheckInput, why: Said, how: { broken: boolean; casualtyMc: boolean; ref: string }, result: McResult = 'casualty_reduction'): Reading {
  const c = casualtyReduction(input, how.broken, how.casualtyMc);
  return {
    result,
    label: said(result === 'wounded' ? 'asl.mc.wounded' : 'asl.mc.casualty_reduction'),
    effect: said('asl.because', { why, effect: c.effect }),
    tone: 'bad',
    ref: how.ref,
    ...(c.after ? { after: c.after } : {}),
    ...(c.becomes ? { becomes: c.becomes } : {}),
    ...(c.wound ? { wound: c.wound } : {}),
  };
}

/** The dice of an MC, with what the unit's ML and ELR make of them. */
type McDice = { original: number; final: number; ml: number };

/** A15.42: a berserk unit has ML 10 and never breaks; failing is Casualty Reduction; an Original 12 eliminates a berserk MMC. */
function readBerserk(input: CheckInput, { original, final, ml }: McDice): Reading {
  if (original === 12) {
    return isSmc(input.unit)
      ? reducedBy(input, said('asl.berserk.o12Leader'), { broken: false, casualtyMc: true, ref: `A15.42, ${CASUALTY_MC_REF}` })
      : eliminated(said('asl.berserk.o12'), `A15.42, ${CASUALTY_MC_REF}`);
  }
  if (final <= ml) return passOrPin(input, final, ml);
  const why = said('asl.berserk.failed', { by: String(final - ml) });
  return reducedBy(input, why, { broken: false, casualtyMc: false, ref: `A15.42, ${CASUALTY_REDUCTION_REF}` });
}

/** Heroes and heroic leaders are never pinned, broken or Replaced: they are wounded (A15.2, A17.1). */
function readHero(input: CheckInput, { original, final, ml }: McDice): Reading {
  const woundedHero = input.wounded && input.unit.kind === 'hero';
  const at = { final: String(final), ml: String(ml) };
  if (original === 12 && woundedHero) return eliminated(said('asl.hero.o12Wounded'), 'A15.2');
  if (original === 12) return reducedBy(input, said('asl.hero.o12'), { broken: false, casualtyMc: true, ref: `${CASUALTY_MC_REF}, ${WOUND_REF}` }, 'wounded');
  if (final <= ml) return passOrPin(input, final, ml);
  if (woundedHero) return eliminated(said('asl.hero.woundedFails', at), 'A15.2');
  return reducedBy(input, said('asl.hero.fails', at), { broken: false, casualtyMc: false, ref: `A17.1, ${WOUND_REF}` }, 'wounded');
}

/** G1.4: Japanese SMC never pin, break or get Replaced; a Casualty MC eliminates a leader. */
function readJapaneseSmc(input: CheckInput, { original, final, ml }: McDice): Reading {
  if (original === 12) return eliminated(said('asl.jpSmc.o12'), 'G1.4');
  if (final <= ml) return passOrPin(input, final, ml);
  const why = said('asl.jpSmc.fails', { final: String(final), ml: String(ml) });
  return reducedBy(input, why, { broken: false, casualtyMc: false, ref: `G1.4, ${WOUND_REF}` }, 'wounded');
}

/** An ELR failure on an Original 12: the Replacement (or Disruption) comes first, then the Casualty Reduction (A19.13 EXC, A10.31). */
function replacedThenReduced(input: CheckInput, e: Reading, by: number, elr: number): Reading {
  const u = input.unit;
  if (u.kind === 'squad' && e.result === 'replaced') {
    // A broken HS of the lower Class, or of its own type when it was exchanged for two HS (one is lost).
    const hs = e.becomes?.two ? u.known?.half : u.known?.down?.half;
    const name = nameOf(hs, said('asl.hsLowerClass'));
    return {
      result: 'casualty_reduction',
      label: said('asl.mc.replacedReduced'),
      effect: said('asl.o12.squad', { by: String(by), elr: String(elr), name }),
      tone: 'bad',
      ref: `${ELR_REF}, ${CASUALTY_MC_REF}`,
      after: hs?.name,
      becomes: { ...(hs ? { counter: hs.name } : {}), broken: true },
    };
  }
  const c = casualtyReduction(input, true, true);
  if (isLeader(u) && e.result === 'replaced') {
    return {
      ...e,
      result: 'casualty_reduction',
      label: said('asl.mc.replacedWounded'),
      effect: said('asl.o12.leader', { clause: e.clause!, effect: c.effect }),
      ref: `${ELR_REF}, ${CASUALTY_MC_REF}`,
      wound: c.wound!,
    };
  }
  if (e.result !== 'disrupted' && e.result !== 'broken') return e;
  return {
    ...e,
    result: 'casualty_reduction',
    label: said(e.result === 'disrupted' ? 'asl.mc.casualtyDisrupted' : 'asl.mc.casualty_reduction'),
    effect: said('asl.o12.reduced', { effect: c.effect, after: e.effect }),
    ref: `${CASUALTY_MC_REF}, ${e.ref}`,
    ...(c.after ? { after: c.after } : {}),
    becomes: { ...e.becomes, ...c.becomes },
    ...(c.wound ? { wound: c.wound } : {}),
  };
}

/** An Original 12 is a Casualty MC (A10.31): a broken unit is eliminated; past the ELR, Replaced first. */
function readOriginal12(input: CheckInput, by: number, elr: number, immune: string | undefined): Reading {
  if (input.broken) return eliminated(said('asl.o12.broken'), CASUALTY_MC_REF);
  if (by > elr && !immune) return replacedThenReduced(input, elrFailure(input, by, elr), by, elr);
  const why = said('asl.o12.casualty');
  return reducedBy(input, why, { broken: true, casualtyMc: true, ref: `${CASUALTY_MC_REF}, ${CASUALTY_REDUCTION_REF}` });
}

function readMc(input: CheckInput, original: number, final: number, ml: number): Reading {
  const u = input.unit;
  const dice = { original, final, ml };
  // Units the rules treat apart come first: they never break the ordinary way.
  if (berserkOf(input)) return readBerserk(input, dice);
  if (heroLike(input)) return readHero(input, dice);
  if (u.nationality === 'japanese' && isSmc(u)) return readJapaneseSmc(input, dice);
  const { elr } = effectiveElr(input);
  if (japaneseSquad(u)) return readJapaneseSquad(input, original, final, ml, elr);
  const by = final - ml;
  const immune = elrImmune(u, input.hob.subType, input.hob.heroic ?? false);
  if (original === 12) return readOriginal12(input, by, elr, immune);
  if (final <= ml) return passOrPin(input, final, ml);
  if (input.broken)
    return reducedBy(input, said('asl.failedBroken', { by: String(by) }), { broken: true, casualtyMc: false, ref: `${MC_REF}, ${CASUALTY_REDUCTION_REF}` });
  if (by > elr && !immune) return elrFailure(input, by, elr);
  return {
    result: 'broken',
    label: said('asl.mc.broken'),
    effect: said('asl.breaks', {
      final: String(final),
      ml: String(ml),
      immune: immune && by > elr ? said('asl.breaksImmune', { immune: said('asl.elrImmune', { who: immune }) }) : '',
    }),
    tone: 'bad',
    ref: MC_REF,
    becomes: { broken: true },
  };
}

const CREATES_NO_LEADERS = new Set(['finnish', 'japanese']);

function readRally(input: CheckInput, original: number, final: number, ml: number): Reading {
  const u = input.unit;
  if (original === 12) {
    const c = casualtyReduction(input, true, false);
    return {
      result: 'fate',
      label: said('asl.mc.fate'),
      effect: said('asl.fate', { effect: c.effect }),
      tone: 'bad',
      ref: `${RALLY_REF}, ${CASUALTY_REDUCTION_REF}`,
      ...(c.after ? { after: c.after } : {}),
      ...(c.becomes ? { becomes: c.becomes } : {}),
      ...(c.wound ? { wound: c.wound } : {}),
    };
  }
  if (original === 2 && input.selfRally && isMmc(u) && input.firstRally && !CREATES_NO_LEADERS.has(u.nationality)) {
    return {
      result: 'rallied',
      label: said('asl.mc.leaderCreation'),
      effect: said('asl.leaderCreation'),
      tone: 'good',
      ref: `${RALLY_REF}, A18.11`,
      becomes: { broken: false, disrupted: false },
    };
  }
  if (final <= ml) {
    const two = original === 2 && !input.selfRally ? said('asl.ralliesTwo') : '';
    return {
      result: 'rallied',
      label: said('asl.mc.rallied'),
      effect: said('asl.rallies', { final: String(final), ml: String(ml), two }),
      tone: 'good',
      ref: RALLY_REF,
      becomes: { broken: false, disrupted: false },
    };
  }
  if (input.commissar === 'leads_rally') return failedCommissarRally(input, final, ml);
  const two = original === 2 ? said('asl.staysBrokenTwo') : '';
  return {
    result: 'not_rallied',
    label: said('asl.mc.not_rallied'),
    effect: said('asl.staysBroken', { final: String(final), ml: String(ml), two }),
    tone: 'bad',
    ref: RALLY_REF,
  };
}

/**
 * A failed rally led by a Commissar (A25.222): never "stays as it is". An MMC is Replaced by the
 * broken unit of the next lower Class; a squad already of the lowest quality is Casualty Reduced to
 * a broken HS; a crew, SMC or HS that cannot be Replaced is eliminated. Decision: a unit outside the
 * data with no `class` counts as of the lowest quality.
 */
function failedCommissarRally(input: CheckInput, final: number, ml: number): Reading {
  const u = input.unit;
  const failed = said('asl.commissar.failed', { final: String(final), ml: String(ml) });
  const r = u.kind === 'squad' || u.kind === 'half_squad' ? lowerClass(u) : {};
  const replaced = (what: Said, after?: string): Reading => ({
    result: 'replaced',
    label: said('asl.mc.notRalliedReplaced'),
    effect: said('asl.commissar.replaced', { failed, what }),
    tone: 'bad',
    ref: 'A25.222',
    ...(after ? { after } : {}),
    becomes: { ...(after ? { counter: after } : {}), broken: true },
  });
  if (r.to) return replaced(said('asl.commissar.aBroken', { name: r.to.name }), r.to.name);
  if (r.generic) return replaced(said('asl.commissar.genericBroken', { generic: r.generic }));
  if (u.kind === 'squad') {
    const half = u.known?.half;
    return {
      result: 'casualty_reduction',
      label: said('asl.mc.notRalliedReduced'),
      effect: said('asl.commissar.reduced', { failed, name: nameOf(half, said('asl.hsOfType')) }),
      tone: 'bad',
      ref: `A25.222, ${CASUALTY_REDUCTION_REF}`,
      ...(half ? { after: half.name } : {}),
      becomes: { ...(half ? { counter: half.name } : {}), broken: true },
    };
  }
  const what = u.kind === 'crew' ? 'crew' : isSmc(u) ? 'smc' : 'hs';
  return {
    result: 'eliminated',
    label: said('asl.mc.notRalliedEliminated'),
    effect: said('asl.commissar.eliminated', { failed, what }),
    tone: 'bad',
    ref: 'A25.222',
    becomes: { eliminated: true },
  };
}

/** The Wound Severity dr (A17.11): 1–4 a minor wound, 5 or more (after drm) killed. */
export function woundStep(roller: Roller, drm: Modifier[]): WoundStep {
  const die = roller.roll(6);
  const modifiers = applied(drm);
  const final = die + sum(modifiers.map((m) => m.value));
  const killed = final >= 5;
  return {
    kind: 'wound',
    dice: [die],
    original: die,
    modifiers,
    final,
    result: killed ? 'killed' : 'wounded',
    ...worded(said(killed ? 'asl.mc.killed' : 'asl.mc.wounded'), said(killed ? 'asl.wound.killed' : 'asl.wound.minor', { final: String(final) })),
    tone: 'bad',
    ref: WOUND_REF,
    becomes: killed ? { eliminated: true } : { wounded: true },
  };
}

/** Why an Original 2 does not chain Heat of Battle here, or undefined when it does. */
export function hobChainBlocked(input: CheckInput): Said | undefined {
  if (input.check === 'rally' && input.selfRally) return said('asl.selfRallyNoHob');
  return hobExemption({ unit: input.unit, status: input.hob.status, heroic: input.hob.heroic });
}

/** A Morale Check or Rally DR, with the Wound Severity dr it calls for and the Heat of Battle DR of an Original 2. */
export function moraleCheck(input: CheckInput, roller: Roller): CheckOutcome {
  const dice = [roller.roll(6), roller.roll(6)];
  const original = sum(dice);
  const modifiers = checkModifiers(input);
  const final = original + sum(modifiers.map((m) => m.value));
  const { ml, note } = moraleLevel(input);
  const elr = effectiveElr(input);
  const r = input.check === 'mc' ? readMc(input, original, final, ml) : readRally(input, original, final, ml);
  const leaderCreation = r.label.key === 'asl.mc.leaderCreation';
  const blocked = original === 2 && !leaderCreation ? hobChainBlocked(input) : undefined;
  const notes = [
    note ? said('asl.note.paren', { note }) : undefined,
    elr.source && input.check === 'mc' && final > ml ? said('asl.note.elr', { elr: String(elr.elr), source: elr.source }) : undefined,
    berserkOf(input) && input.leaderDrm !== undefined ? said('asl.note.berserkNoDrm') : undefined,
    input.commissar === 'leads_rally' && input.desperation ? said('asl.note.commissarDesperation') : undefined,
    commissarItself(input) && input.leaderDrm !== undefined ? said('asl.note.commissarNoDrm', { drm: String(input.leaderDrm) }) : undefined,
    original === 2 && blocked ? said('asl.note.noHob', { blocked }) : undefined,
  ].filter((n): n is Said => n !== undefined);
  const step: CheckStep = {
    kind: input.check,
    dice,
    original,
    modifiers,
    final,
    ml,
    result: r.result,
    ...worded(r.label, notes.length ? joined([r.effect, ...notes], 'space') : r.effect),
    tone: r.tone,
    ref: r.ref,
    ...(r.after ? { unit_before: input.unit.name, unit_after: r.after } : {}),
    ...(r.becomes && Object.keys(r.becomes).length ? { becomes: r.becomes } : {}),
  };
  const steps: (CheckStep | WoundStep | HobStep | NtcStep)[] = [step];
  let result = step.result;
  if (r.wound) {
    const w = woundStep(roller, r.wound.drm);
    steps.push(w);
    if (w.result === 'killed') result = 'eliminated';
  }
  if (original === 2 && !blocked && !leaderCreation) {
    // The +1 broken DRM goes by the state when the 2 was rolled; a rally is always of a broken unit.
    // A leader-led check has a leader present, so a Green MMC is not inexperienced (A15.1).
    // A rally that is no Self-Rally is led (checkConflict); an MC has a leader when his DRM is given.
    const leaderPresent = input.check === 'rally' ? !input.selfRally : input.leaderDrm !== undefined;
    const hobInput: HobInput = {
      ...input.hob,
      unit: input.unit,
      broken: input.broken || input.check === 'rally',
      withLeader: input.hob.withLeader || leaderPresent,
    };
    const trigger = `Original 2 on the ${input.check === 'mc' ? 'Morale Check' : 'Rally'}`;
    const hob = hobStep(hobInput, roller, trigger);
    steps.push(hob);
    if (hob.result === 'berserk' && isLeader(input.unit))
      steps.push(...berserkCompanionChecks(input.unit, input.companions, roller, input.hob.subType, input.wounded));
  }
  return { system: 'asl', steps, result, tone: step.tone };
}

/** Results from best to worst, for "this result or better". */
export const MC_ORDER = [
  'passed',
  'pinned',
  'step_reduced',
  'broken',
  'wounded',
  'replaced',
  'disrupted',
  'casualty_reduction',
  'elr_unresolved',
  'eliminated',
] as const;
export const ASL_RALLY_ORDER = ['rallied', 'not_rallied', 'replaced', 'casualty_reduction', 'fate', 'eliminated'] as const;
export const checkOrder = (input: CheckInput): readonly string[] => (input.check === 'mc' ? MC_ORDER : ASL_RALLY_ORDER);

type CheckResult = (typeof MC_ORDER)[number] | (typeof ASL_RALLY_ORDER)[number];
const checkLabel = (r: CheckResult) => sayIn('en', said(`asl.mc.${r}`));
/** Each result's name as players say it (in English; the catalogs' `asl.mc.<result>`), where a table of odds or a history line shows the result alone. */
export const CHECK_LABELS = Object.fromEntries([...MC_ORDER, ...ASL_RALLY_ORDER].map((r) => [r, checkLabel(r)])) as Record<CheckResult, string>;

/**
 * Exact distribution of a check. With `chain`, an Original 2's Heat of Battle result is part of
 * the outcome ("passed → hero"); without, only the check's own result counts.
 */
export function checkDistribution(input: CheckInput, chain = false) {
  const noCompanions = { ...input, companions: [] };
  return remembered(inputKey(`mc:${chain}`, noCompanions), () =>
    enumerate(
      (dice) => moraleCheck(noCompanions, dice),
      (o) => {
        const hob = chain ? o.steps.find((s) => s.kind === 'hob') : undefined;
        return hob ? `${o.result} → ${hob.result}` : o.result;
      },
    ),
  );
}
