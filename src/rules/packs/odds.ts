import { distributionOf } from '../dice/distribution.js';
import { keptDice, sidesOf, type Term } from '../dice/expression.js';
import { add, fraction, inputKey, memo, ZERO, type Fraction } from '../odds.js';
import { sum } from '../types.js';
import type { Pack } from './load.js';
import { modifiersFor, type PackInput } from './modifiers.js';
import { resultsOf } from './results.js';
import { expressionOf, readTest, targetOf } from './roll.js';

const times = (a: Fraction, b: Fraction) => fraction(a.n * b.n, a.d * b.d);

/** Counts of result ids over every equally likely outcome of one test's dice. */
function testCounts(pack: Pack, name: string, input: PackInput): { counts: Map<string, bigint>; outcomes: bigint } {
  const test = pack.tests[name]!;
  const e = expressionOf(test.dice);
  const shift = sum(modifiersFor(pack, name, 'total', input).map((m) => m.value));
  const target = targetOf(pack, name, test, input);
  const counts = new Map<string, bigint>();
  const count = (id: string, n: bigint) => counts.set(id, (counts.get(id) ?? 0n) + n);
  if (!test.specials?.length) {
    // Only the total matters: the exact distribution of the dice's total, by convolution.
    const d = distributionOf(e);
    d.counts.forEach((n, i) => {
      if (n > 0n) count(readTest(pack, name, [], d.min + i, shift, target).id, n);
    });
    return { counts, outcomes: d.outcomes };
  }
  // Specials read the kept faces: every sequence of dice is walked (at most 10⁶, checked at install).
  const sides = sidesOf(e);
  const faces = sides.map(() => 1);
  const outcomes = sides.reduce((n, s) => n * s, 1);
  for (let n = 0; n < outcomes; n++) {
    const { kept, total } = keptAndTotal(e.terms, faces);
    count(readTest(pack, name, kept, total, shift, target).id, 1n);
    for (let i = 0; i < faces.length && ++faces[i]! > sides[i]!; i++) faces[i] = 1;
  }
  return { counts, outcomes: BigInt(outcomes) };
}

/** The kept dice and the total of an expression whose dice show these faces, in drawing order. */
function keptAndTotal(terms: readonly Term[], faces: readonly number[]): { kept: number[]; total: number } {
  const kept: number[] = [];
  let total = 0;
  let at = 0;
  for (const t of terms) {
    if (t.kind === 'const') {
      total += t.sign * t.value;
      continue;
    }
    const dice = faces.slice(at, at + t.count);
    at += t.count;
    const keep = keptDice(dice, t.keep);
    dice.forEach((d, i) => {
      if (!keep[i]) return;
      kept.push(d);
      total += t.sign * d;
    });
  }
  return { kept, total };
}

/** The chance of every chain of results from this test on ("panic → routs"), for these inputs. */
function chainOdds(pack: Pack, name: string, input: PackInput): Map<string, Fraction> {
  const { counts, outcomes } = testCounts(pack, name, input);
  const dist = new Map<string, Fraction>();
  for (const [id, n] of counts) {
    const p = fraction(n, outcomes);
    const then = resultsOf(pack.tests[name]!).find((r) => r.id === id)!.result.then;
    if (then === undefined) dist.set(id, add(dist.get(id) ?? ZERO, p));
    else for (const [rest, q] of chainOdds(pack, then, input)) dist.set(`${id} → ${rest}`, times(p, q));
  }
  return dist;
}

const perPack = new WeakMap<Pack, (key: string, compute: () => Map<string, Fraction>) => Map<string, Fraction>>();

/** The exact distribution of a pack roll's result chains for these inputs, worked out once per pack and input. */
export function packDistribution(pack: Pack, input: PackInput): Map<string, Fraction> {
  const remembered = perPack.get(pack) ?? memo<Map<string, Fraction>>(128);
  perPack.set(pack, remembered);
  return remembered(inputKey('pack', input), () => chainOdds(pack, Object.keys(pack.tests)[0]!, input));
}

/** Result ids best first: the first test's, then every follow-up's (for "this or better"). */
export function packOrder(pack: Pack): { order: string[]; then: string[] } {
  const [first, ...rest] = Object.values(pack.tests);
  return { order: resultsOf(first!).map((r) => r.id), then: rest.flatMap((t) => resultsOf(t).map((r) => r.id)) };
}
