import type { Band } from '../types.js';
import { said, type Said } from '../../i18n/said.js';
import { worded } from '../words.js';

export type MoraleCode = 'firm' | 'pinned' | 'suppressed' | 'fall_back' | 'retreat' | 'rout' | 'eliminated';

export const LW_REF = 'Lightning War, Morale Table';

/** A result's name and effect as the catalogs word them. */
const lw = (code: MoraleCode | 'surrender' | 'rallied' | 'rally_failed') => worded(said(`lw.${code}.label`), said(`lw.${code}.effect`));

/** The morale table (Final of 3d6 + modifiers), open-ended both ways. */
export const MORALE_TABLE: readonly Band<MoraleCode>[] = [
  { min: 11, max: Infinity, code: 'firm', tone: 'good', ...lw('firm') },
  { min: 9, max: 10, code: 'pinned', tone: 'mixed', ...lw('pinned') },
  { min: 7, max: 8, code: 'suppressed', tone: 'mixed', ...lw('suppressed') },
  {
    min: 6,
    max: 6,
    code: 'fall_back',
    tone: 'mixed',
    ...lw('fall_back'),
  },
  {
    min: 5,
    max: 5,
    code: 'retreat',
    tone: 'bad',
    ...lw('retreat'),
  },
  {
    min: 3,
    max: 4,
    code: 'rout',
    tone: 'bad',
    ...lw('rout'),
  },
  { min: -Infinity, max: 2, code: 'eliminated', tone: 'bad', ...lw('eliminated') },
];

export const PINNED_ARMOR_EFFECT = said('lw.pinnedArmor');

export const SURRENDER = {
  code: 'surrender',
  tone: 'bad',
  ...lw('surrender'),
} as const;

export const RALLIED = {
  code: 'rallied',
  tone: 'good',
  ...lw('rallied'),
} as const;

export const RALLY_FAILED = {
  code: 'rally_failed',
  tone: 'bad',
  ...lw('rally_failed'),
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
  { band: 1, aboveFifths: 1, upToFifths: 2, value: -2 },
  { band: 2, aboveFifths: 2, upToFifths: 3, value: -4 },
  { band: 3, aboveFifths: 3, upToFifths: 5, value: -6 },
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
  immobilized: { value: -2 },
  nearKill: { value: -3 },
  reserveMove: { value: -2 },
  commander: { value: 2 },
  rally: { value: 2 },
} as const;

/**
 * What caused the check: recorded and shown, worth no modifier. The reply words each as a sentence
 * (`lw.r.because` in the catalogs).
 */
export const CHECK_REASON_CODES = ['casualties_33', 'casualties_after_50', 'friendly_rout_nearby', 'friendly_fire', 'vehicle_penetrated', 'overrun'] as const;
export type CheckReason = (typeof CHECK_REASON_CODES)[number];

/** Reasons that fit only one kind of unit: overrun is for infantry, penetration for vehicles. */
export const REASON_FITS: Partial<Record<CheckReason, { types: readonly UnitType[]; what: Said }>> = {
  overrun: { types: ['infantry'], what: said('forInfantry') },
  vehicle_penetrated: { types: ['armored_vehicle', 'soft_vehicle'], what: said('forVehicles') },
};
