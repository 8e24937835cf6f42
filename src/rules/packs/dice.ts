import { distributionOf } from '../dice/distribution.js';
import { keptDice, parseExpression, type Expression, type Term } from '../dice/expression.js';
import { memo } from '../odds.js';
import { evalExpr, parseExpr, type Scope } from './expr.js';
import type { PackTest } from './schema.js';

/**
 * A test's dice for one roll: `{count}d6` takes its count from an expression in braces (an option,
 * a unit field, `parent.margin`), so the dice are known only once the inputs are. A counted test
 * (`count:`) totals the kept dice meeting its bar, not their faces.
 */

const parsed = memo<Expression>(512);
export const expressionOf = (dice: string) => parsed(dice, () => parseExpression(dice));

/** The expressions in a test's braces (`{count}` → "count"). */
export const bracesIn = (dice: string): string[] => [...dice.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!);

/** The largest count braces may give: a count past it would draw more dice than any table reads. */
export const MAX_BRACED = 100;

export class DiceCountError extends Error {}

/** The dice text with every brace worked out: `{count}d6` with count 3 is `3d6`. Throws for a count outside 1–100. */
export function diceText(dice: string, scope: Scope): string {
  return dice.replace(/\{([^{}]*)\}/g, (_, inner: string) => {
    const n = evalExpr(parseExpr(inner), scope);
    if (n < 1 || n > MAX_BRACED) throw new DiceCountError(`{${inner}} is ${n}; a number of dice is 1–${MAX_BRACED}`);
    return String(n);
  });
}

export const diceOf = (test: PackTest, scope: Scope) => expressionOf(diceText(test.dice, scope));

/** Whether a die meets a counted test's bar. */
export function meets(count: NonNullable<PackTest['count']>, face: number): boolean {
  if ('at_least' in count) return face >= count.at_least;
  if ('at_most' in count) return face <= count.at_most;
  return face === count.equal;
}

/** A test's total from its kept dice and their sum: the sum, or how many kept dice meet the bar. */
export const naturalOf = (test: PackTest, kept: readonly number[], sum: number) => (test.count ? kept.filter((f) => meets(test.count!, f)).length : sum);

/** The kept dice and the signed total of an expression whose dice show these faces, in drawing order. */
export function keptAndTotal(terms: readonly Term[], faces: readonly number[]): { kept: number[]; total: number } {
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

/** Counts by total: index i is the total `min + i`. */
export type Totals = { min: number; counts: bigint[]; outcomes: bigint };

/**
 * The exact distribution of a test's total when the faces themselves do not matter (no specials
 * read them): the sum by convolution, or the number of dice meeting a counted test's bar (each
 * die meets it or not), by the same convolution. Undefined when only walking every face can tell
 * (a counted test that keeps some of its dice).
 */
export function totalsOf(test: PackTest, e: Expression): Totals | undefined {
  if (!test.count) return distributionOf(e);
  if (e.terms.some((t) => t.kind === 'dice' && t.keep)) return undefined;
  let counts = [1n];
  let outcomes = 1n;
  for (const t of e.terms) {
    if (t.kind !== 'dice') continue;
    let hits = 0;
    for (let f = 1; f <= t.sides; f++) if (meets(test.count, f)) hits++;
    for (let n = 0; n < t.count; n++) {
      const next = new Array<bigint>(counts.length + 1).fill(0n);
      counts.forEach((c, i) => {
        next[i]! += c * BigInt(t.sides - hits);
        next[i + 1]! += c * BigInt(hits);
      });
      counts = next;
      outcomes *= BigInt(t.sides);
    }
  }
  return { min: 0, counts, outcomes };
}
