import type { PackInput } from './modifiers.js';
import type { PackOutcome } from './roll.js';
import type { PackFile, PackReroll } from './schema.js';
import { scopeOf, valuesOf } from './scope.js';
import { whenHolds } from './when.js';

/** A re-roll a roll offers: the test it was offered on, the test it rolls, and its rules (who, once). */
export type RerollOffer = { on: string; start: string; reroll: PackReroll };

/**
 * The re-roll a roll's results allow: the first test of the roll whose `reroll.when` holds, its
 * `result:` read against that test's result (a graded result by the result it grades).
 */
export function rerollOffer(pack: PackFile, outcome: Pick<PackOutcome, 'steps'>, input: PackInput): RerollOffer | undefined {
  for (const step of outcome.steps) {
    const test = Object.hasOwn(pack.tests, step.kind) ? pack.tests[step.kind] : undefined;
    if (!test?.reroll) continue;
    const known = { result: step.result.split(':')[0]! } as const;
    const values = (name: string) => (name === 'result' ? known.result : valuesOf(input)(name));
    if (whenHolds(test.reroll.when, values, () => scopeOf(input))) return { on: step.kind, start: test.reroll.test ?? step.kind, reroll: test.reroll };
  }
  return undefined;
}

/** The tests a re-roll may start at: each test's re-roll test (itself when it names none). */
export const rerollStarts = (pack: PackFile): string[] => Object.entries(pack.tests).flatMap(([name, t]) => (t.reroll ? [t.reroll.test ?? name] : []));
