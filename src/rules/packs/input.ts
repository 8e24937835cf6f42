import type { PackInput } from './modifiers.js';
import type { Pack } from './pack.js';
import type { OptionValue } from './schema.js';
import { domainOf, namesReadBy } from './vars.js';
import { said, type Said } from '../../i18n/said.js';

/** A roster unit's values for the pack's unit fields: whole numbers, or a choice field's value. */
export type UnitValues = Readonly<Record<string, number | string>>;

/** The inputs of a roll, and where they came from: the unit's field, or given over the unit's. */
export type ResolvedInput = { input: PackInput; fromUnit: string[]; overridden: string[] };

const shown = (v: OptionValue) => (typeof v === 'string' ? `"${v}"` : String(v));

/** A value refused, in the reader's language (the option's name and values are the pack's own). */
const notAllowed = (name: string, value: OptionValue, o: Pack['options'][number] | NonNullable<Pack['unit_fields']>[number]): Said =>
  said('packValueNotAllowed', {
    option: name,
    value: shown(value),
    allowed: o.type === 'integer' ? `${o.min}–${o.max}` : domainOf(o).map(shown).join(', '),
  });
const own = <T>(r: Readonly<Record<string, T>> | undefined, k: string): T | undefined => (r !== undefined && Object.hasOwn(r, k) ? r[k] : undefined);

/**
 * Every option's value: as given, else the unit's field (`from_unit`), else the default. A value
 * outside the option's range, or a required option left without one, is a sentence naming it, said
 * in the reader's language when the refusal is shown.
 * A unit field the pack reads by its own name (no option shares it) comes from the unit, else its default.
 */
export function resolveInput(pack: Pack, given: Readonly<Record<string, OptionValue | undefined>>, unit?: UnitValues): ResolvedInput | Said {
  const input: Record<string, OptionValue> = {};
  const fromUnit: string[] = [];
  const overridden: string[] = [];
  for (const o of pack.options) {
    const mine = own(given, o.name);
    const field = o.from_unit !== undefined && unit ? own(unit, o.from_unit) : undefined;
    const value = mine ?? field ?? o.default;
    if (value === undefined)
      return o.from_unit !== undefined ? said('packNeedsOptionOrUnit', { option: o.name, field: o.from_unit }) : said('packNeedsOption', { option: o.name });
    if (!domainOf(o).includes(value)) return notAllowed(o.name, value, o);
    if (mine === undefined && field !== undefined) fromUnit.push(o.name);
    if (mine !== undefined && field !== undefined && mine !== field) overridden.push(o.name);
    input[o.name] = value;
  }
  const read = namesReadBy(pack);
  for (const f of pack.unit_fields ?? []) {
    if (!read.has(f.name) || pack.options.some((o) => o.name === f.name)) continue;
    const value = own(unit, f.name) ?? f.default;
    if (value === undefined) return said('packNeedsField', { field: f.name });
    if (!domainOf(f).includes(value)) return notAllowed(f.name, value, f);
    if (own(unit, f.name) !== undefined) fromUnit.push(f.name);
    input[f.name] = value;
  }
  return { input, fromUnit, overridden };
}

/** What a roll does to its unit: the fields it adds to or sets, in order, and whether it leaves. */
export type UnitChange = { add: Record<string, number>; set: Record<string, number | string>; remove: boolean };

/** The unit's fields after the change, each integer kept within its field's bounds; undefined when it leaves. */
export function changedUnit(pack: Pack, unit: UnitValues, change: UnitChange): Record<string, number | string> | undefined {
  if (change.remove) return undefined;
  const next: Record<string, number | string> = { ...unit };
  for (const f of pack.unit_fields ?? []) {
    if (f.type === 'choice') {
      const set = own(change.set, f.name);
      if (set !== undefined) next[f.name] = set;
      continue;
    }
    const set = own(change.set, f.name);
    const was = own(next, f.name);
    const base = typeof set === 'number' ? set : typeof was === 'number' ? was : (f.default ?? f.min);
    next[f.name] = Math.min(f.max, Math.max(f.min, base + (own(change.add, f.name) ?? 0)));
  }
  return next;
}
