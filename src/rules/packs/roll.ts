import type { Roller } from '../../dice/roller.js';
import { rollExpression, sidesOf } from '../dice/expression.js';
import { sum, type Step, type Tone } from '../types.js';
import { diceOf, naturalOf } from './dice.js';
import { wholeOf } from './expr.js';
import type { UnitChange } from './input.js';
import type { Pack } from './pack.js';
import { modifiersFor, type PackInput } from './modifiers.js';
import { bandId, gradeId } from './results.js';
import type { PackFile, PackResult, PackSpecial, PackTest } from './schema.js';
import { scopeOf, type Known } from './scope.js';
import { advance, startOf, type ChainState } from './chain.js';

export { expressionOf } from './dice.js';
export type { PackLimit, PackTarget, Parent, Reading, RollStart } from './roll-types.js';
export { firstTest, rootTests } from './first-test.js';
import type { PackLimit, PackTarget, Parent, Reading, RollStart } from './roll-types.js';

/**
 * One test as rolled: a Step (its test's name as `kind`), the size of each die drawn (a game's dice
 * are recomputed from its seed die by die), the kept dice, and the special that matched; its
 * label as the reply names it, its margin and grade, what it did to the unit and the bounds it met.
 */
export type PackStep = Step & {
  sides: number[];
  kept: number[];
  target?: PackTarget;
  special?: boolean;
  heading?: string;
  margin?: number;
  grade?: string;
  change?: UnitChange;
  limits?: PackLimit[];
};

export type PackOutcome = {
  pack: string;
  version: number;
  steps: PackStep[];
  /** The result ids of the chain, first to last ("panic → routs"): the key its odds are counted by. */
  result: string;
  tone: Tone;
  unit: UnitChange | undefined;
};

/** What a test is read with: the roll's inputs, and its parent's total and margin. */
export type TestCtx = { input: PackInput; parent?: Parent };

export const parentKnown = (ctx: TestCtx): Known => ({ 'parent.total': ctx.parent?.total, 'parent.margin': ctx.parent?.margin });

export function targetOf(pack: PackFile, name: string, test: PackTest, input: PackInput, known: Known): PackTarget | undefined {
  if (test.target === undefined) return undefined;
  const base = wholeOf(test.target, scopeOf(input, known));
  const modifiers = modifiersFor(pack, name, 'target', input, known);
  const raw = base + sum(modifiers.map((m) => m.value));
  const clamp = test.clamp_target;
  const value = clamp ? Math.min(clamp.max, Math.max(clamp.min, raw)) : raw;
  return { base, modifiers, value, compare: test.compare!, ...(value !== raw ? { clampedFrom: raw } : {}) };
}

const sameFaces = (a: readonly number[], b: readonly number[]) => {
  if (a.length !== b.length) return false;
  const x = [...a].sort((p, q) => p - q);
  const y = [...b].sort((p, q) => p - q);
  return x.every((v, i) => v === y[i]);
};

/** Whether a special matches the kept dice: their faces, their sum (or a range of it), or two showing the same face. */
export function specialHolds(s: PackSpecial, kept: readonly number[]): boolean {
  if ('faces' in s) return sameFaces(s.faces, kept);
  if ('doubles' in s) return new Set(kept).size < kept.length;
  const t = sum(kept);
  return typeof s.total === 'number' ? t === s.total : t >= s.total.from && t <= s.total.to;
}

/** A test read on its total alone (no special): target, modifiers, final, margin, and the result they give. */
export type Plain = Omit<Reading, 'special'>;

export function readTotal(pack: PackFile, name: string, ctx: TestCtx, natural: number): Plain {
  const test = pack.tests[name]!;
  const base = parentKnown(ctx);
  const target = targetOf(pack, name, test, ctx.input, { ...base, total: natural });
  const modifiers = modifiersFor(pack, name, 'total', ctx.input, { ...base, total: natural, target: target?.value });
  const final = natural + sum(modifiers.map((m) => m.value));
  const margin = target ? (target.compare === 'at_most' ? target.value - final : final - target.value) : undefined;
  const known: Known = { ...base, total: final, target: target?.value, margin };
  const scope = scopeOf(ctx.input, known);
  let id: string;
  let result: PackResult;
  if (target) {
    id = (target.compare === 'at_most' ? final <= target.value : final >= target.value) ? 'pass' : 'fail';
    result = test.results![id]!;
  } else {
    const lo = Number.NEGATIVE_INFINITY;
    const band = test.bands!.find(
      (b) => final >= (b.from === undefined ? lo : wholeOf(b.from, scope)) && final <= (b.to === undefined ? -lo : wholeOf(b.to, scope)),
    );
    if (!band) throw new RangeError(`tests.${name}: no band holds ${final}`);
    id = bandId(band);
    result = band;
  }
  return { id, result, natural, final, modifiers, ...(target ? { target } : {}), ...(margin !== undefined ? { margin } : {}), known };
}

/** A result by the test's margin: the first grade whose range holds it, else the result itself. */
export function graded(test: PackTest, plain: Omit<Plain, 'result' | 'id'> & { id: string; result: PackResult }): Plain {
  const grades = test.results?.[plain.id]?.grades;
  if (!grades || plain.margin === undefined) return plain;
  const scope = scopeOf({}, plain.known);
  const m = plain.margin;
  const g = grades.find((x) => (x.from === undefined || m >= wholeOf(x.from, scope)) && (x.to === undefined || m <= wholeOf(x.to, scope)));
  if (!g) return plain;
  const r = plain.result;
  const grade = gradeId(g);
  return {
    ...plain,
    id: `${plain.id}:${grade}`,
    grade,
    result: { ...r, label: g.label, tone: g.tone ?? r.tone, effect: g.effect ?? r.effect, ...((g.unit ?? r.unit) ? { unit: g.unit ?? r.unit } : {}) },
  };
}

/** A test's reading of its kept dice and natural total (shared by the roll and its odds). */
export function readTest(
  pack: PackFile,
  name: string,
  ctx: TestCtx,
  kept: readonly number[],
  natural: number,
  plain = readTotal(pack, name, ctx, natural),
): Reading {
  const test = pack.tests[name]!;
  const special = kept.length ? test.specials?.find((s) => specialHolds(s, kept)) : undefined;
  if (special) return graded(test, { ...plain, id: special.result, result: test.results![special.result]!, special: true } as Plain) as Reading;
  return { ...graded(test, plain), special: false };
}

function rollTest(pack: Pack, name: string, ctx: TestCtx, roller: Roller): { step: PackStep; reading: Reading } {
  const test = pack.tests[name]!;
  const e = diceOf(test, scopeOf(ctx.input, parentKnown(ctx)));
  const rolled = rollExpression(e, roller);
  const kept = rolled.terms.flatMap((t) => t.dice.filter((_, i) => t.kept[i]));
  const r = readTest(pack, name, ctx, kept, naturalOf(test, kept, rolled.total));
  const step: PackStep = {
    kind: name,
    ...(test.label ? { heading: test.label } : {}),
    dice: rolled.terms.flatMap((t) => t.dice),
    sides: sidesOf(e),
    kept,
    original: r.natural,
    modifiers: r.modifiers,
    final: r.final,
    result: r.id,
    label: r.result.label,
    effect: r.result.effect,
    tone: r.result.tone,
    ref: r.result.ref ?? pack.source ?? pack.name,
    ...(r.target ? { target: r.target } : {}),
    ...(r.margin !== undefined ? { margin: r.margin } : {}),
    ...(r.grade ? { grade: r.grade } : {}),
    ...(r.special ? { special: true } : {}),
  };
  return { step, reading: r };
}

/** A pack roll: its first test, then each follow-up a result or a unit's bound names, all drawn from one roller. */
export function rollPack(pack: Pack, input: PackInput, roller: Roller, from: RollStart = {}): PackOutcome {
  const steps: PackStep[] = [];
  let state: ChainState = startOf(pack, input, from);
  while (state.queue.length) {
    const name = state.queue[0]!;
    const { step, reading } = rollTest(pack, name, { input, ...(state.parent ? { parent: state.parent } : {}) }, roller);
    const next = advance(pack, input, state, name, reading);
    steps.push({ ...step, ...(next.change ? { change: next.change } : {}), ...(next.limits.length ? { limits: next.limits } : {}) });
    state = next.state;
  }
  const last = steps.at(-1)!;
  return { pack: pack.pack, version: pack.version, steps, result: steps.map((s) => s.result).join(' → '), tone: last.tone, unit: state.change };
}
