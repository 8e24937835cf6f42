import type { Scope } from './expr.js';
import type { OptionValue } from './schema.js';
import type { Values } from './when.js';

/** What is known while a test is read: its dice's total, its target, its margin, and its parent's. */
export type Known = Readonly<Record<string, number | undefined>>;

/** A value under a name the pack's author chose, read only if it is the record's own (never `constructor`). */
const own = <T>(r: Readonly<Record<string, T>> | undefined, k: string): T | undefined => (r !== undefined && Object.hasOwn(r, k) ? r[k] : undefined);

/** The whole-number value of a name: what the test knows (total, target, margin, parent.*), else an option or field (a boolean is 1 or 0). */
export function scopeOf(input: Readonly<Record<string, OptionValue>>, known: Known = {}): Scope {
  return (name) => {
    const k = own(known, name);
    if (k !== undefined) return k;
    const v = own(input, name);
    return typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : undefined;
  };
}

/** The values conditions compare: an option's or field's as it is, or what the test knows. */
export const valuesOf =
  (input: Readonly<Record<string, OptionValue>>, known: Known = {}): Values =>
  (name) =>
    own(known, name) ?? own(input, name);
