import { distributionOf } from '../dice/distribution.js';
import { parseExpression } from '../dice/expression.js';
import { modifiesTest, modifierValue, optionsRead, type PackInput } from './modifiers.js';
import type { OptionValue, PackFile, PackOption } from './schema.js';

/** Past this many combinations of linked options, the validator refuses rather than guess. */
export const MAX_COMBINATIONS = 200_000;

/**
 * Past this many steps in one pack, the validator refuses a test's bands rather than keep a
 * worker busy: a step is one total looked at while adding up what the dice and modifiers reach,
 * or one table entry read (5–20 ns); a modifier, a condition or a band's bound worked out for one
 * combination of the options counts EVALUATION steps (1–3 µs). Every check of a pack (bands summed
 * or walked value by value, the first tests' conditions, a follow-up's parent totals) draws on one
 * count, charged before the work is done. Measured at 6–20 ns a step, the limit is at most half a
 * second on a quiet core; a Lightning War morale pack as exact as the built-in one takes 17 million.
 */
export const MAX_REACH_WORK = 24_000_000;
export const EVALUATION = 150;

/** A pack's checking work, counted across all its tests (bands summed or walked, first tests' conditions). */
export type Work = { spent: number; readonly limit: number };
export const packWork = (limit = MAX_REACH_WORK): Work => ({ spent: 0, limit });

/** Counts `n` steps of work to be done; false (nothing counted) when they would pass the pack's limit. */
export function charge(work: Work, n: number): boolean {
  if (work.spent + n > work.limit) return false;
  work.spent += n;
  return true;
}

/** Every value an option can take. */
export function domainOf(o: PackOption): OptionValue[] {
  if (o.type === 'boolean') return [false, true];
  if (o.type === 'choice') return o.choices.map((c) => (typeof c === 'string' ? c : c.value));
  return Array.from({ length: Math.max(0, o.max - o.min + 1) }, (_, i) => o.min + i);
}

/** The totals a dice expression can show (kept dice and constants), lowest first. */
export function diceTotals(dice: string): number[] {
  const d = distributionOf(parseExpression(dice));
  return d.counts.flatMap((c, i) => (c > 0n ? [d.min + i] : []));
}

type Group = { options: string[]; mods: PackFile['modifiers'] };

/** Options linked by a modifier reading both: only linked options need their combinations walked. */
function linkedGroups(mods: PackFile['modifiers']): Group[] {
  const groups: { options: Set<string>; mods: PackFile['modifiers'] }[] = [];
  for (const m of mods) {
    const read = optionsRead(m);
    const touching = groups.filter((g) => read.some((o) => g.options.has(o)));
    const merged = { options: new Set(read), mods: [m] };
    for (const g of touching) {
      for (const o of g.options) merged.options.add(o);
      merged.mods.push(...g.mods);
      groups.splice(groups.indexOf(g), 1);
    }
    groups.push(merged);
  }
  return groups.map((g) => ({ options: [...g.options], mods: g.mods }));
}

const domainsOf = (pack: PackFile, group: Group) => group.options.map((name) => domainOf(pack.options.find((o) => o.name === name)!));

/**
 * Each modifier's worth over the combinations of the options it reads itself, as a table: a group
 * walk then adds table entries, never working a modifier out again (conditions and expressions
 * cost microseconds; a table entry, nanoseconds).
 */
function tableOf(m: PackFile['modifiers'][number], reads: number[], domains: OptionValue[][], names: string[]): Float64Array {
  const size = reads.reduce((n, i) => n * domains[i]!.length, 1);
  const table = new Float64Array(size);
  const input: Record<string, OptionValue> = Object.create(null);
  for (let k = 0; k < size; k++) {
    let rest = k;
    for (const i of reads) {
      input[names[i]!] = domains[i]![rest % domains[i]!.length]!;
      rest = Math.floor(rest / domains[i]!.length);
    }
    table[k] = modifierValue(m, input as PackInput);
  }
  return table;
}

/** The modifier evaluations `groupSums` makes (one per entry of each modifier's table), and the entries it adds. */
function groupWork(group: Group, domains: OptionValue[][]): { evaluations: number; lookups: number } {
  const reads = group.mods.map((m) => optionsRead(m).map((o) => group.options.indexOf(o)));
  const combinations = domains.reduce((n, d) => n * d.length, 1);
  return {
    evaluations: reads.reduce((n, r) => n + r.reduce((k, i) => k * domains[i]!.length, 1), 0),
    lookups: combinations * reads.reduce((n, r) => n + r.length + 1, 0),
  };
}

/** Every sum one group's modifiers can make, walking its options' combinations, lowest first. */
function groupSums(domains: OptionValue[][], group: Group): number[] {
  const reads = group.mods.map((m) => optionsRead(m).map((o) => group.options.indexOf(o)));
  const tables = group.mods.map((m, j) => tableOf(m, reads[j]!, domains, group.options));
  const combinations = domains.reduce((n, d) => n * d.length, 1);
  const sums = new Set<number>();
  const at = domains.map(() => 0);
  for (let n = 0; n < combinations; n++) {
    let sum = 0;
    for (let j = 0; j < tables.length; j++) {
      // The entry for this combination: the modifier's own options' places, in mixed radix.
      let k = 0;
      let radix = 1;
      for (const i of reads[j]!) {
        k += at[i]! * radix;
        radix *= domains[i]!.length;
      }
      sum += tables[j]![k]!;
    }
    sums.add(sum);
    for (let i = 0; i < at.length && ++at[i]! === domains[i]!.length; i++) at[i] = 0;
  }
  return [...sums].sort((a, b) => a - b);
}

/** Whole numbers as flags from `lo` on: the totals a test can reach. */
export type Reach = { lo: number; has: Uint8Array };

/** A sorted list of distinct numbers as runs of equal steps (`start`, `start + step`, … `n` of them). */
type Run = { start: number; step: number; n: number };
function runsOf(xs: readonly number[]): Run[] {
  const runs: Run[] = [];
  for (let i = 0; i < xs.length; ) {
    if (i + 1 === xs.length) {
      runs.push({ start: xs[i]!, step: 1, n: 1 });
      break;
    }
    const step = xs[i + 1]! - xs[i]!;
    let j = i + 1;
    while (j + 1 < xs.length && xs[j + 1]! - xs[j]! === step) j++;
    runs.push({ start: xs[i]!, step, n: j - i + 1 });
    i = j + 1;
  }
  return runs;
}

/**
 * Every a + b. A run of b of one value copies a's flags, shifted; a longer run of n values `step`
 * apart reads, for each total, how many of a's flags lie at step intervals under it: counts kept
 * per stride (`strided[j]` = a's flags at j, j − step, j − 2·step …), so each total is one
 * subtraction and a run of a thousand values costs one pass, not a thousand.
 */
function plus(a: Reach, bs: readonly number[], runs: readonly Run[]): Reach {
  const width = a.has.length + (bs.at(-1)! - bs[0]!);
  const out = new Uint8Array(width);
  const len = a.has.length;
  const strided = new Int32Array(len);
  for (const { start, step, n } of runs) {
    const d = start - bs[0]!;
    if (n === 1) {
      for (let i = 0; i < len; i++) if (a.has[i]) out[i + d] = 1;
      continue;
    }
    for (let j = 0; j < len; j++) strided[j] = a.has[j]! + (j >= step ? strided[j - step]! : 0);
    for (let i = d; i < width; i++) {
      // a's places i − d − k·step for k < n: the highest within a, down to (not including) the lowest.
      const first = i - d;
      const top = first < len ? first : first - Math.ceil((first - len + 1) / step) * step;
      const bottom = first - n * step;
      if (top < 0 || top <= bottom) continue;
      if (strided[top]! - (bottom >= 0 ? strided[bottom]! : 0) > 0) out[i] = 1;
    }
  }
  return { lo: a.lo + bs[0]!, has: out };
}

const reachOf = (totals: readonly number[]): Reach => {
  const has = new Uint8Array(totals.at(-1)! - totals[0]! + 1);
  for (const t of totals) has[t - totals[0]!] = 1;
  return { lo: totals[0]!, has };
};

/** Why a test's totals are not worked out: too many combinations of linked options, or too much work. */
export type ReachRefusal = { tooMany: string[]; combinations: number } | { work: number; spent: number; options: string[] };

/** What adding b to a flag set `width` wide costs, and the width after. */
function plusCost(width: number, bs: readonly number[], runs: readonly Run[]) {
  const next = width + bs.at(-1)! - bs[0]!;
  return { work: runs.reduce((w, r) => w + (r.n === 1 ? width : width + next), 0), width: next };
}

/**
 * Every sum these modifiers can add over every combination of options: exact, since groups of
 * options no modifier links add independently. Its work is counted before it is done.
 */
function modifierReach(pack: PackFile, mods: PackFile['modifiers'], left: number, spent: number): { reach: Reach; work: number } | ReachRefusal {
  const groups = linkedGroups(mods).map((g) => ({ ...g, domains: domainsOf(pack, g) }));
  let work = 0;
  for (const g of groups) {
    const combinations = g.domains.reduce((n, d) => n * d.length, 1);
    if (combinations > MAX_COMBINATIONS) return { tooMany: g.options, combinations };
    const { evaluations, lookups } = groupWork(g, g.domains);
    work += evaluations * EVALUATION + lookups;
  }
  const options = groups.flatMap((g) => g.options);
  if (work > left) return { work, spent, options };
  // Each group's sums, then the whole adding-up counted (each step's width is known beforehand).
  const parts = groups.map((g) => {
    const sums = groupSums(g.domains, g);
    return { sums, runs: runsOf(sums) };
  });
  let width = 1;
  for (const p of parts) {
    const cost = plusCost(width, p.sums, p.runs);
    work += cost.work;
    width = cost.width;
  }
  if (work > left) return { work, spent, options };
  return { reach: parts.reduce((reach, p) => plus(reach, p.sums, p.runs), reachOf([0])), work };
}

/**
 * The final totals each test of a pack can reach: its dice's totals plus every sum of the
 * modifiers on that side of it. Tests with the same modifiers share their sums; the whole pack's
 * work is counted before each part is done, and past MAX_REACH_WORK a test is refused, naming it.
 */
export function reachOfTests(pack: PackFile, budget: Work = packWork()) {
  const sums = new Map<string, Reach>();
  return (test: string, side: 'total' | 'target', dice: readonly number[]): Reach | ReachRefusal => {
    const { spent, limit } = budget;
    const mods = pack.modifiers.filter((m) => modifiesTest(m, test, side));
    const key = mods.map((m) => pack.modifiers.indexOf(m)).join(',');
    let own = sums.get(key);
    let work = 0;
    if (!own) {
      const found = modifierReach(pack, mods, limit - spent, spent);
      if (!('reach' in found)) return found;
      ({ reach: own, work } = found);
      sums.set(key, own);
    }
    const runs = runsOf(dice);
    work += plusCost(own.has.length, dice, runs).work;
    if (!charge(budget, work)) return { work, spent, options: [...new Set(mods.flatMap(optionsRead))] };
    return plus(own, dice, runs);
  };
}
