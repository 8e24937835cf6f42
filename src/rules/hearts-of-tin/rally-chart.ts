import type { Band } from '../types.js';

export type RallyCode = 'huzzah' | 'rally' | 'retreat' | 'rout';

/** The rally chart (Final of 1d6 + modifiers). Open-ended at both ends. */
export const RALLY_CHART: readonly Band<RallyCode>[] = [
  {
    min: 7,
    max: Infinity,
    code: 'huzzah',
    label: 'Huzzah!',
    tone: 'good',
    effect: 'All disorder is removed and the unit may be given an order straight away.',
  },
  {
    min: 4,
    max: 6,
    code: 'rally',
    label: 'Rally',
    tone: 'good',
    effect: 'All disorder is removed. The unit may fall back up to half a move still facing the enemy, or change facing or formation, or fire.',
  },
  {
    min: 1,
    max: 3,
    code: 'retreat',
    label: 'Retreat',
    tone: 'bad',
    effect: 'The disorder stays. The unit must retreat a full move; it may end facing the enemy.',
  },
  {
    min: -Infinity,
    max: 0,
    code: 'rout',
    label: 'Rout',
    tone: 'bad',
    effect: 'The unit breaks and flees the field: remove it.',
  },
];

/** Shown instead of `rout` when it happens on the commander's re-roll. */
export const ROUT_COMMANDER_LOST = {
  code: 'rout_commander_lost',
  label: 'Rout, commander lost',
  tone: 'bad',
  effect: 'The unit breaks and flees the field, and the commander who joined it is lost with it: remove both.',
} as const;

/**
 * The modifier table: condition → value. Reasons are what the reply and the ledger show; the
 * quality and band rows are named by what applies ("elite", "joined by a band", "militia").
 */
export const RALLY_MODIFIERS = {
  noEnemyInSight: { reason: 'no enemy visible within 24"', value: +1 },
  eliteOrBand: { value: +1 },
  militiaOrIrregular: { value: -1 },
  extraDisorder: { reason: 'each extra disorder marker', value: -1 },
} as const;

export const RALLY_REF = 'Hearts of Tin, New Morale (a)(iii)';
