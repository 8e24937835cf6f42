import type { Roller } from '../../dice/roller.js';
import type { DrCategory } from '../dice/categories.js';
import { SIDE_NAMES, SIDES, type Side } from '../sides.js';

export { DR_CATEGORIES, type DrCategory } from '../dice/categories.js';
export { SIDE_NAMES, SIDES, type Side } from '../sides.js';

/**
 * An ASL DR (two dice) or dr (one die) rolled by hand, with the reminders VASL's dice bot shows
 *. The bot decides none of what the notes mention: the players do.
 */

/** Sniper Activation and Random Selection are drs; `other` may be either. */
export const DR_ONLY: readonly DrCategory[] = ['SA', 'RS'];
export const BOOBY_TRAP_LEVELS = ['none', 'A', 'B', 'C'] as const;
export type BoobyTrapLevel = (typeof BOOBY_TRAP_LEVELS)[number];

/** A game's Sniper Activation Numbers (0: none) and booby-trap levels, per side. */
export type DrSettings = { san: Record<Side, number>; boobyTraps: Record<Side, BoobyTrapLevel> };
export const NO_DR_SETTINGS: DrSettings = { san: { axis: 0, allied: 0 }, boobyTraps: { axis: 'none', allied: 'none' } };

export type DrInput = { category: DrCategory; dice: 'DR' | 'dr'; drm: number; settings: DrSettings };
export type DrOutcome = {
  category: DrCategory;
  dice: 'DR' | 'dr';
  /** Coloured die first, then the white die (a dr has the coloured one only). */
  coloured: number;
  white?: number;
  original: number;
  drm: number;
  final: number;
  notes: string[];
};

/** Which dice a category rolls: SA and RS are drs whatever was asked, every other is as asked. */
export const diceFor = (category: DrCategory, asked: 'DR' | 'dr' | undefined): 'DR' | 'dr' => (DR_ONLY.includes(category) ? 'dr' : (asked ?? 'DR'));

/** The notes a category's dice call for, as VASL's dice bot has them (C3.6–C3.9, C7.35, A7.9, A7.309, A15.1, A10.31, A18.11, A10.64, A11.22, A11.501, A18.12). */
type NoteRule = { category: DrCategory; when: (c: number, w: number) => boolean; note: string };
const both = (n: number) => (c: number, w: number) => c === n && w === n;
export const DR_NOTES: readonly NoteRule[] = [
  { category: 'TH', when: (c, w) => c < w, note: 'Turret' },
  { category: 'TH', when: (c, w) => c >= w, note: 'Hull' },
  { category: 'TH', when: both(1), note: 'Unlikely Hit (C3.6)' },
  { category: 'TH', when: both(1), note: 'Critical Hit (C3.7)' },
  { category: 'TH', when: (c, w) => c === w, note: 'Multiple Hits 15–40mm (C3.8)' },
  { category: 'TK', when: both(6), note: 'Dud (C7.35)' },
  { category: 'IFT', when: (c, w) => c === w, note: 'Cower if MMC without a leader (A7.9)' },
  { category: 'IFT', when: both(1), note: 'Unlikely Kill vs * (A7.309)' },
  { category: 'MC', when: both(1), note: 'Heat of Battle (A15.1)' },
  { category: 'MC', when: both(6), note: 'Casualty MC (A10.31)' },
  { category: 'Rally', when: both(1), note: 'Heat of Battle (A15.1) or Field Promotion (A18.11)' },
  { category: 'Rally', when: both(6), note: 'Fate: Casualty Reduction (A10.64)' },
  { category: 'CC', when: both(1), note: 'Infiltration (A11.22), Field Promotion (A18.12), Unlikely Kill (A11.501)' },
  { category: 'CC', when: both(6), note: 'Infiltration (A11.22)' },
];

/** Categories whose DRs never flag a SAN (A14: VASL leaves out To Kill, Close Combat and Rally). */
const NO_SAN: readonly DrCategory[] = ['TK', 'CC', 'Rally'];

/** A TC DR that springs a side's booby traps (B28.9), at VASL's values: C on 12, B on 11, A on 11 or more. */
const BOOBY_TRAP: Record<Exclude<BoobyTrapLevel, 'none'>, (original: number) => boolean> = {
  C: (o) => o === 12,
  B: (o) => o === 11,
  A: (o) => o >= 11,
};

function sideNote(sides: Side[], what: string): string | undefined {
  return sides.length ? `${sides.map((s) => SIDE_NAMES[s]).join('/')} ${what}` : undefined;
}

/** A Sniper Attack dr's notes (A14.3), as VASL's dice bot shows them on a 1 and a 2; the players apply them. */
export const DR_SA_NOTES: Readonly<Record<number, string>> = {
  1: 'Sniper attack: eliminates an SMC, a Dummy stack or a Sniper; stuns and recalls a CE crew; breaks an MMC or a vehicle’s inherent crew; immobilizes an unarmored vehicle (A14.3)',
  2: 'Sniper attack: eliminates a Dummy stack; wounds an SMC; stuns a CE crew; pins an MMC, a vehicle’s inherent crew or a Sniper (A14.3)',
};

export function drNotes(category: DrCategory, coloured: number, white: number | undefined, original: number, settings: DrSettings): string[] {
  if (white === undefined) return category === 'SA' && DR_SA_NOTES[coloured] ? [DR_SA_NOTES[coloured]!] : [];
  const notes = DR_NOTES.filter((r) => r.category === category && r.when(coloured, white)).map((r) => r.note);
  const san = NO_SAN.includes(category) ? [] : SIDES.filter((s) => settings.san[s] > 0 && settings.san[s] === original);
  const traps = category === 'TC' ? SIDES.filter((s) => settings.boobyTraps[s] !== 'none' && BOOBY_TRAP[settings.boobyTraps[s] as 'A'](original)) : [];
  return [...notes, sideNote(san, 'SAN'), sideNote(traps, 'booby trap')].filter((n): n is string => n !== undefined);
}

export function rollDr(input: DrInput, roller: Roller): DrOutcome {
  const coloured = roller.roll(6);
  const white = input.dice === 'DR' ? roller.roll(6) : undefined;
  const original = coloured + (white ?? 0);
  return {
    category: input.category,
    dice: input.dice,
    coloured,
    ...(white === undefined ? {} : { white }),
    original,
    drm: input.drm,
    final: original + input.drm,
    notes: drNotes(input.category, coloured, white, original, input.settings),
  };
}
