import { wholeOf } from './expr.js';
import type { UnitChange, UnitValues } from './input.js';
import type { PackInput } from './modifiers.js';
import type { PackLimit, Parent, Reading, RollStart } from './roll-types.js';
import { firstTest } from './first-test.js';
import type { PackFile, PackResult } from './schema.js';
import { scopeOf } from './scope.js';

/**
 * A roll walks a queue of tests: the first, then each follow-up a result names (`then:`), then each
 * a unit field's bound names (`at_min` / `at_max`) when a change brings it there. The roll and its
 * exact odds walk it with the same steps.
 */

/** Never more tests in one roll than this, whatever a pack's links (the validator refuses loops and long chains). */
export const MAX_STEPS = 8;

export type ChainState = {
  queue: string[];
  ids: string[];
  parent?: Parent;
  /** The unit's fields as the roll goes (undefined when the roll knows none). */
  unit?: Record<string, number | string>;
  change: UnitChange | undefined;
};

/** The unit's values before the roll: the named unit's, else the options that read a field (`from_unit`), else a field's own option. */
export function unitBefore(pack: PackFile, input: PackInput, unit: UnitValues | undefined): Record<string, number | string> | undefined {
  const out: Record<string, number | string> = {};
  for (const f of pack.unit_fields ?? []) {
    const own = unit && Object.hasOwn(unit, f.name) ? unit[f.name] : undefined;
    const option = pack.options.find((o) => o.from_unit === f.name);
    const v = own ?? (option && Object.hasOwn(input, option.name) ? input[option.name] : undefined);
    if (typeof v === 'number' || typeof v === 'string') out[f.name] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

export function startOf(pack: PackFile, input: PackInput, from: RollStart): ChainState {
  const first = from.start ?? firstTest(pack, input);
  if (first === undefined) throw new RangeError('no first test holds for these options');
  const unit = unitBefore(pack, input, from.unit);
  return { queue: [first], ids: [], ...(unit ? { unit } : {}), change: undefined };
}

/** A result's unit change worked out for this reading (expressions read its total, target and margin). */
export function changeOf(pack: PackFile, input: PackInput, result: PackResult, reading: Reading): UnitChange | undefined {
  if (!result.unit) return undefined;
  const scope = scopeOf(input, reading.known);
  const choice = (f: string) => pack.unit_fields?.find((x) => x.name === f)?.type === 'choice';
  const add = Object.fromEntries(Object.entries(result.unit.add ?? {}).map(([f, v]) => [f, wholeOf(v, scope)]));
  const set = Object.fromEntries(Object.entries(result.unit.set ?? {}).map(([f, v]) => [f, choice(f) ? String(v) : wholeOf(v, scope)]));
  return { add, set, remove: result.unit.remove === true };
}

function merged(a: UnitChange | undefined, b: UnitChange): UnitChange {
  const change: UnitChange = { add: { ...a?.add }, set: { ...a?.set }, remove: a?.remove === true || b.remove };
  // Own keys only: a field named `constructor` adds to its own count, not to what every object inherits.
  for (const [f, v] of Object.entries(b.add)) change.add[f] = (Object.hasOwn(change.add, f) ? change.add[f]! : 0) + v;
  for (const [f, v] of Object.entries(b.set)) {
    change.set[f] = v;
    delete change.add[f];
  }
  return change;
}

/** One step's change applied to the unit as the roll knows it: each integer field kept within its bounds, and each bound it reached. */
function applied(pack: PackFile, unit: Record<string, number | string>, change: UnitChange): { unit: Record<string, number | string>; limits: PackLimit[] } {
  const next = { ...unit };
  const limits: PackLimit[] = [];
  for (const f of pack.unit_fields ?? []) {
    const set = Object.hasOwn(change.set, f.name) ? change.set[f.name] : undefined;
    const add = Object.hasOwn(change.add, f.name) ? change.add[f.name]! : 0;
    if (set === undefined && !add) continue;
    if (f.type === 'choice') {
      if (set !== undefined) next[f.name] = set;
      continue;
    }
    const before = typeof next[f.name] === 'number' ? (next[f.name] as number) : (f.default ?? f.min);
    const raw = (typeof set === 'number' ? set : before) + add;
    const value = Math.min(f.max, Math.max(f.min, raw));
    next[f.name] = value;
    const bound = value === f.min && raw <= f.min ? 'min' : value === f.max && raw >= f.max ? 'max' : undefined;
    const fires = bound && before !== value ? (bound === 'min' ? f.at_min : f.at_max) : undefined;
    if (raw !== value || fires)
      limits.push({
        field: f.name,
        bound: bound!,
        value,
        ...(raw !== value ? { clampedFrom: raw } : {}),
        ...(fires?.then ? { then: fires.then } : {}),
        ...(fires?.effect ? { effect: fires.effect } : {}),
      });
  }
  return { unit: next, limits };
}

/** The roll after one test's reading: its change and the bounds it met, and the tests still to roll. */
export function advance(pack: PackFile, input: PackInput, state: ChainState, name: string, reading: Reading) {
  const change = changeOf(pack, input, reading.result, reading);
  const done = state.unit && change && !change.remove ? applied(pack, state.unit, change) : undefined;
  const limits = done?.limits ?? [];
  const ids = [...state.ids, reading.id];
  const queue =
    ids.length >= MAX_STEPS
      ? []
      : [...state.queue.slice(1), ...(reading.result.then ? [reading.result.then] : []), ...limits.flatMap((l) => (l.then ? [l.then] : []))];
  const unit = change?.remove ? undefined : (done?.unit ?? state.unit);
  const next: ChainState = {
    queue,
    ids,
    parent: { total: reading.final, ...(reading.margin !== undefined ? { margin: reading.margin } : {}) },
    ...(unit ? { unit } : {}),
    change: change ? merged(state.change, change) : state.change,
  };
  void name;
  return { state: next, change, limits };
}
