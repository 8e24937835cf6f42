import { namesOf, wholeOf, type Scope } from './expr.js';
import type { OptionValue } from './values.js';

/**
 * A pack's conditions (`when:` on a modifier, a test or a re-roll): each key names an option, a
 * unit field (or, on a re-roll, `result`) and what it must be; `any:` / `all:` hold lists of
 * conditions. Every key must hold.
 */

export type CondValue = string | number | boolean;
export type CondTest = CondValue | { at_least: number | string } | { at_most: number | string } | { in: CondValue[] } | { not: CondValue };
export type When = { [name: string]: CondTest | When[] };

/** The values a condition reads: an option's, a unit field's, or `result` on a re-roll. */
export type Values = (name: string) => OptionValue | undefined;

export const isGroup = (key: string) => key === 'any' || key === 'all';

/** Whether one test holds of a value; a bound is a whole number or an expression over `scope` (made only when one is read). */
function holds(test: CondTest, v: OptionValue | undefined, scope: () => Scope): boolean {
  if (typeof test !== 'object') return v === test;
  if ('in' in test) return test.in.some((x) => x === v);
  if ('not' in test) return v !== test.not;
  if (typeof v !== 'number') return false;
  const bound = 'at_least' in test ? test.at_least : test.at_most;
  const b = typeof bound === 'number' ? bound : wholeOf(bound, scope());
  return 'at_least' in test ? v >= b : v <= b;
}

/** Whether every key of a condition holds for these values. */
export function whenHolds(when: When | undefined, values: Values, scope: () => Scope): boolean {
  if (!when) return true;
  const lazy = scope;
  for (const key in when) {
    if (!Object.hasOwn(when, key)) continue;
    const test = when[key]!;
    if (key === 'any' && Array.isArray(test)) {
      if (!test.some((w) => whenHolds(w, values, lazy))) return false;
    } else if (key === 'all' && Array.isArray(test)) {
      if (!test.every((w) => whenHolds(w, values, lazy))) return false;
    } else if (!holds(test as CondTest, values(key), lazy)) return false;
  }
  return true;
}

/** Each leaf of a condition with its path (`when.any[1].pins`), for the validator. */
export function leavesOf(when: When | undefined, at: string): { path: string; name: string; test: CondTest }[] {
  if (!when) return [];
  return Object.entries(when).flatMap(([key, test]) =>
    isGroup(key) && Array.isArray(test)
      ? test.flatMap((w, i) => leavesOf(w, `${at}.${key}[${i}]`))
      : [{ path: `${at}.${key}`, name: key, test: test as CondTest }],
  );
}

/** Every name a condition reads: its keys, and the names in its bounds' expressions. */
export function namesInWhen(when: When | undefined): string[] {
  return [
    ...new Set(
      leavesOf(when, '').flatMap((l) => [
        l.name,
        ...(typeof l.test === 'object' && 'at_least' in l.test ? namesOf(l.test.at_least) : []),
        ...(typeof l.test === 'object' && 'at_most' in l.test ? namesOf(l.test.at_most) : []),
      ]),
    ),
  ];
}
