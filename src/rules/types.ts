/** Shapes shared by every rule system. Nothing here knows about Discord or SQLite. */

export type { AnySystemId, SystemId } from './systems.js';
import type { AnySystemId } from './systems.js';
import type { Said } from '../i18n/said.js';

/** How a result went for the unit; the renderer turns it into a colour. */
export type Tone = 'good' | 'mixed' | 'bad' | 'neutral';

/** A rule's words by identifier (src/rules/words.ts): the reply renders them in its reader's language. */
export type Says = { label: Said; effect: Said };

export type Modifier = { reason: string; value: number; says?: Said };

/** One finding of the rules: a result code, what it means, and where the rule is. */
export type Finding = {
  kind: string;
  result: string;
  /** The result's name, what the unit must do now, and how it went for the unit. */
  label: string;
  effect: string;
  says?: Says;
  tone: Tone;
  /** Rule reference shown beside the result so players can check it. */
  ref: string;
};

/** One roll on one table: the dice, every modifier that applied, and where it landed. */
export type Step = Finding & {
  dice: number[];
  original: number;
  modifiers: Modifier[];
  final: number;
};

export type Outcome<S extends Finding = Finding> = {
  system: AnySystemId;
  steps: S[];
  /** The result code that stands: the last step's, unless a system says otherwise. */
  result: string;
  tone: Tone;
  /** Exact chances for the inputs given, as fractions ("5/12"): this result, and this or better. */
  odds?: { exactly: string; or_better: string; distribution?: Record<string, string> };
};

/** A row of a results table: Final totals from `min` to `max` inclusive (open-ended with ±Infinity). */
export type Band<Code extends string = string> = {
  min: number;
  max: number;
  code: Code;
  /** The result's name as players say it. */
  label: string;
  tone: Tone;
  /** What the unit must do now, in our own words. */
  effect: string;
  says: Says;
};

/** Finds the row of an open-ended table that a Final total falls in. */
export function bandFor<B extends { min: number; max: number }>(table: readonly B[], final: number): B {
  const row = table.find((b) => final >= b.min && final <= b.max);
  if (!row) throw new RangeError(`table has no row for ${final}`);
  return row;
}

export const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** Drops modifiers worth 0: the conventions say they are not shown. */
export const applied = (mods: Modifier[]) => mods.filter((m) => m.value !== 0);
