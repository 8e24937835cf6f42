import type { Modifier } from '../types.js';
import type { OptionValue, PackFile, PackModifier } from './schema.js';

/** A roll's inputs: every option's value, by option name. */
export type PackInput = Readonly<Record<string, OptionValue>>;

/** Whether a modifier applies to this test and adds to this side (the total, or the target). */
export const modifiesTest = (m: PackModifier, test: string, side: 'total' | 'target') => m.to === side && (m.tests === undefined || m.tests.includes(test));

/** A modifier's worth for these inputs: 0 when a `when` value differs, times `per` beyond `beyond`. */
export function modifierValue(m: PackModifier, input: PackInput): number {
  for (const [option, value] of Object.entries(m.when ?? {})) if (input[option] !== value) return 0;
  if (m.per === undefined) return m.value;
  const count = Math.max(0, Number(input[m.per] ?? 0) - (m.beyond ?? 0));
  return m.value * count;
}

/** The modifiers that apply to one side of one test, with their labels, in the pack's order; zeros left out. */
export function modifiersFor(pack: PackFile, test: string, side: 'total' | 'target', input: PackInput): Modifier[] {
  return pack.modifiers
    .filter((m) => modifiesTest(m, test, side))
    .map((m) => ({ reason: m.label, value: modifierValue(m, input) }))
    .filter((m) => m.value !== 0);
}

/** The options a modifier reads: its `per` and the keys of its `when`. */
export const optionsRead = (m: PackModifier): string[] => [...(m.per === undefined ? [] : [m.per]), ...Object.keys(m.when ?? {})];
