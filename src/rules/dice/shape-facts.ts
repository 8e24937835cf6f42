import { rollsForPower } from '../fairness.js';
import { convolveWith, keptOf, keptSum, MAX_ODDS_WORK, oddsWork, PROBABILITIES, ratio, rememberedDistribution } from './distribution.js';
import { memo } from '../odds.js';
import { parseExpression, shapeOf, type Expression } from './expression.js';

/**
 * What the dice report needs of a dice shape (2d6, 1d6, 4d6kh3+2 …), computed once per shape: the
 * exact probability of each total, the exact mean, and n*, the number of rolls at which a
 * chi-square test at α = 0.05 has 80 % power against a die with its 1 turned into a 2.
 */
export type ShapeFacts = { shape: string; min: number; p: number[]; mean: number; needed: number };

/** A die whose face 1 shows 2 instead: P(1) = 0, P(2) = 2/S, the rest 1/S. */
const faceP = (sides: number, f: number) => (f === 1 ? 0 : f === 2 ? 2 / sides : 1 / sides);

const convolveP = (a: { min: number; p: number[] }, b: { min: number; p: number[] }) => ({ min: a.min + b.min, p: convolveWith(PROBABILITIES, a.p, b.p) });

/** The totals' probabilities when every die is that biased die, term by term (a small float convolution). */
function biasedTotals(e: Expression): { min: number; p: number[] } {
  let acc = { min: 0, p: [1] };
  for (const t of e.terms) {
    let term: { min: number; p: number[] };
    if (t.kind === 'const') term = { min: t.value, p: [1] };
    else if (t.keep) {
      const { k, highest } = keptOf({ ...t, keep: t.keep });
      term = { min: k, p: keptSum(PROBABILITIES, t.count, t.sides, k, highest, (f, c) => faceP(t.sides, f) ** c) };
    } else {
      term = { min: 0, p: [1] };
      const die = { min: 1, p: Array.from({ length: t.sides }, (_, i) => faceP(t.sides, i + 1)) };
      for (let i = 0; i < t.count; i++) term = convolveP(term, die);
    }
    if (t.sign < 0) term = { min: -(term.min + term.p.length - 1), p: [...term.p].reverse() };
    acc = convolveP(acc, term);
  }
  return acc;
}

const byShape = memo<ShapeFacts | undefined>(256);

/** The facts of a shape, or undefined when it is past the odds bound (too many outcomes to test against). */
export const shapeFacts = (shape: string): ShapeFacts | undefined => byShape(shape, () => factsOf(parseExpression(shape)));

function factsOf(e: Expression): ShapeFacts | undefined {
  if (oddsWork(e) > MAX_ODDS_WORK) return undefined;
  const d = rememberedDistribution(e);
  const p = d.counts.map((c) => ratio(c, d.outcomes));
  const mean = p.reduce((s, x, i) => s + x * (d.min + i), 0);
  const biased = biasedTotals(e);
  const p1 = p.map((_, i) => biased.p[d.min + i - biased.min] ?? 0);
  return { shape: shapeOf(e), min: d.min, p, mean, needed: rollsForPower(p, p1) };
}
