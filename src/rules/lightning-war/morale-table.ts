import type { Band } from '../types.js';
import { said, type Said } from '../../i18n/said.js';

export type MoraleCode = 'firm' | 'pinned' | 'suppressed' | 'fall_back' | 'retreat' | 'rout' | 'eliminated';

export const LW_REF = 'Lightning War, Morale Table';

/** The morale table (Final of 3d6 + modifiers), open-ended both ways. */
export const MORALE_TABLE: readonly Band<MoraleCode>[] = [
  { min: 11, max: Infinity, code: 'firm', label: 'Morale firm', tone: 'good', effect: 'No effect.' },
  { min: 9, max: 10, code: 'pinned', label: 'Pinned', tone: 'mixed', effect: 'It cannot move for one turn unless falling back.' },
  { min: 7, max: 8, code: 'suppressed', label: 'Suppressed', tone: 'mixed', effect: 'For one turn it cannot fire, and cannot move unless falling back.' },
  {
    min: 6,
    max: 6,
    code: 'fall_back',
    label: 'Fall back',
    tone: 'mixed',
    effect: 'If it is not under cover it moves to the nearest cover, and does not fire until it gets there.',
  },
  {
    min: 5,
    max: 5,
    code: 'retreat',
    label: 'Retreat',
    tone: 'bad',
    effect: 'It moves away from the enemy to cover, then on to its rally point, without firing.',
  },
  {
    min: 3,
    max: 4,
    code: 'rout',
    label: 'Rout',
    tone: 'bad',
    effect: 'It moves at its fastest speed away from the enemy toward the friendly table edge, without firing.',
  },
  { min: -Infinity, max: 2, code: 'eliminated', label: 'Eliminated', tone: 'bad', effect: 'The unit scatters: remove it.' },
];

export const PINNED_ARMOR_EFFECT = 'Pinned has no effect on an armored vehicle: carry on.';

export const SURRENDER = {
  code: 'surrender',
  label: 'Surrender',
  tone: 'bad',
  effect: 'It would rout, but a visible enemy unit is within 100 m (2"): the unit surrenders. Remove it.',
} as const;

export const RALLIED = {
  code: 'rallied',
  label: 'Rallied',
  tone: 'good',
  effect: 'The unit rallies and stops retreating or routing.',
} as const;

export const RALLY_FAILED = {
  code: 'rally_failed',
  label: 'Rally failed',
  tone: 'bad',
  effect: 'Only a firm result rallies; the unit stays exactly as it was (a rally roll never makes it worse).',
} as const;

export const MORALE_LEVELS = ['shaken', 'leery', 'professional', 'resolved', 'fanatic'] as const;
export type MoraleLevel = (typeof MORALE_LEVELS)[number];

export const BASE_MORALE: Record<MoraleLevel, number> = { shaken: -4, leery: -2, professional: 0, resolved: 2, fanatic: 4 };

/**
 * Casualty bands as lost/original, in fifths so the test stays in integers: a band applies when
 * lost/original is above `aboveFifths`/5 and at most `upToFifths`/5. The edges (exactly 20%, 40%,
 * 60%) follow the source's own examples: 1/5 is no modifier, 2/5 is −2, 3/5 is −4.
 */
export const CASUALTY_BANDS = [
  { aboveFifths: 1, upToFifths: 2, value: -2, reason: 'casualties over 20% up to 40%' },
  { aboveFifths: 2, upToFifths: 3, value: -4, reason: 'casualties over 40% up to 60%' },
  { aboveFifths: 3, upToFifths: 5, value: -6, reason: 'casualties over 60%' },
] as const;

export const COVERS = ['none', 'soft', 'hard'] as const;
export type Cover = (typeof COVERS)[number];
export const COVER_MODIFIER: Record<Cover, number> = { none: 0, soft: 2, hard: 4 };

export const UNIT_TYPES = ['infantry', 'armored_vehicle', 'soft_vehicle'] as const;

/** What a unit is doing after its checks: a rally is for a retreating or routing unit. */
export const LW_STATES = ['steady', 'retreating', 'routing'] as const;
export type LwState = (typeof LW_STATES)[number];
export type UnitType = (typeof UNIT_TYPES)[number];

/** How far a company (or higher) commander may be and still steady the unit. */
export const COMMANDER_RANGE_M: Record<UnitType, number> = { infantry: 100, armored_vehicle: 250, soft_vehicle: 250 };

export const STATUS_MODIFIERS = {
  immobilized: { reason: 'immobilized', value: -2 },
  nearKill: { reason: 'suffered a Near Kill this turn', value: -3 },
  reserveMove: { reason: 'using reserve movement', value: -2 },
  commander: { value: 2 },
  rally: { reason: 'rally attempt', value: 2 },
} as const;

/** What caused the check, as the sentence the reply gives; recorded and shown, worth no modifier. */
export const CHECK_REASONS = {
  casualties_33: 'it lost a third or more of its strength in one phase',
  casualties_after_50: 'it took losses when already at half strength or less',
  friendly_rout_nearby: 'a friendly unit routed within 100 m (2")',
  friendly_fire: 'it was hit by friendly fire',
  vehicle_penetrated: 'it was penetrated but not destroyed',
  overrun: 'it was overrun',
} as const;

/** Reasons that fit only one kind of unit: overrun is for infantry, penetration for vehicles. */
export const REASON_FITS: Partial<Record<keyof typeof CHECK_REASONS, { types: readonly UnitType[]; what: Said }>> = {
  overrun: { types: ['infantry'], what: said('forInfantry') },
  vehicle_penetrated: { types: ['armored_vehicle', 'soft_vehicle'], what: said('forVehicles') },
};
export type CheckReason = keyof typeof CHECK_REASONS;
export const CHECK_REASON_CODES = Object.keys(CHECK_REASONS) as [CheckReason, ...CheckReason[]];
