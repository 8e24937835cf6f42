import type { Band } from '../types.js';
import { said } from '../../i18n/said.js';
import { worded } from '../words.js';

export type RallyCode = 'huzzah' | 'rally' | 'retreat' | 'rout';

/** The rally chart (Final of 1d6 + modifiers). Open-ended at both ends. */
export const RALLY_CHART: readonly Band<RallyCode>[] = [
  {
    min: 7,
    max: Infinity,
    code: 'huzzah',
    tone: 'good',
    ...worded(said('hot.huzzah.label'), said('hot.huzzah.effect')),
  },
  {
    min: 4,
    max: 6,
    code: 'rally',
    tone: 'good',
    ...worded(said('hot.rally.label'), said('hot.rally.effect')),
  },
  {
    min: 1,
    max: 3,
    code: 'retreat',
    tone: 'bad',
    ...worded(said('hot.retreat.label'), said('hot.retreat.effect')),
  },
  {
    min: -Infinity,
    max: 0,
    code: 'rout',
    tone: 'bad',
    ...worded(said('hot.rout.label'), said('hot.rout.effect')),
  },
];

/** Shown instead of `rout` when it happens on the commander's re-roll. */
export const ROUT_COMMANDER_LOST = {
  code: 'rout_commander_lost',
  tone: 'bad',
  ...worded(said('hot.rout_commander_lost.label'), said('hot.rout_commander_lost.effect')),
} as const;

/**
 * The modifier table: condition → value. Reasons are what the reply and the ledger show; the
 * quality and band rows are named by what applies ("elite", "joined by a band", "militia").
 */
export const RALLY_MODIFIERS = {
  noEnemyInSight: { reason: said('hot.mod.noEnemy'), value: +1 },
  eliteOrBand: { value: +1 },
  militiaOrIrregular: { value: -1 },
  extraDisorder: { reason: said('hot.mod.extraDisorder'), value: -1 },
} as const;

export const RALLY_REF = 'Hearts of Tin, New Morale (a)(iii)';
