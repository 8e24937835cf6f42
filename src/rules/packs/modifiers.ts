import type { Modifier } from '../types.js';
import type { OptionValue, PackFile, PackModifier } from './schema.js';
import { namesOf, wholeOf } from './expr.js';
import { scopeOf, valuesOf, type Known } from './scope.js';
import { namesInWhen, whenHolds } from './when.js';

const NOTHING: Known = {};

/** A roll's inputs: every option's value, by option name. */
export type PackInput = Readonly<Record<string, OptionValue>>;

/**
 * A value kept under a name a pack's author chose, read only if it is the object's own: an option
 * or field named `constructor` or `toString` must not read what every object inherits.
 */
export const ownValue = <T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined =>
  record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;

/** Whether a modifier applies to this test and adds to this side (the total, or the target). */
export const modifiesTest = (m: PackModifier, test: string, side: 'total' | 'target') => m.to === side && (m.tests === undefined || m.tests.includes(test));

/**
 * A modifier's worth for these inputs: 0 when a `when` value differs, times `per`. With `beyond`,
 * only what the option has past that many counts (never below none); without it, the option's
 * value as it is, negative too (a Will of −2 gives −2 × value).
 */
export function modifierValue(m: PackModifier, input: PackInput, known: Known = NOTHING, values = valuesOf(input, known)): number {
  // Conditions and whole numbers may be expressions over the options, fields and the test's total (when.ts, expr.ts).
  let made: ReturnType<typeof scopeOf> | undefined;
  const scope = () => (made ??= scopeOf(input, known));
  if (m.when && !whenHolds(m.when, values, scope)) return 0;
  const value = typeof m.value === 'number' ? m.value : wholeOf(m.value, scope());
  if (m.per === undefined) return value || 0;
  const has = wholeOf(m.per, scope());
  const count = m.beyond === undefined ? has : Math.max(0, has - wholeOf(m.beyond, scope()));
  // `|| 0`: 0 × a negative value is −0, which would be shown and recorded as "-0".
  return value * count || 0;
}

/** The modifiers that apply to one side of one test, with their labels, in the pack's order; zeros left out. */
export function modifiersFor(pack: PackFile, test: string, side: 'total' | 'target', input: PackInput, known: Known = NOTHING): Modifier[] {
  const values = valuesOf(input, known);
  const out: Modifier[] = [];
  for (const m of pack.modifiers) {
    if (!modifiesTest(m, test, side)) continue;
    const value = modifierValue(m, input, known, values);
    if (value !== 0) out.push({ reason: m.label, value });
  }
  return out;
}

/** The names a modifier reads: in its value, `per`, `beyond` and `when`. */
export const optionsRead = (m: PackModifier): string[] => [...new Set([...namesOf(m.value), ...namesOf(m.per), ...namesOf(m.beyond), ...namesInWhen(m.when)])];
