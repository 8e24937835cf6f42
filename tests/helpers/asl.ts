import { parseUnit, type AslUnit } from '../../src/rules/asl/parse-unit.js';
import type { HobInput } from '../../src/rules/asl/hob.js';
import type { CheckInput } from '../../src/rules/asl/mc.js';
import { isSaid } from '../../src/i18n/said.js';
import { sayIn } from '../../src/i18n/speak.js';

/** Two dice (coloured first) that add up to `total`, 2–12. */
export function dr(total: number): [number, number] {
  const a = Math.min(6, total - 1);
  return [a, total - a];
}

export function unit(text: string, opts: Parameters<typeof parseUnit>[1] = {}): AslUnit {
  const u = parseUnit(text, opts);
  if (isSaid(u)) throw new Error(sayIn('en', u));
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

/** A Morale Check input with every option at its command default; `over` sets what a test is about. */
export const checkBase = (u: AslUnit, over: Partial<CheckInput> = {}): CheckInput => {
  const { unit: _u, broken: _b, ...hob } = hobBase(u);
  return {
    unit: u,
    check: 'mc',
    number: 0,
    ml: undefined,
    leaderDrm: undefined,
    elr: undefined,
    ift: true,
    broken: false,
    wounded: false,
    terrain: 'none',
    desperation: false,
    selfRally: false,
    firstRally: true,
    commissar: 'none',
    hob,
    companions: [],
    ...over,
  };
};
