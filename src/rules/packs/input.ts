import type { PackInput } from './modifiers.js';
import type { Pack } from './load.js';
import { domainOf } from './reach.js';
import type { OptionValue, PackResult } from './schema.js';

/** A roster unit's values for the pack's unit fields. */
export type UnitValues = Readonly<Record<string, number>>;

/** The inputs of a roll, and where they came from: the unit's field, or given over the unit's. */
export type ResolvedInput = { input: PackInput; fromUnit: string[]; overridden: string[] };

const shown = (v: OptionValue) => (typeof v === 'string' ? `"${v}"` : String(v));

/**
 * Every option's value: as given, else the unit's field (`from_unit`), else the default. A value
 * outside the option's range, or a required option left without one, is a sentence naming it.
 */
export function resolveInput(pack: Pack, given: Readonly<Record<string, OptionValue | undefined>>, unit?: UnitValues): ResolvedInput | string {
  const input: Record<string, OptionValue> = {};
  const fromUnit: string[] = [];
  const overridden: string[] = [];
  for (const o of pack.options) {
    const own = given[o.name];
    const field = o.from_unit !== undefined && unit ? unit[o.from_unit] : undefined;
    const value = own ?? field ?? o.default;
    if (value === undefined) return o.from_unit !== undefined ? `${o.name} is needed: give it, or name a unit that has ${o.from_unit}` : `${o.name} is needed`;
    if (!domainOf(o).includes(value))
      return `${o.name}: ${shown(value)} is not allowed (${o.type === 'integer' ? `${o.min}–${o.max}` : domainOf(o).map(shown).join(', ')})`;
    if (own === undefined && field !== undefined) fromUnit.push(o.name);
    if (own !== undefined && field !== undefined && own !== field) overridden.push(o.name);
    input[o.name] = value;
  }
  return { input, fromUnit, overridden };
}

/** What a roll does to its unit: the fields it adds to or sets, in order, and whether it leaves. */
export type UnitChange = { add: Record<string, number>; set: Record<string, number>; remove: boolean };

/** The changes of every result in the roll, in the order they came. */
export function unitChangeOf(results: readonly PackResult[]): UnitChange | undefined {
  const change: UnitChange = { add: {}, set: {}, remove: false };
  let any = false;
  for (const r of results) {
    if (!r.unit) continue;
    any = true;
    for (const [f, v] of Object.entries(r.unit.add ?? {})) change.add[f] = (change.add[f] ?? 0) + v;
    for (const [f, v] of Object.entries(r.unit.set ?? {})) {
      change.set[f] = v;
      delete change.add[f];
    }
    if (r.unit.remove) change.remove = true;
  }
  return any ? change : undefined;
}

/** The unit's fields after the change, each kept within its field's bounds; undefined when it leaves. */
export function changedUnit(pack: Pack, unit: UnitValues, change: UnitChange): Record<string, number> | undefined {
  if (change.remove) return undefined;
  const next: Record<string, number> = { ...unit };
  for (const f of pack.unit_fields ?? []) {
    const base = change.set[f.name] ?? next[f.name] ?? f.default ?? f.min;
    next[f.name] = Math.min(f.max, Math.max(f.min, base + (change.add[f.name] ?? 0)));
  }
  return next;
}
