export type HobBand = 'hero' | 'hero_and_battle_hardening' | 'battle_hardening' | 'berserk' | 'surrender';
export type HobResult = HobBand | 'disrupted';

/**
 * Final Heat of Battle DR → band (A15), with the band's name the reply's note shows ("Band for
 * Final 9: Berserk (9–11)"); the effect and tone are spelled out per unit and result by hob.ts.
 */
export const HOB_BANDS: readonly { min: number; max: number; code: HobBand; label: string }[] = [
  { min: -Infinity, max: 4, code: 'hero', label: 'Hero' },
  { min: 5, max: 6, code: 'hero_and_battle_hardening', label: 'Hero and Battle Hardening' },
  { min: 7, max: 8, code: 'battle_hardening', label: 'Battle Hardening' },
  { min: 9, max: 11, code: 'berserk', label: 'Berserk' },
  { min: 12, max: Infinity, code: 'surrender', label: 'Surrender' },
];

/** The overrides of A15, applied in this order; each code goes into the step's `overrides`. */
export const OVERRIDES = {
  minor_surrender: { code: 'minor_surrender', text: 'non-elite Italian or Axis Minor: a Final DR of 10 or more is Surrender (A15.1)' },
  never_surrender: { code: 'never_surrender', text: 'never surrenders: Surrender becomes Berserk (A15.5)' },
  special_situation: {
    code: 'special_situation',
    text: 'a note of the A15.1 table applies: Berserk or Surrender becomes Battle Hardening (A15.1)',
  },
  no_enemy_in_los: { code: 'no_enemy_in_los', text: 'no Known enemy unit in LOS: Berserk becomes Battle Hardening (A15.44)' },
  no_adjacent_enemy: {
    code: 'no_adjacent_enemy',
    text: 'no Known, Good Order, armed enemy Infantry/Cavalry ADJACENT: Disrupted instead of surrendering (A15.5, A19.12)',
  },
} as const;
export type OverrideCode = keyof typeof OVERRIDES;

/** Heat of Battle DRM (A15.1), as data: the reason shown and the value. At most one nationality row. */
export const HOB_DRM = {
  elite: { reason: 'elite', value: -1 },
  leaderElite: { reason: 'leader (counts as elite)', value: -1 },
  broken: { reason: 'broken when the Original 2 was rolled', value: 1 },
  conscript: { reason: 'inexperienced (Conscript)', value: 1 },
  green: { reason: 'inexperienced (Green, no unbroken leader stacked with it)', value: 1 },
  nkvd: { reason: 'NKVD', value: -1 },
} as const;

export const HOB_REF = 'A15.1';
export const REF = {
  hero: 'A15.2',
  hardening: 'A15.3',
  berserk: 'A15.4',
  berserkLeader: 'A15.41',
  surrender: 'A15.5',
  disrupted: 'A19.12',
  fanatic: 'A10.8',
} as const;

export const HERO_COUNTER = '1-4-9';
export const WOUNDED_HERO_COUNTER = '1-3-8';

/**
 * The A15.1 table's notes that turn Berserk or Surrender into Battle Hardening, with the words the
 * reply names the situation by. `japaneseOnly`: the note is for Japanese units.
 */
export const SPECIAL_SITUATIONS = {
  none: undefined,
  pillbox_or_cave: { text: 'Japanese in a Pillbox or Cave', japaneseOnly: true },
  beach_or_pier: { text: 'the side assaulting or evacuating on a Beach or Pier', japaneseOnly: false },
  enemy_in_ocean: { text: 'its closest enemy is in Ocean', japaneseOnly: false },
} as const;
export type SpecialSituation = keyof typeof SPECIAL_SITUATIONS;
export const SPECIAL_SITUATION_CODES = Object.keys(SPECIAL_SITUATIONS) as [SpecialSituation, ...SpecialSituation[]];
