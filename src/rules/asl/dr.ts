import type { Roller } from '../../dice/roller.js';
import type { DrCategory } from '../dice/categories.js';
import { SIDES, type Side } from '../sides.js';
import { list, said, type Said } from '../../i18n/said.js';
import { sayIn } from '../../i18n/speak.js';

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
  /** The notes by identifier, for every reader's language. */
  note_says?: Said[];
};

/** Which dice a category rolls: SA and RS are drs whatever was asked, every other is as asked. */
export const diceFor = (category: DrCategory, asked: 'DR' | 'dr' | undefined): 'DR' | 'dr' => (DR_ONLY.includes(category) ? 'dr' : (asked ?? 'DR'));

/** The notes a category's dice call for, as VASL's dice bot has them (C3.6–C3.9, C7.35, A7.9, A7.309, A15.1, A10.31, A18.11, A10.64, A11.22, A11.501, A18.12). */
type NoteRule = { category: DrCategory; when: (c: number, w: number) => boolean; note: Said };
const both = (n: number) => (c: number, w: number) => c === n && w === n;
export const DR_NOTES: readonly NoteRule[] = [
  { category: 'TH', when: (c, w) => c < w, note: said('dr.note.turret') },
  { category: 'TH', when: (c, w) => c >= w, note: said('dr.note.hull') },
  { category: 'TH', when: both(1), note: said('dr.note.unlikelyHit') },
  { category: 'TH', when: both(1), note: said('dr.note.criticalHit') },
  { category: 'TH', when: (c, w) => c === w, note: said('dr.note.multipleHits') },
  { category: 'TK', when: both(6), note: said('dr.note.dud') },
  { category: 'IFT', when: (c, w) => c === w, note: said('dr.note.cower') },
  { category: 'IFT', when: both(1), note: said('dr.note.unlikelyKill') },
  { category: 'MC', when: both(1), note: said('dr.note.hob') },
  { category: 'MC', when: both(6), note: said('dr.note.casualtyMc') },
  { category: 'Rally', when: both(1), note: said('dr.note.rallyTwo') },
  { category: 'Rally', when: both(6), note: said('dr.note.fate') },
  { category: 'CC', when: both(1), note: said('dr.note.ccTwo') },
  { category: 'CC', when: both(6), note: said('dr.note.ccTwelve') },
];

/** Categories whose DRs never flag a SAN (A14: VASL leaves out To Kill, Close Combat and Rally). */
const NO_SAN: readonly DrCategory[] = ['TK', 'CC', 'Rally'];

/** A TC DR that springs a side's booby traps (B28.9), at VASL's values: C on 12, B on 11, A on 11 or more. */
const BOOBY_TRAP: Record<Exclude<BoobyTrapLevel, 'none'>, (original: number) => boolean> = {
  C: (o) => o === 12,
  B: (o) => o === 11,
  A: (o) => o >= 11,
};

function sideNote(sides: Side[], what: 'san' | 'trap'): Said | undefined {
  return sides.length
    ? said('dr.sideNote', {
        sides: list(
          sides.map((side) => said('dr.side', { side })),
          'slash',
        ),
        what,
      })
    : undefined;
}

/** A Sniper Attack dr's notes (A14.3), as VASL's dice bot shows them on a 1 and a 2; the players apply them. */
export const DR_SA_NOTES: Readonly<Record<number, Said>> = { 1: said('dr.note.sniper1'), 2: said('dr.note.sniper2') };

/** The notes of a DR by identifier (the reply words them in its reader's language). */
export function drNoteSays(category: DrCategory, coloured: number, white: number | undefined, original: number, settings: DrSettings): Said[] {
  if (white === undefined) return category === 'SA' && DR_SA_NOTES[coloured] ? [DR_SA_NOTES[coloured]!] : [];
  const notes = DR_NOTES.filter((r) => r.category === category && r.when(coloured, white)).map((r) => r.note);
  const san = NO_SAN.includes(category) ? [] : SIDES.filter((s) => settings.san[s] > 0 && settings.san[s] === original);
  const traps = category === 'TC' ? SIDES.filter((s) => settings.boobyTraps[s] !== 'none' && BOOBY_TRAP[settings.boobyTraps[s] as 'A'](original)) : [];
  return [...notes, sideNote(san, 'san'), sideNote(traps, 'trap')].filter((n): n is Said => n !== undefined);
}

/** The same notes in English, as the ledger records them. */
export const drNotes = (...args: Parameters<typeof drNoteSays>): string[] => drNoteSays(...args).map((s) => sayIn('en', s));

const noted = (says: Said[]) => ({ notes: says.map((s) => sayIn('en', s)), ...(says.length ? { note_says: says } : {}) });

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
    ...noted(drNoteSays(input.category, coloured, white, original, input.settings)),
  };
}
