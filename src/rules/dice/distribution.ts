import { memo } from '../odds.js';
import { shapeOf, type DiceTerm, type Expression, type Keep } from './expression.js';

/**
 * The exact distribution of an expression's total, by convolution of exact per-term distributions
 *. Counts are whole numbers of equally likely outcomes (BigInt: 200d6 has 6^200);
 * a total's probability is its count over `outcomes`.
 */
export type Distribution = { min: number; counts: bigint[]; outcomes: bigint };

const point = (v: number): Distribution => ({ min: v, counts: [1n], outcomes: 1n });

/**
 * Adds `count` dice of `sides` (subtracts them when `sign` is -1) to a distribution, one die at a
 * time: a sliding window makes each die cost the length of the support, and needs only additions.
 */
function addDice(acc: Distribution, count: number, sides: number, sign: 1 | -1): Distribution {
  let counts = acc.counts;
  for (let n = 0; n < count; n++) {
    const next = new Array<bigint>(counts.length + sides - 1);
    let window = 0n;
    for (let j = 0; j < next.length; j++) {
      if (j < counts.length) window += counts[j]!;
      if (j - sides >= 0) window -= counts[j - sides]!;
      next[j] = window;
    }
    counts = next;
  }
  return { min: acc.min + (sign > 0 ? count : -count * sides), counts, outcomes: acc.outcomes * BigInt(sides) ** BigInt(count) };
}

export const binomials = (n: number): bigint[][] => {
  const rows: bigint[][] = [[1n]];
  for (let i = 1; i <= n; i++) rows.push(Array.from({ length: i + 1 }, (_, j) => (j === 0 || j === i ? 1n : rows[i - 1]![j - 1]! + rows[i - 1]![j]!)));
  return rows;
};

/** Arithmetic the order-statistic table runs on: exact counts (BigInt) or probabilities (number). */
export type Ring<T> = { zero: T; one: T; add: (a: T, b: T) => T; mul: (a: T, b: T) => T; of: (n: bigint) => T };
export const COUNTS: Ring<bigint> = { zero: 0n, one: 1n, add: (a, b) => a + b, mul: (a, b) => a * b, of: (n) => n };
export const PROBABILITIES: Ring<number> = { zero: 0, one: 1, add: (a, b) => a + b, mul: (a, b) => a * b, of: (n) => Number(n) };

/**
 * The sum of the K highest (or lowest) of N dice, by order statistics: faces are taken from the
 * best down, choosing how many of the still unplaced dice show each (C(unplaced, c) ways, each
 * weighted by `weight(f, c)` = weight(f, 1)^c: 1 for exact counts, P(f)^c for a die's
 * probabilities); only the first K placed count. State: dice placed (fewer than K) × kept sum. A
 * placement that reaches K dice is finished at once: the dice still unplaced can show any face not
 * yet taken, (the weight of those faces)^(dice left) ways, and add nothing to the kept sum. Index i
 * of the result is the sum K + i.
 */
export function keptSum<T>(ring: Ring<T>, count: number, sides: number, k: number, highest: boolean, weight: (f: number, c: number) => T): T[] {
  const C = binomials(count).map((row) => row.map((c) => ring.of(c)));
  const width = k * sides + 1;
  const faceAt = (step: number) => (highest ? sides - step : step + 1);
  // rest[step]: the weight of one die showing a face taken after this step.
  const rest = new Array<T>(sides).fill(ring.zero);
  for (let step = sides - 2; step >= 0; step--) rest[step] = ring.add(rest[step + 1]!, weight(faceAt(step + 1), 1));
  const done = new Array<T>(width).fill(ring.zero);
  let ways = Array.from({ length: k }, () => new Array<T>(width).fill(ring.zero));
  ways[0]![0] = ring.one;
  for (let step = 0; step < sides; step++) {
    const f = faceAt(step);
    const left = powersOf(ring, rest[step]!, count);
    const next = Array.from({ length: k }, () => new Array<T>(width).fill(ring.zero));
    for (let m = 0; m < k; m++) {
      const row = ways[m]!;
      for (let s = 0, top = Math.min(width - 1, m * sides); s <= top; s++) {
        const w = row[s]!;
        if (w === ring.zero) continue;
        for (let c = 0; m + c <= count; c++) {
          const placed = m + c;
          const v = ring.mul(w, ring.mul(C[count - m]![c]!, weight(f, c)));
          if (placed < k) next[placed]![s + c * f] = ring.add(next[placed]![s + c * f]!, v);
          else done[s + (k - m) * f] = ring.add(done[s + (k - m) * f]!, ring.mul(v, left[count - placed]!));
        }
      }
    }
    ways = next;
  }
  return done.slice(k);
}

/** base^0 … base^n in a ring. */
function powersOf<T>(ring: Ring<T>, base: T, n: number): T[] {
  const out = [ring.one];
  for (let i = 1; i <= n; i++) out.push(ring.mul(out[i - 1]!, base));
  return out;
}

/** How many dice a keep or drop term sums, and from which end. */
export const keptOf = (t: DiceTerm & { keep: Keep }) => ({
  k: t.keep.mode[0] === 'k' ? t.keep.k : t.count - t.keep.k,
  highest: t.keep.mode === 'kh' || t.keep.mode === 'dl',
});

function keptTerm(t: DiceTerm & { keep: Keep }): Distribution {
  const { k, highest } = keptOf(t);
  return { min: k, counts: keptSum(COUNTS, t.count, t.sides, k, highest, () => 1n), outcomes: BigInt(t.sides) ** BigInt(t.count) };
}

const negated = (d: Distribution): Distribution => ({ min: -(d.min + d.counts.length - 1), counts: [...d.counts].reverse(), outcomes: d.outcomes });

/** The convolution of two sequences in a ring: the weights of every sum of one term from each. */
export function convolveWith<T>(ring: Ring<T>, a: T[], b: T[]): T[] {
  const out = new Array<T>(a.length + b.length - 1).fill(ring.zero);
  for (let i = 0; i < a.length; i++) {
    if (a[i] === ring.zero) continue;
    for (let j = 0; j < b.length; j++) out[i + j] = ring.add(out[i + j]!, ring.mul(a[i]!, b[j]!));
  }
  return out;
}

export const convolve = (a: Distribution, b: Distribution): Distribution => ({
  min: a.min + b.min,
  counts: convolveWith(COUNTS, a.counts, b.counts),
  outcomes: a.outcomes * b.outcomes,
});

/** A keep that keeps every die (1d1000kh1, 3d6k3) sums them all: it is plain dice. */
const keepsAll = (t: DiceTerm) => !t.keep || keptOf({ ...t, keep: t.keep }).k === t.count;

/** Constants shift the total; plain dice slide into it; a keep or drop term is convolved in. */
export function distributionOf(e: Expression): Distribution {
  let acc = point(0);
  for (const t of e.terms) {
    if (t.kind === 'const') acc = { ...acc, min: acc.min + t.sign * t.value };
    else if (!t.keep || keepsAll(t)) acc = addDice(acc, t.count, t.sides, t.sign);
    else acc = convolve(acc, t.sign < 0 ? negated(keptTerm({ ...t, keep: t.keep })) : keptTerm({ ...t, keep: t.keep }));
  }
  return acc;
}

const byShape = memo<Distribution>(64);

/** A distribution computed once per shape: players and /stats ask for the same few again and again. */
export const rememberedDistribution = (e: Expression): Distribution => byShape(shapeOf(e), () => distributionOf(e));

/**
 * The steps the computation takes, counted before it runs (oddsWork): sliding-window steps, the
 * order-statistic table (each step weighted four), the convolutions. One step costs 9–21 ns here,
 * so MAX_ODDS_WORK of them take at most ~25 ms on a quiet core, under 50 ms on a busy one
 * (100d6+100d6, 805,600 steps: 9 ms; 20d20kh10, 1,069,391: 6 ms); above it the bot says "odds not
 * computed: too many outcomes". The bench times the largest shapes within it.
 */
export const MAX_ODDS_WORK = 1_200_000;

export function oddsWork(e: Expression): number {
  let work = 0;
  let width = 1;
  for (const t of e.terms) {
    if (t.kind === 'const') continue;
    if (!t.keep || keepsAll(t)) {
      // Each die costs the support's width as it then is; a window step (a wide BigInt addition and
      // a new array) costs about 8 order-statistic steps, most of which skip an empty state.
      work += 8 * (t.count * width + ((t.count * (t.count + 1)) / 2) * (t.sides - 1));
      width += t.count * (t.sides - 1);
      continue;
    }
    const k = t.keep.mode[0] === 'k' ? t.keep.k : t.count - t.keep.k;
    const termWidth = k * (t.sides - 1) + 1;
    // keptSum's steps: each face, each count placed below K, each kept sum reachable, each c.
    let table = 0;
    for (let m = 0; m < k; m++) table += (Math.min(k * t.sides, m * t.sides) + 1) * (t.count - m + 1);
    // A table step adds wide BigInts (6^100 has 259 bits): it costs about four window steps.
    work += 4 * t.sides * table + width * termWidth;
    width += termWidth - 1;
  }
  return work;
}

/** p = n/d as a number, exact to double precision whatever the sizes (6^200 is far past 2^53). */
export function ratio(n: bigint, d: bigint): number {
  if (n === 0n) return 0;
  const e = d.toString(2).length - n.toString(2).length + 64;
  return e > 1100 ? 0 : Number((n << BigInt(Math.max(0, e))) / d) / 2 ** Math.max(0, e);
}

/** The chance of a total, and of that total or one on the given side of it, as counts over `outcomes`. */
export function chanceOf(d: Distribution, total: number, side: 'higher' | 'lower'): { exactly: bigint; orOther: bigint } {
  const i = total - d.min;
  const exactly = d.counts[i] ?? 0n;
  let orOther = 0n;
  d.counts.forEach((c, j) => {
    if (side === 'higher' ? j >= i : j <= i) orOther += c;
  });
  return { exactly, orOther };
}
