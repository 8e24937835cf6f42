import { parseUnit, type AslUnit } from '../../src/rules/asl/parse-unit.js';
import type { HobInput } from '../../src/rules/asl/hob.js';

/** Two dice (coloured first) that add up to `total`, 2–12. */
export function dr(total: number): [number, number] {
  const a = Math.min(6, total - 1);
  return [a, total - a];
}

export function unit(text: string, opts: Parameters<typeof parseUnit>[1] = {}): AslUnit {
  const u = parseUnit(text, opts);
  if (typeof u === 'string') throw new Error(u);
  return u;
}

export const hobBase = (u: AslUnit, over: Partial<HobInput> = {}): HobInput => ({
  unit: u,
  broken: false,
  withLeader: false,
  enemyInLos: true,
  enemyAdjacent: false,
  fanatic: false,
  subType: 'none',
  vsRussians: false,
  noQuarter: false,
  status: 'none',
  ...over,
});
