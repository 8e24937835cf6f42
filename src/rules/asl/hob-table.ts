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

/** The overrides of A15, applied in this order; each code goes into the step's `overrides`, and is worded as `asl.override.<code>`. */
export const OVERRIDES = ['minor_surrender', 'never_surrender', 'special_situation', 'no_enemy_in_los', 'no_adjacent_enemy'] as const;
export type OverrideCode = (typeof OVERRIDES)[number];

/** Heat of Battle DRM (A15.1), as data: each row's value; its reason is `asl.drm.<row>` in the catalogs. At most one nationality row. */
export const HOB_DRM = {
  elite: -1,
  leaderElite: -1,
  broken: 1,
  conscript: 1,
  green: 1,
  nkvd: -1,
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
 * The A15.1 table's notes that turn Berserk or Surrender into Battle Hardening (the reply names each
 * as `asl.situation` words it). `japaneseOnly`: the note is for Japanese units.
 */
export const SPECIAL_SITUATIONS = {
  none: undefined,
  pillbox_or_cave: { japaneseOnly: true },
  beach_or_pier: { japaneseOnly: false },
  enemy_in_ocean: { japaneseOnly: false },
} as const;
export type SpecialSituation = keyof typeof SPECIAL_SITUATIONS;
export const SPECIAL_SITUATION_CODES = Object.keys(SPECIAL_SITUATIONS) as [SpecialSituation, ...SpecialSituation[]];
