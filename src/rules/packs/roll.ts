import type { Roller } from '../../dice/roller.js';
import { parseExpression, rollExpression, sidesOf, type Expression } from '../dice/expression.js';
import { memo } from '../odds.js';
import { sum, type Modifier, type Step, type Tone } from '../types.js';
import { unitChangeOf, type UnitChange } from './input.js';
import type { Pack } from './load.js';
import { modifiersFor, type PackInput } from './modifiers.js';
import { bandId } from './results.js';
import type { PackResult, PackTest } from './schema.js';

/** The target a test compared with: the option's value, its modifiers, and the bound it was clamped to. */
export type PackTarget = { base: number; modifiers: Modifier[]; value: number; compare: 'at_most' | 'at_least'; clampedFrom?: number };

/**
 * One test as rolled: a Step (its test's name as `kind`), the size of each die drawn (a game's dice
 * are recomputed from its seed die by die), the kept dice, and the special that matched.
 */
export type PackStep = Step & { sides: number[]; kept: number[]; target?: PackTarget; special?: boolean };

export type PackOutcome = {
  pack: string;
  version: number;
  steps: PackStep[];
  /** The result ids of the chain, first to last ("panic → routs"): the key its odds are counted by. */
  result: string;
  tone: Tone;
  unit: UnitChange | undefined;
};

const parsed = memo<Expression>(256);
export const expressionOf = (dice: string) => parsed(dice, () => parseExpression(dice));

/** How a test reads its dice: a special on the kept dice first, then the target or the bands. */
export type Reading = { id: string; result: PackResult; final: number; target?: PackTarget; special: boolean };

export function targetOf(pack: Pack, name: string, test: PackTest, input: PackInput): PackTarget | undefined {
  if (test.target === undefined) return undefined;
  const base = Number(input[test.target]);
  const modifiers = modifiersFor(pack, name, 'target', input);
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

/** Reads one test's kept dice and total with these inputs' modifiers (shared by the roll and its odds). */
export function readTest(pack: Pack, name: string, kept: readonly number[], total: number, modifierSum: number, target?: PackTarget): Reading {
  const test = pack.tests[name]!;
  const final = total + modifierSum;
  const special = test.specials?.find((s) => ('faces' in s ? sameFaces(s.faces, kept) : sum(kept) === s.total));
  if (special) return { id: special.result, result: test.results![special.result]!, final, target, special: true };
  if (target) {
    const pass = target.compare === 'at_most' ? final <= target.value : final >= target.value;
    const id = pass ? 'pass' : 'fail';
    return { id, result: test.results![id]!, final, target, special: false };
  }
  const lo = Number.NEGATIVE_INFINITY;
  const band = test.bands!.find((b) => final >= (b.from ?? lo) && final <= (b.to ?? -lo))!;
  return { id: bandId(band), result: band, final, special: false };
}

function rollTest(pack: Pack, name: string, input: PackInput, roller: Roller): { step: PackStep; result: PackResult } {
  const e = expressionOf(pack.tests[name]!.dice);
  const rolled = rollExpression(e, roller);
  const kept = rolled.terms.flatMap((t) => t.dice.filter((_, i) => t.kept[i]));
  const modifiers = modifiersFor(pack, name, 'total', input);
  const target = targetOf(pack, name, pack.tests[name]!, input);
  const r = readTest(pack, name, kept, rolled.total, sum(modifiers.map((m) => m.value)), target);
  const step: PackStep = {
    kind: name,
    dice: rolled.terms.flatMap((t) => t.dice),
    sides: sidesOf(e),
    kept,
    original: rolled.total,
    modifiers,
    final: r.final,
    result: r.id,
    label: r.result.label,
    effect: r.result.effect,
    tone: r.result.tone,
    ref: r.result.ref ?? pack.source ?? pack.name,
    ...(target ? { target } : {}),
    ...(r.special ? { special: true } : {}),
  };
  return { step, result: r.result };
}

/** A pack roll: its first test, then each follow-up a result names, all drawn from one roller. */
export function rollPack(pack: Pack, input: PackInput, roller: Roller): PackOutcome {
  const steps: PackStep[] = [];
  const results: PackResult[] = [];
  let name: string | undefined = Object.keys(pack.tests)[0]!;
  while (name !== undefined) {
    const { step, result } = rollTest(pack, name, input, roller);
    steps.push(step);
    results.push(result);
    name = result.then;
  }
  const last = steps.at(-1)!;
  return { pack: pack.pack, version: pack.version, steps, result: steps.map((s) => s.result).join(' → '), tone: last.tone, unit: unitChangeOf(results) };
}
