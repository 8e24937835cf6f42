import type { Roller } from '../dice/roller.js';

/** An exact probability: n/d in lowest terms. */
export type Fraction = { n: bigint; d: bigint };

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));
export function fraction(n: bigint, d: bigint): Fraction {
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
}
export const add = (a: Fraction, b: Fraction) => fraction(a.n * b.d + b.n * a.d, a.d * b.d);
export const ZERO: Fraction = { n: 0n, d: 1n };
export const ONE: Fraction = { n: 1n, d: 1n };
export const toNumber = (f: Fraction) => Number(f.n) / Number(f.d);
export const format = (f: Fraction) => (f.n === 0n ? '0' : f.d === 1n ? String(f.n) : `${f.n}/${f.d}`);
export const percent = (f: Fraction) => `${(toNumber(f) * 100).toFixed(1)}%`;

class NeedDie {
  constructor(readonly sides: number) {}
}

/**
 * The exact distribution of a rules function's outcomes, by walking every sequence of dice it can
 * draw (a die it has not yet been given is a branch point). Rules are pure, so replaying a prefix
 * reproduces the same path. `key` names an outcome; equal keys add up.
 */
export function enumerate<T>(rules: (roller: Roller) => T, key: (outcome: T) => string): Map<string, Fraction> {
  const dist = new Map<string, Fraction>();
  const stack: { faces: number[]; weight: Fraction }[] = [{ faces: [], weight: ONE }];
  while (stack.length) {
    const path = stack.pop()!;
    let i = 0;
    const roller: Roller = {
      roll(sides) {
        if (i < path.faces.length) return path.faces[i++]!;
        throw new NeedDie(sides);
      },
    };
    try {
      const k = key(rules(roller));
      dist.set(k, add(dist.get(k) ?? ZERO, path.weight));
    } catch (err) {
      if (!(err instanceof NeedDie)) throw err;
      const weight = fraction(path.weight.n, path.weight.d * BigInt(err.sides));
      for (let f = err.sides; f >= 1; f--) stack.push({ faces: [...path.faces, f], weight });
    }
  }
  return dist;
}

export type OddsRow = { result: string; p: Fraction };

/**
 * A value computed once per key, the oldest dropped first past `size`: distributions depend only
 * on their input, and players roll the same situations again and again.
 */
export function memo<T>(size: number): (key: string, compute: () => T) => T {
  const kept = new Map<string, T>();
  return (key, compute) => {
    if (kept.has(key)) return kept.get(key)!;
    const value = compute();
    if (kept.size >= size) kept.delete(kept.keys().next().value!);
    kept.set(key, value);
    return value;
  };
}

/** A rules distribution computed once per distinct input; `key` must name everything it depends on. */
export const remembered = memo<Map<string, Fraction>>(512);

/** A cache key for a rules input; the ASL data entry (with its ladder links) is named by its unit. */
export const inputKey = (system: string, input: unknown) => system + JSON.stringify(input, (k, v) => (k === 'known' ? undefined : v));

/**
 * The distribution as rows in the system's order, best first; a chained result ("passed → hero")
 * sorts by its first part, then by `then` for the second part.
 */
export function ordered(dist: Map<string, Fraction>, order: readonly string[], then: readonly string[] = []): OddsRow[] {
  const rank = (list: readonly string[], k: string | undefined) => {
    const i = k === undefined ? -1 : list.indexOf(k);
    return k === undefined ? -1 : i < 0 ? list.length : i;
  };
  const key = (k: string) => k.split(' → ');
  return [...dist.entries()]
    .map(([result, p]) => ({ result, p }))
    .sort((a, b) => {
      const [a1, a2] = key(a.result);
      const [b1, b2] = key(b.result);
      return rank(order, a1) - rank(order, b1) || rank(then, a2) - rank(then, b2) || a.result.localeCompare(b.result);
    });
}

export type ResultOdds = { exactly: string; or_better: string; distribution: Record<string, string> };

/** Odds already worked out, per distribution (the memoised maps of `remembered`) and result: a roll's odds are a lookup. */
const worked = new WeakMap<Map<string, Fraction>, Map<string, Readonly<ResultOdds>>>();

/** The chance of exactly this result, and of this result or a better one, as fractions (read-only: shared between rolls). */
export function oddsOf(dist: Map<string, Fraction>, order: readonly string[], result: string): Readonly<ResultOdds> {
  const known = worked.get(dist) ?? new Map<string, Readonly<ResultOdds>>();
  worked.set(dist, known);
  const key = `${order.join('\u0000')}\u0001${result}`;
  const hit = known.get(key);
  if (hit) return hit;
  const odds = Object.freeze(workOdds(dist, order, result));
  known.set(key, odds);
  return odds;
}

function workOdds(dist: Map<string, Fraction>, order: readonly string[], result: string): ResultOdds {
  const rows = ordered(dist, order);
  const at = rows.findIndex((r) => r.result === result);
  const exactly = at < 0 ? ZERO : rows[at]!.p;
  const orBetter = rows.slice(0, at + 1).reduce((acc, r) => add(acc, r.p), ZERO);
  // The whole distribution goes with the roll, so statistics can compare results with expectations.
  return { exactly: format(exactly), or_better: format(orBetter), distribution: Object.fromEntries(rows.map((r) => [r.result, format(r.p)])) };
}

/** "5/12" → 5/12 as a number. */
export const fractionValue = (text: string) => {
  const [n, d = '1'] = text.split('/');
  return Number(n) / Number(d);
};

/** "5/12" → its percentage, for display. */
export function percentOf(text: string): string {
  const [n, d = '1'] = text.split('/');
  return percent({ n: BigInt(n!), d: BigInt(d) });
}
