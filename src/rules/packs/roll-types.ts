import type { Modifier } from '../types.js';
import type { Known } from './scope.js';
import type { UnitValues } from './input.js';
import type { PackResult } from './schema.js';

// The shapes a pack roll's steps are read into: apart from roll.ts, so the chain of follow-ups
// (chain.ts) and the roll can both name them without importing each other.

/** The target a test compared with: the option's value, its modifiers, and the bound it was clamped to. */
export type PackTarget = { base: number; modifiers: Modifier[]; value: number; compare: 'at_most' | 'at_least'; clampedFrom?: number };

/** A unit field a change brought to a bound: the value it holds, the value past it a change asked for, and what fired there. */
export type PackLimit = { field: string; bound: 'min' | 'max'; value: number; clampedFrom?: number; then?: string; effect?: string };

/** What a follow-up reads of the test before it. */
export type Parent = { total: number; margin?: number };

/** How a test reads its dice: a special on the kept dice first, then the target or the bands, then a grade by margin. */
export type Reading = {
  id: string;
  result: PackResult;
  natural: number;
  final: number;
  modifiers: Modifier[];
  target?: PackTarget;
  margin?: number;
  special: boolean;
  grade?: string;
  /** total (final), target and margin, for the expressions of its unit change and follow-ups. */
  known: Known;
};

/** Where a roll starts: the first test whose `when` holds, or a re-roll's test; and the unit's values before it. */
export type RollStart = { unit?: UnitValues; start?: string };
