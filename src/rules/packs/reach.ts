import { distributionOf } from '../dice/distribution.js';
import { parseExpression } from '../dice/expression.js';
import { modifiesTest, modifierValue, optionsRead, type PackInput } from './modifiers.js';
import type { OptionValue, PackFile, PackOption } from './schema.js';

/** Past this many combinations of linked options, the validator refuses rather than guess. */
export const MAX_COMBINATIONS = 200_000;

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

/** Options linked by a modifier reading both: only linked options need their combinations walked. */
function linkedGroups(pack: PackFile, test: string, side: 'total' | 'target'): { options: string[]; mods: PackFile['modifiers'] }[] {
  const mods = pack.modifiers.filter((m) => modifiesTest(m, test, side));
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

/** Every sum one group's modifiers can make, walking its options' combinations. */
function groupSums(pack: PackFile, group: { options: string[]; mods: PackFile['modifiers'] }): Set<number> | number {
  const domains = group.options.map((name) => domainOf(pack.options.find((o) => o.name === name)!));
  const combinations = domains.reduce((n, d) => n * d.length, 1);
  if (combinations > MAX_COMBINATIONS) return combinations;
  const sums = new Set<number>();
  const at = domains.map(() => 0);
  for (let n = 0; n < combinations; n++) {
    const input: Record<string, OptionValue> = {};
    group.options.forEach((name, i) => {
      input[name] = domains[i]![at[i]!]!;
    });
    sums.add(group.mods.reduce((s, m) => s + modifierValue(m, input as PackInput), 0));
    for (let i = 0; i < at.length && ++at[i]! === domains[i]!.length; i++) at[i] = 0;
  }
  return sums;
}

/**
 * Every total the modifiers of one side of a test can add, over every combination of options:
 * exact, since groups of options no modifier links add independently. Or the options whose
 * combinations are too many to walk.
 */
export function modifierSums(pack: PackFile, test: string, side: 'total' | 'target'): { sums: number[] } | { tooMany: string[]; combinations: number } {
  let sums = new Set([0]);
  for (const group of linkedGroups(pack, test, side)) {
    const own = groupSums(pack, group);
    if (typeof own === 'number') return { tooMany: group.options, combinations: own };
    const next = new Set<number>();
    for (const a of sums) for (const b of own) next.add(a + b);
    sums = next;
  }
  return { sums: [...sums].sort((a, b) => a - b) };
}

/** Every final total a test can reach: its dice's totals plus every sum of its modifiers. */
export function reachableFinals(diceTotalsOf: number[], sums: number[]): number[] {
  const finals = new Set<number>();
  for (const t of diceTotalsOf) for (const s of sums) finals.add(t + s);
  return [...finals].sort((a, b) => a - b);
}
