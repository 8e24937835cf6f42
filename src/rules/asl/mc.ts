import { withArticle } from '../../util/text.js';
import type { Roller } from '../../dice/roller.js';
import { enumerate, inputKey, remembered } from '../odds.js';
import { applied, sum, type Modifier, type Outcome, type Step, type Tone } from '../types.js';
import { CLASS_NAMES, CLASSES } from './catalog.js';
import { WOUNDED_HERO_COUNTER } from './hob-table.js';
import { berserkCompanionChecks, hobExemption, hobStep, type HobInput, type HobStep, type NtcStep } from './hob.js';
import type { AslUnit } from './parse-unit.js';
import { elrImmune, isCommissar, isLeader, isMmc, isSmc, neverDisrupted, woundedConflict } from './traits.js';
import { command, option, said, type Said } from '../../i18n/said.js';

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
export function moraleLevel(input: CheckInput): { ml: number; note?: string } {
  if (berserkOf(input)) return { ml: 10, note: input.ml !== undefined ? `berserk: ML 10, not the ${input.ml} given (A15.42)` : 'berserk: ML 10 (A15.42)' };
  const notes: string[] = [];
  const base = unitMoraleLevel(input, notes);
  // Decision: a Commissar's +1 is the situation's, so it applies to an `ml` given as the unit's own too.
  if (commissarNear(input) && base < 10) {
    notes.push(input.commissar === 'leads_rally' ? `the rallying Commissar: ML ${base} + 1, A25.222` : `a Commissar in the Location: ML ${base} + 1, A25.221`);
    return { ml: base + 1, note: notes.join('; ') };
  }
  return notes.length ? { ml: base, note: notes.join('; ') } : { ml: base };
}

/** The unit's own ML for this check: as given, or its side with wounds and Fanatic status. */
function unitMoraleLevel(input: CheckInput, notes: string[]): number {
  if (input.ml !== undefined) {
    notes.push(`ML ${input.ml} as given`);
    return input.ml;
  }
  const side = input.check === 'rally' || input.broken ? input.unit.brokenMl : input.unit.ml;
  if (side === undefined) throw new Error('the unit has no Morale Level: give `ml`');
  let ml = side;
  if ((input.check === 'rally' || input.broken) && side !== input.unit.ml) notes.push(`broken side: ML ${side}`);
  if (input.wounded && isSmc(input.unit) && input.unit.counter !== WOUNDED_HERO_COUNTER) {
    ml -= 1;
    notes.push(`wounded: ML ${side} − 1 (A17.3)`);
  }
  if (input.hob.fanatic && ml < 10) {
    notes.push(`Fanatic: ML ${ml} + 1`);
    ml += 1;
  }
  return ml;
}

/** The ELR that applies, and where it came from. */
export function effectiveElr(input: CheckInput): { elr: number; source?: string } {
  if (input.elr !== undefined) return { elr: input.elr };
  if (input.unit.known?.elr !== undefined)
    return { elr: input.unit.known.elr, source: input.unit.known.underscored ? 'underscored ML, A19.13' : 'its counter, A1.23' };
  if (input.unit.nationality === 'partisan') return { elr: 5, source: 'Partisans, A25.24' };
  return { elr: DEFAULT_ELR };
}

export function checkModifiers(input: CheckInput): Modifier[] {
  const mods: Modifier[] = [];
  // A berserk unit never gets a leadership DRM (A15.42), nor does a Commissar another leader's (A25.221).
  const noLeader = berserkOf(input) || commissarItself(input);
  if (input.check === 'mc') {
    const leader = noLeader ? undefined : input.leaderDrm;
    if (input.number > 0) mods.push({ reason: `${input.number}MC`, value: input.number });
    if (leader !== undefined) mods.push({ reason: 'leadership of an unbroken leader in the Location', value: leader });
  } else {
    const leader = noLeader ? undefined : rallyLeaderDrm(input);
    if (leader !== undefined && !input.selfRally)
      mods.push({ reason: `leadership of the rallying ${input.commissar === 'leads_rally' ? 'Commissar' : 'leader'}`, value: leader });
    if (input.terrain !== 'none') mods.push({ reason: `in ${input.terrain}`, value: -1 });
    // A Commissar's rally ignores Desperation Morale (A25.222).
    if (input.desperation && input.commissar !== 'leads_rally') mods.push({ reason: 'under Desperation Morale', value: 4 });
    if (input.selfRally) mods.push({ reason: 'Self-Rally', value: 1 });
  }
  return applied(mods);
}

type Reading = {
  result: McResult | RallyResult;
  label: string;
  effect: string;
  tone: Tone;
  ref: string;
  after?: string;
  becomes?: Becomes;
  /** A wound follows: roll the Wound Severity dr with this drm (A17.11). */
  wound?: { drm: Modifier[] };
};

const nameOf = (u: { name: string } | undefined, fallback: string) => u?.name ?? fallback;

/** Casualty Reduction (A7.302): squad → HS of its type; HS or crew eliminated; SMC wounded. */
function casualtyReduction(input: CheckInput, broken: boolean, casualtyMc: boolean): Omit<Reading, 'result' | 'label' | 'tone' | 'ref'> {
  const u = input.unit;
  if (isSmc(u)) {
    const drm: Modifier[] = [];
    // The +1 is for a wounded SMC, or a hero or berserk leader on a Casualty MC "as if already
    // wounded" (A10.31, A17.11); an ordinary leader's Casualty MC rolls the plain dr.
    if (input.wounded) drm.push({ reason: 'already wounded', value: 1 });
    else if (casualtyMc && (heroLike(input) || berserkOf(input)))
      drm.push({ reason: `Original 12 on the MC, as if already wounded (${CASUALTY_MC_REF})`, value: 1 });
    return {
      effect: 'it is wounded: the Wound Severity dr below says how badly',
      wound: { drm },
      becomes: broken && !heroLike(input) && !berserkOf(input) ? { broken: true } : {},
    };
  }
  if (u.kind === 'squad') {
    const half = u.known?.half;
    const name = nameOf(half, 'half-squad of its type');
    return {
      effect: `it is reduced to ${broken ? 'a broken' : 'an unbroken'} ${name}`,
      after: half?.name,
      becomes: { ...(half ? { counter: half.name } : {}), broken },
    };
  }
  return { effect: 'a half-squad or crew that is reduced is eliminated', becomes: { eliminated: true } };
}

/** ELR Replacement of an MMC by the next lower Class (A19.13), when the data or the class gives one. */
function lowerClass(u: AslUnit): { to?: { name: string }; generic?: string } {
  if (u.known) return u.known.down ? { to: u.known.down } : {};
  const i = u.class ? CLASSES.indexOf(u.class) : -1;
  return i > 0 ? { generic: `${withArticle(CLASS_NAMES[CLASSES[i - 1]!]!)} unit of the same size` } : {};
}

/** Broken and Disrupted, or only broken for the kinds never Disrupted (A19.12). */
function disruptOrBreak(input: CheckInput, why: string, ref: string): Reading {
  const never = neverDisrupted(input.unit, input.hob);
  return never
    ? {
        result: 'broken',
        label: 'Broken',
        effect: `${why}; ${never} are never Disrupted, so it is only broken (A19.12).`,
        tone: 'bad',
        ref: `${ref}, A19.12`,
        becomes: { broken: true },
      }
    : {
        result: 'disrupted',
        label: 'Broken and Disrupted',
        effect: `${why}: it breaks and is Disrupted (A19.12).`,
        tone: 'bad',
        ref: `${ref}, A19.12`,
        becomes: { broken: true, disrupted: true },
      };
}

/** An unbroken unit that failed by more than its ELR (A19.1–A19.13). */
function elrFailure(input: CheckInput, by: number, elr: number): Reading {
  const u = input.unit;
  const over = `Failed by ${by}, more than its ELR of ${elr}`;
  if (isLeader(u)) {
    const down = u.known?.down;
    if (down)
      return {
        result: 'replaced',
        label: 'Replaced (ELR)',
        effect: `${over}: replace him with a broken ${down.name} (A19.13).`,
        tone: 'bad',
        ref: ELR_REF,
        after: down.name,
        becomes: { counter: down.name, broken: true },
      };
    if (!u.known)
      return {
        result: 'replaced',
        label: 'Replaced (ELR)',
        effect: `${over}: replace him with a broken leader one rank lower (A19.13).`,
        tone: 'bad',
        ref: ELR_REF,
        becomes: { broken: true },
      };
    return disruptOrBreak(input, `${over}, and a ${u.counter} cannot be Replaced`, ELR_REF);
  }
  if (u.known?.underscored) {
    if (u.kind === 'squad' && u.known.half) {
      const hs = u.known.half.name;
      return {
        result: 'replaced',
        label: 'Replaced (ELR)',
        effect: `${over}, and its ML is underscored: replace it with two broken ${hs}s (A19.13).`,
        tone: 'bad',
        ref: ELR_REF,
        after: hs,
        becomes: { counter: hs, broken: true, two: true },
      };
    }
    return disruptOrBreak(input, `${over}, and a half-squad with an underscored ML is not Replaced`, ELR_REF);
  }
  const r = lowerClass(u);
  if (r.to)
    return {
      result: 'replaced',
      label: 'Replaced (ELR)',
      effect: `${over}: replace it with a broken ${r.to.name} (A19.13).`,
      tone: 'bad',
      ref: ELR_REF,
      after: r.to.name,
      becomes: { counter: r.to.name, broken: true },
    };
  if (r.generic)
    return {
      result: 'replaced',
      label: 'Replaced (ELR)',
      effect: `${over}: replace it with ${r.generic}, broken (A19.13).`,
      tone: 'bad',
      ref: ELR_REF,
      becomes: { broken: true },
    };
  return disruptOrBreak(input, `${over}, and there is no lower Class`, ELR_REF);
}

/** A Japanese squad: no broken side, Step Reduction instead (G1.1–G1.14). */
function readJapaneseSquad(input: CheckInput, original: number, final: number, ml: number, elr: number): Reading {
  const u = input.unit;
  const reduced = reducedSide(u);
  const half = u.known?.half;
  const hs = nameOf(half, 'half-squad of its type');
  if (original === 12) {
    // Decision (G1.14 could not be checked here): Casualty Reduction turns either side into one broken HS.
    return {
      result: 'casualty_reduction',
      label: 'Casualty Reduction',
      effect: `An Original 12: Casualty Reduction makes it one broken ${hs} (G1.14, A10.31).`,
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
    const count = reduced ? 'one broken' : 'two broken';
    const name = nameOf(to, 'half-squad of its type');
    return {
      result: 'broken',
      label: reduced ? 'Broken (one HS)' : 'Broken (two HS)',
      effect: `Failed a non-IFT MC: exchange it for ${count} ${name}${reduced ? '' : 's'}${lower ? ` (the next lower Class: failed by ${by}, more than its ELR of ${elr})` : ''} (G1.13).`,
      tone: 'bad',
      ref: 'G1.13',
      after: to?.name,
      becomes: { ...(to ? { counter: to.name } : {}), broken: true, ...(reduced ? {} : { two: true as const }) },
    };
  }
  if (exceeds && u.class === 'conscript') {
    return {
      result: 'elr_unresolved',
      label: 'ELR failure (G1.125)',
      effect: `Failed by ${by}, more than its ELR of ${elr}, as a Conscript: G1.125 decides, and the bot could not check its text. Apply G1.125 from your rulebook; nothing was changed on the roster.`,
      tone: 'bad',
      ref: 'G1.125',
    };
  }
  if (exceeds) {
    const lower = u.known?.down;
    if (lower) {
      const to = reduced ? lower.half : lower.flip;
      return {
        result: 'replaced',
        label: 'Replaced (ELR) and Step-Reduced',
        effect: `Failed by ${by}, more than its ELR of ${elr}: Replaced by the ${reduced ? 'reduced' : 'full'} squad of the next lower Class, then Step-Reduced: it becomes an unbroken ${nameOf(to, 'unit')} (${reduced ? 'G1.124' : 'G1.123'}).`,
        tone: 'bad',
        ref: reduced ? 'G1.124' : 'G1.123',
        after: to?.name,
        becomes: { ...(to ? { counter: to.name } : {}), broken: false },
      };
    }
    if (!u.known && u.class) {
      return {
        result: 'replaced',
        label: 'Replaced (ELR) and Step-Reduced',
        effect: `Failed by ${by}, more than its ELR of ${elr}: Replaced by the ${reduced ? 'reduced' : 'full'} squad of the next lower Class, then Step-Reduced (${reduced ? 'G1.124' : 'G1.123'}).`,
        tone: 'bad',
        ref: reduced ? 'G1.124' : 'G1.123',
      };
    }
  }
  const to = reduced ? half : u.known?.flip;
  return {
    result: 'step_reduced',
    label: 'Step-Reduced',
    effect: `Final ${final} > ML ${ml}: Step Reduction — ${reduced ? `exchange it for an unbroken ${hs}` : `flip it to its reduced side${to ? `, ${to.name}` : ''}`}, still unbroken (${reduced ? 'G1.122' : 'G1.121'}).`,
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
      label: 'Pinned',
      effect: `Final ${final} equals ML ${ml} on an IFT-caused check: it passes but is pinned.`,
      tone: 'mixed',
      ref: `${MC_REF}, A7.8`,
    };
  }
  return { result: 'passed', label: 'Passed', effect: `Final ${final} ≤ ML ${ml}: no effect.`, tone: 'good', ref: MC_REF };
}

/** An elimination: the unit is gone. */
const eliminated = (effect: string, ref: string): Reading => ({
  result: 'eliminated',
  label: 'Eliminated',
  effect,
  tone: 'bad',
  ref,
  becomes: { eliminated: true },
});

/** A Casualty Reduction (or a wound, for an SMC) with the cause said first. */
function reducedBy(
  input: CheckInput,
  why: string,
  how: { broken: boolean; casualtyMc: boolean; ref: string },
  result: McResult = 'casualty_reduction',
  label = 'Casualty Reduction',
): Reading {
  const c = casualtyReduction(input, how.broken, how.casualtyMc);
  return {
    result,
    label,
    effect: `${why}: ${c.effect}.`,
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
      ? reducedBy(input, 'An Original 12 on a berserk leader', { broken: false, casualtyMc: true, ref: `A15.42, ${CASUALTY_MC_REF}` })
      : eliminated('An Original 12 on a berserk unit: it is eliminated (A15.42).', `A15.42, ${CASUALTY_MC_REF}`);
  }
  if (final <= ml) return passOrPin(input, final, ml);
  const why = `Failed by ${final - ml} while berserk: never broken, it suffers Casualty Reduction instead`;
  return reducedBy(input, why, { broken: false, casualtyMc: false, ref: `A15.42, ${CASUALTY_REDUCTION_REF}` });
}

/** Heroes and heroic leaders are never pinned, broken or Replaced: they are wounded (A15.2, A17.1). */
function readHero(input: CheckInput, { original, final, ml }: McDice): Reading {
  const woundedHero = input.wounded && input.unit.kind === 'hero';
  if (original === 12 && woundedHero) return eliminated('An Original 12 on a wounded hero: it is eliminated (A15.2).', 'A15.2');
  if (original === 12)
    return reducedBy(input, 'An Original 12 on a hero', { broken: false, casualtyMc: true, ref: `${CASUALTY_MC_REF}, ${WOUND_REF}` }, 'wounded', 'Wounded');
  if (final <= ml) return passOrPin(input, final, ml);
  if (woundedHero) return eliminated(`Final ${final} > ML ${ml}: a wounded hero that fails an MC is eliminated (A15.2).`, 'A15.2');
  const why = `Final ${final} > ML ${ml}: a hero is wounded instead of broken`;
  return reducedBy(input, why, { broken: false, casualtyMc: false, ref: `A17.1, ${WOUND_REF}` }, 'wounded', 'Wounded');
}

/** G1.4: Japanese SMC never pin, break or get Replaced; a Casualty MC eliminates a leader. */
function readJapaneseSmc(input: CheckInput, { original, final, ml }: McDice): Reading {
  if (original === 12) return eliminated('An Original 12 on a Japanese leader: a Casualty MC eliminates him (G1.4).', 'G1.4');
  if (final <= ml) return passOrPin(input, final, ml);
  const why = `Final ${final} > ML ${ml}: a Japanese SMC is never broken, he is wounded`;
  return reducedBy(input, why, { broken: false, casualtyMc: false, ref: `G1.4, ${WOUND_REF}` }, 'wounded', 'Wounded');
}

/** An ELR failure on an Original 12: the Replacement (or Disruption) comes first, then the Casualty Reduction (A19.13 EXC, A10.31). */
function replacedThenReduced(input: CheckInput, e: Reading, by: number, elr: number): Reading {
  const u = input.unit;
  if (u.kind === 'squad' && e.result === 'replaced') {
    // A broken HS of the lower Class, or of its own type when it was exchanged for two HS (one is lost).
    const hs = e.becomes?.two ? u.known?.half : u.known?.down?.half;
    const name = nameOf(hs, 'half-squad of the next lower Class');
    return {
      result: 'casualty_reduction',
      label: 'Replaced and reduced',
      effect: `An Original 12, failed by ${by}, more than its ELR of ${elr}: Replaced first, then Casualty Reduction — it becomes a broken ${name} (A19.13, A10.31).`,
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
      label: 'Replaced and wounded',
      effect: `An Original 12: ${e.effect.replace(/\.$/, '')}, then Casualty Reduction: ${c.effect} (A10.31).`,
      ref: `${ELR_REF}, ${CASUALTY_MC_REF}`,
      wound: c.wound!,
    };
  }
  if (e.result !== 'disrupted' && e.result !== 'broken') return e;
  return {
    ...e,
    result: 'casualty_reduction',
    label: `Casualty Reduction${e.result === 'disrupted' ? ', Disrupted' : ''}`,
    effect: `An Original 12: Casualty Reduction — ${c.effect}. ${e.effect}`,
    ref: `${CASUALTY_MC_REF}, ${e.ref}`,
    ...(c.after ? { after: c.after } : {}),
    becomes: { ...e.becomes, ...c.becomes },
    ...(c.wound ? { wound: c.wound } : {}),
  };
}

/** An Original 12 is a Casualty MC (A10.31): a broken unit is eliminated; past the ELR, Replaced first. */
function readOriginal12(input: CheckInput, by: number, elr: number, immune: string | undefined): Reading {
  if (input.broken) return eliminated('An Original 12 on a broken unit: it is eliminated (A10.31).', CASUALTY_MC_REF);
  if (by > elr && !immune) return replacedThenReduced(input, elrFailure(input, by, elr), by, elr);
  const why = 'An Original 12 (Casualty MC): it breaks and suffers Casualty Reduction';
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
  if (input.broken) return reducedBy(input, `Failed by ${by} while broken`, { broken: true, casualtyMc: false, ref: `${MC_REF}, ${CASUALTY_REDUCTION_REF}` });
  if (by > elr && !immune) return elrFailure(input, by, elr);
  return {
    result: 'broken',
    label: 'Broken',
    effect: `Final ${final} > ML ${ml}: the unit breaks.${immune && by > elr ? ` Failed by more than its ELR, but ${immune}.` : ''}`,
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
      label: 'Fate',
      effect: `An Original 12: Casualty Reduction — ${c.effect}; it does not rally.`,
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
      label: 'Rallied, Leader Creation',
      effect: 'An Original 2 on the first MMC Self-Rally of the RPh: it rallies and makes a Leader Creation dr with +1 (A18.11). No Heat of Battle.',
      tone: 'good',
      ref: `${RALLY_REF}, A18.11`,
      becomes: { broken: false, disrupted: false },
    };
  }
  if (final <= ml) {
    const two =
      original === 2 && !input.selfRally
        ? ' An Original 2 with a leader is no automatic rally: the Final decides, and Heat of Battle follows (A10.6, A15.1).'
        : '';
    return {
      result: 'rallied',
      label: 'Rallied',
      effect: `Final ${final} ≤ ML ${ml}: the unit rallies.${two}`,
      tone: 'good',
      ref: RALLY_REF,
      becomes: { broken: false, disrupted: false },
    };
  }
  if (input.commissar === 'leads_rally') return failedCommissarRally(input, final, ml);
  const two = original === 2 ? ' An Original 2 with a leader is no automatic rally (A10.6); Heat of Battle follows.' : '';
  return { result: 'not_rallied', label: 'Not rallied', effect: `Final ${final} > ML ${ml}: it stays broken.${two}`, tone: 'bad', ref: RALLY_REF };
}

/**
 * A failed rally led by a Commissar (A25.222): never "stays as it is". An MMC is Replaced by the
 * broken unit of the next lower Class; a squad already of the lowest quality is Casualty Reduced to
 * a broken HS; a crew, SMC or HS that cannot be Replaced is eliminated. Decision: a unit outside the
 * data with no `class` counts as of the lowest quality.
 */
function failedCommissarRally(input: CheckInput, final: number, ml: number): Reading {
  const u = input.unit;
  const failed = `Final ${final} > ML ${ml}: it fails the Commissar's rally`;
  const r = u.kind === 'squad' || u.kind === 'half_squad' ? lowerClass(u) : {};
  const replaced = (what: string, after?: string): Reading => ({
    result: 'replaced',
    label: 'Not rallied, Replaced',
    effect: `${failed} and is Replaced by the next lower Class: ${what} (A25.222).`,
    tone: 'bad',
    ref: 'A25.222',
    ...(after ? { after } : {}),
    becomes: { ...(after ? { counter: after } : {}), broken: true },
  });
  if (r.to) return replaced(`a broken ${r.to.name}`, r.to.name);
  if (r.generic) return replaced(`${r.generic}, broken`);
  if (u.kind === 'squad') {
    const half = u.known?.half;
    return {
      result: 'casualty_reduction',
      label: 'Not rallied, Casualty Reduction',
      effect: `${failed}; already of the lowest quality, it cannot be Replaced and suffers Casualty Reduction instead: it becomes a broken ${nameOf(half, 'half-squad of its type')} (A25.222, A7.302).`,
      tone: 'bad',
      ref: `A25.222, ${CASUALTY_REDUCTION_REF}`,
      ...(half ? { after: half.name } : {}),
      becomes: { ...(half ? { counter: half.name } : {}), broken: true },
    };
  }
  const what = u.kind === 'crew' ? 'a crew' : isSmc(u) ? 'an SMC' : 'a half-squad of the lowest quality';
  return {
    result: 'eliminated',
    label: 'Not rallied, Eliminated',
    effect: `${failed}; ${what} cannot be Replaced, so it is eliminated (A25.222).`,
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
    label: killed ? 'Killed' : 'Wounded',
    effect: killed
      ? `Wound Severity ${final} (5 or more): the wound is mortal, he is eliminated.`
      : `Wound Severity ${final} (1–4): a minor wound; mark him wounded (ML −1, A17.3).`,
    tone: 'bad',
    ref: WOUND_REF,
    becomes: killed ? { eliminated: true } : { wounded: true },
  };
}

/** Why an Original 2 does not chain Heat of Battle here, or undefined when it does. */
export function hobChainBlocked(input: CheckInput): string | undefined {
  if (input.check === 'rally' && input.selfRally) return 'a Self-Rally never triggers Heat of Battle';
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
  const leaderCreation = r.label === 'Rallied, Leader Creation';
  const blocked = original === 2 && !leaderCreation ? hobChainBlocked(input) : undefined;
  const notes = [
    note ? `(${note})` : undefined,
    elr.source && input.check === 'mc' && final > ml ? `(ELR ${elr.elr}: ${elr.source})` : undefined,
    berserkOf(input) && input.leaderDrm !== undefined ? '(berserk: no leadership DRM, A15.42)' : undefined,
    input.commissar === 'leads_rally' && input.desperation ? '(a Commissar’s rally ignores Desperation Morale, A25.222)' : undefined,
    commissarItself(input) && input.leaderDrm !== undefined
      ? `(a Commissar never receives another leader's DRM: leader_drm ${input.leaderDrm} not applied, A25.221)`
      : undefined,
    original === 2 && blocked ? `Original 2, but no Heat of Battle: ${blocked}.` : undefined,
  ].filter(Boolean);
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

/** Each result's name as players say it, where a table of odds or a history line shows the result alone. */
export const CHECK_LABELS: Record<(typeof MC_ORDER)[number] | (typeof ASL_RALLY_ORDER)[number], string> = {
  passed: 'Passed',
  pinned: 'Pinned',
  step_reduced: 'Step-Reduced',
  broken: 'Broken',
  wounded: 'Wounded',
  replaced: 'Replaced (ELR)',
  disrupted: 'Disrupted',
  casualty_reduction: 'Casualty Reduction',
  elr_unresolved: 'ELR failure',
  eliminated: 'Eliminated',
  rallied: 'Rallied',
  not_rallied: 'Not rallied',
  fate: 'Fate',
};

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
