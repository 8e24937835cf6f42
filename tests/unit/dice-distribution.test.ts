import { describe, expect, it } from 'vitest';
import { chanceOf, distributionOf, MAX_ODDS_WORK, oddsWork, ratio } from '../../src/rules/dice/distribution.js';
import { keptDice, parseExpression, type Term } from '../../src/rules/dice/expression.js';
import { shapeFacts } from '../../src/rules/dice/shape-facts.js';

// Exact odds by convolution, checked against brute-force enumeration of every
// outcome for small expressions and against a closed form (inclusion–exclusion) for 200 dice.

/** Every ordered outcome of the expression's dice, counted by total: the naive way, independent of the code. */
function bruteForce(text: string): Map<number, bigint> {
  const terms = parseExpression(text).terms;
  let totals = new Map<number, bigint>([[0, 1n]]);
  for (const t of terms) {
    const termTotals = new Map<number, bigint>();
    if (t.kind === 'const') termTotals.set(t.sign * t.value, 1n);
    else
      eachOutcome(t, (dice) => {
        const kept = keptDice(dice, t.keep);
        const v = t.sign * dice.reduce((a, d, i) => a + (kept[i] ? d : 0), 0);
        termTotals.set(v, (termTotals.get(v) ?? 0n) + 1n);
      });
    const next = new Map<number, bigint>();
    for (const [a, x] of totals) for (const [b, y] of termTotals) next.set(a + b, (next.get(a + b) ?? 0n) + x * y);
    totals = next;
  }
  return totals;
}

function eachOutcome(t: Extract<Term, { kind: 'dice' }>, visit: (dice: number[]) => void) {
  const dice = new Array<number>(t.count).fill(1);
  for (;;) {
    visit(dice);
    let i = 0;
    while (i < t.count && dice[i] === t.sides) dice[i++] = 1;
    if (i === t.count) return;
    dice[i]!++;
  }
}

const asMap = (text: string) => {
  const d = distributionOf(parseExpression(text));
  return new Map(d.counts.map((c, i) => [d.min + i, c] as const).filter(([, c]) => c > 0n));
};

describe('exact distributions against every outcome enumerated', () => {
  // Among them: a keep subtracted (its table negated), keeps whose unplaced dice fill the faces
  // not yet taken (5d3kh2, 4d4kl3, 3d2kh1), and keeps of every die (plain sums).
  it.each([
    '4d6kh3',
    '2d20kl1',
    '3d6+2',
    'd%',
    '4d6dl1',
    '3d6dh1',
    '5d4kh2',
    '2d6-1d6',
    '-1d8+3',
    '2d10kl1+d6kh1-1',
    '6d3kl4',
    '3d2',
    '1d6-2d6kh1',
    '-3d4kl2+2',
    '5d3kh2',
    '4d4kl3',
    '3d2kh1',
    '3d6k3',
    '2d4kl2-1d4kh1',
  ])('%s', (text) => {
    const got = asMap(text);
    const want = bruteForce(text);
    expect([...got.entries()].sort((a, b) => a[0] - b[0])).toEqual([...want.entries()].sort((a, b) => a[0] - b[0]));
  });

  it('4d6kh3, 2d20kl1, 3d6+2 and d% as the tables print them', () => {
    // 4d6 drop the lowest: the ability-score table, 1,296 outcomes.
    expect(distributionOf(parseExpression('4d6kh3')).counts.join(',')).toBe('1,4,10,21,38,62,91,122,148,167,172,160,131,94,54,21');
    // The lower of two d20: 39 ways to roll a 1, 1 way to roll a 20.
    const kl = distributionOf(parseExpression('2d20kl1'));
    expect([kl.min, kl.counts[0], kl.counts[19], kl.outcomes]).toEqual([1, 39n, 1n, 400n]);
    const plus = distributionOf(parseExpression('3d6+2'));
    expect([plus.min, plus.counts.length, plus.counts[10 - 5 + 2]]).toEqual([5, 16, 27n]);
    const pct = distributionOf(parseExpression('d%'));
    expect([pct.min, pct.counts.length, new Set(pct.counts).size, pct.outcomes]).toEqual([1, 100, 1, 100n]);
  });
});

/** The number of ways N dice of S sides total t: Σ_k (−1)^k C(N,k) C(t − kS − 1, N − 1), in BigInt. */
function closedForm(n: number, s: number, t: number): bigint {
  const c = (a: number, b: number): bigint => {
    if (b < 0 || a < b) return 0n;
    let r = 1n;
    for (let i = 1; i <= b; i++) r = (r * BigInt(a - b + i)) / BigInt(i);
    return r;
  };
  let sum = 0n;
  for (let k = 0; k <= n && t - k * s - 1 >= n - 1; k++) sum += (k % 2 ? -1n : 1n) * c(n, k) * c(t - k * s - 1, n - 1);
  return sum;
}

describe('a 200-die expression', () => {
  it('100d6+100d6 equals 200d6 by the inclusion–exclusion formula, total by total', () => {
    const d = distributionOf(parseExpression('100d6+100d6'));
    expect(d.min).toBe(200);
    expect(d.counts).toHaveLength(1001);
    expect(d.outcomes).toBe(6n ** 200n);
    for (let t = 200; t <= 1200; t++) expect(d.counts[t - 200], `total ${t}`).toBe(closedForm(200, 6, t));
  });

  // The time it takes is the bench's to measure (npm run bench, the odds line): on a busy machine a
  // clock here would fail for the load, not for the code.
  it('its odds are computed within the bound', () => {
    expect(oddsWork(parseExpression('100d6+100d6'))).toBeLessThanOrEqual(MAX_ODDS_WORK);
  });

  // The work counted before computing, worked by hand from the steps it counts: a plain die costs 8
  // a support step (count × width, plus the growing window: count(count+1)/2 × (sides − 1)); a
  // keep's table 4 a step (each face × each count m placed below K × each kept sum up to m·sides,
  // + 1 × each c ≤ count − m), then its convolution (width × its own width).
  it.each([
    ['3d6', 8 * (3 * 1 + 6 * 5)],
    ['1d6', 8 * (1 * 1 + 1 * 5)],
    ['-1d6', 8 * (1 * 1 + 1 * 5)],
    ['3d6k3', 8 * (3 * 1 + 6 * 5)],
    ['4d6kh3', 4 * 6 * (1 * 5 + 7 * 4 + 13 * 3) + 1 * 16],
    ['4d6dl1', 4 * 6 * (1 * 5 + 7 * 4 + 13 * 3) + 1 * 16],
    ['4d6kl3', 4 * 6 * (1 * 5 + 7 * 4 + 13 * 3) + 1 * 16],
    ['2d6+4d6kh3', 8 * (2 * 1 + 3 * 5) + 4 * 6 * (1 * 5 + 7 * 4 + 13 * 3) + 11 * 16],
    ['3d4kh1+2', 4 * 4 * (1 * 4) + 1 * 4],
    ['1+1', 0],
  ])('oddsWork(%s) = %i', (text, work) => {
    expect(oddsWork(parseExpression(text))).toBe(work);
  });

  it('a probability too small for a double is 0; no outcomes, 0', () => {
    expect(ratio(0n, 6n)).toBe(0);
    expect(ratio(1n, 6n ** 500n)).toBe(0);
    expect(ratio(1n, 2n ** 900n)).toBe(2 ** -900);
    expect(ratio(3n, 6n)).toBe(0.5);
  });

  it('past the bound the work is counted, not done', () => {
    for (const text of ['100d100+100d100', '100d1000kh50', '100d6kh50+100d6']) expect(oddsWork(parseExpression(text))).toBeGreaterThan(MAX_ODDS_WORK);
    for (const text of ['4d6kh3', '20d20kh10', '10d10kh5+10d10kl5', '100d6+100d6']) expect(oddsWork(parseExpression(text))).toBeLessThanOrEqual(MAX_ODDS_WORK);
  });
});

describe('the chance of a total', () => {
  it('this total and this or higher (or lower), as counts over every outcome', () => {
    const d = distributionOf(parseExpression('2d6'));
    expect(chanceOf(d, 7, 'higher')).toEqual({ exactly: 6n, orOther: 21n });
    expect(chanceOf(d, 7, 'lower')).toEqual({ exactly: 6n, orOther: 21n });
    expect(chanceOf(d, 2, 'lower')).toEqual({ exactly: 1n, orOther: 1n });
    expect(chanceOf(d, 12, 'lower')).toEqual({ exactly: 1n, orOther: 36n });
  });

  it('a ratio of huge numbers as a double', () => {
    expect(ratio(1n, 6n ** 200n)).toBeCloseTo(6 ** -200, 170);
    expect(ratio(1n, 3n)).toBe(1 / 3);
    expect(ratio(0n, 5n)).toBe(0);
  });
});

describe('what the dice report knows of a shape', () => {
  it.each([
    // n*: the noncentral chi-square at α = 0.05 reaches 80 % power at λ = 12.83 on 5 df (Cohen's
    // tables); a d6 whose 1 is a 2 moves Σ(p1−p0)²/p0 = 1/3 per roll, so 12.83 × 3 = 38.5 → 39.
    ['1d6', 3.5, 39],
    ['2d6', 7, 142],
    ['3d6', 10.5, 281],
  ])('%s: mean %d, n* %d', (shape, mean, needed) => {
    const f = shapeFacts(shape)!;
    expect(f.mean).toBeCloseTo(mean, 12);
    expect(f.needed).toBe(needed);
    expect(f.p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });
});
