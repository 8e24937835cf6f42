import { sidesOf } from '../dice/expression.js';
import { add, fraction, inputKey, memo, ONE, type Fraction } from '../odds.js';
import { advance, startOf, type ChainState } from './chain.js';
import { diceOf, keptAndTotal, naturalOf, totalsOf } from './dice.js';
import type { Pack } from './load.js';
import type { PackInput } from './modifiers.js';
import { gradeId, resultsOf } from './results.js';
import { parentKnown, readTest, readTotal, rootTests, type Plain, type Reading, type RollStart, type TestCtx } from './roll.js';
import { scopeOf } from './scope.js';

const times = (a: Fraction, b: Fraction) => fraction(a.n * b.n, a.d * b.d);

/**
 * Every distinct reading of one test's dice, with how many equally likely outcomes give it: by the
 * total's distribution when only the total matters, else by walking every sequence of faces (at
 * most 10⁶, checked at install). Readings that lead on alike (same result, total and margin) are one.
 */
function readingsOf(pack: Pack, name: string, ctx: TestCtx): { groups: { reading: Reading; n: bigint }[]; outcomes: bigint } {
  const test = pack.tests[name]!;
  const e = diceOf(test, scopeOf(ctx.input, parentKnown(ctx)));
  const groups = new Map<string, { reading: Reading; n: bigint }>();
  const count = (r: Reading, n: bigint) => {
    const key = `${r.id}|${r.final}|${r.margin}`;
    const g = groups.get(key);
    if (g) g.n += n;
    else groups.set(key, { reading: r, n });
  };
  const plains = new Map<number, Plain>();
  const plainOf = (natural: number) => plains.get(natural) ?? plains.set(natural, readTotal(pack, name, ctx, natural)).get(natural)!;
  const totals = test.specials?.length ? undefined : totalsOf(test, e);
  if (totals) {
    totals.counts.forEach((n, i) => {
      if (n > 0n) count(readTest(pack, name, ctx, [], totals.min + i, plainOf(totals.min + i)), n);
    });
    return { groups: [...groups.values()], outcomes: totals.outcomes };
  }
  const sides = sidesOf(e);
  const faces = sides.map(() => 1);
  const outcomes = sides.reduce((n, s) => n * s, 1);
  for (let n = 0; n < outcomes; n++) {
    const { kept, total } = keptAndTotal(e.terms, faces);
    const natural = naturalOf(test, kept, total);
    count(readTest(pack, name, ctx, kept, natural, plainOf(natural)), 1n);
    for (let i = 0; i < faces.length && ++faces[i]! > sides[i]!; i++) faces[i] = 1;
  }
  return { groups: [...groups.values()], outcomes: BigInt(outcomes) };
}

/** The chance of every chain of results from this point of a roll on ("panic → routs"). */
function chainOdds(pack: Pack, input: PackInput, state: ChainState): Map<string, Fraction> {
  if (!state.queue.length) return new Map([[state.ids.join(' → '), ONE]]);
  const name = state.queue[0]!;
  const { groups, outcomes } = readingsOf(pack, name, { input, ...(state.parent ? { parent: state.parent } : {}) });
  const dist = new Map<string, Fraction>();
  for (const { reading, n } of groups) {
    const p = fraction(n, outcomes);
    for (const [chain, q] of chainOdds(pack, input, advance(pack, input, state, name, reading).state))
      dist.set(chain, add(dist.get(chain) ?? fraction(0n, 1n), times(p, q)));
  }
  return dist;
}

const perPack = new WeakMap<Pack, (key: string, compute: () => Map<string, Fraction>) => Map<string, Fraction>>();

/** The exact distribution of a pack roll's result chains for these inputs (and unit, and re-roll test), worked out once each. */
export function packDistribution(pack: Pack, input: PackInput, from: RollStart = {}): Map<string, Fraction> {
  const remembered = perPack.get(pack) ?? memo<Map<string, Fraction>>(128);
  perPack.set(pack, remembered);
  return remembered(inputKey('pack', { input, from }), () => chainOdds(pack, input, startOf(pack, input, from)));
}

/** A test's result ids best first, a graded result's grades in its place (then the result itself, for a margin no grade holds). */
const idsOf = (pack: Pack, name: string) => {
  const test = pack.tests[name]!;
  return resultsOf(test).flatMap((r) => [...(test.results?.[r.id]?.grades ?? []).map((g) => `${r.id}:${gradeId(g)}`), r.id]);
};

/** Result ids best first: the first tests', then every follow-up's (for "this or better"). */
export function packOrder(pack: Pack): { order: string[]; then: string[] } {
  const roots = rootTests(pack);
  const rest = Object.keys(pack.tests).filter((n) => !roots.includes(n));
  return { order: roots.flatMap((n) => idsOf(pack, n)), then: rest.flatMap((n) => idsOf(pack, n)) };
}

/** Result ids best first for a roll starting at this test (a re-roll's): its results, then every other test's. */
export function orderFrom(pack: Pack, start: string): { order: string[]; then: string[] } {
  return {
    order: idsOf(pack, start),
    then: Object.keys(pack.tests)
      .filter((n) => n !== start)
      .flatMap((n) => idsOf(pack, n)),
  };
}
