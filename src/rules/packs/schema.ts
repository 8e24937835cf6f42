import { z } from 'zod';
import type { When } from './when.js';

/**
 * The shape of a rule pack file, as zod checks it: every field, its type and its bounds. What
 * needs the whole pack to judge (a modifier naming an option, bands covering every total) is
 * checked after this, in `check.ts`. `docs/pack.schema.json` is generated from this schema.
 */

/** Discord's rule for command and option names, kept to lower case (Discord folds names to it). */
const NAME = /^[-_\p{Ll}\p{Lo}\p{N}]{1,32}$/u;
const name = (what: string) => z.string().regex(NAME, `${what}: lower-case letters, digits, - and _, 1–32 characters`);

/**
 * A test's or result's id starts with a letter: an all-digit key would be reordered by JavaScript
 * itself, and the order of tests and results is meaningful.
 */
const ID = /^\p{Ll}[-_\p{Ll}\p{Lo}\p{N}]{0,31}$/u;
const idOf = (what: string) => z.string().regex(ID, `${what}: a lower-case letter, then letters, digits, - and _ (up to 32)`);

export { RESERVED_OPTIONS } from './reserved.js';

const integerBounds = { min: z.number().int().min(-1000).max(1000), max: z.number().int().min(-1000).max(1000) };

/** A whole number: written as one, or as an expression over options, unit fields, total, target and margin (expr.ts). */
const whole = z.union([z.number().int(), z.string().min(1).max(120)]).describe('A whole number, or an expression: 2, "pins - 1", "floor(lost * 5 / original)"');

const condValue = z.union([z.string(), z.number().int(), z.boolean()]);
const condTest = z.union([
  condValue,
  z.strictObject({ at_least: whole }),
  z.strictObject({ at_most: whole }),
  z.strictObject({ in: z.array(condValue).min(1).max(25) }),
  z.strictObject({ not: condValue }),
]);
/** Conditions: each key an option or unit field and the value (or test) it must have; `any:` and `all:` hold lists of them. */
export const whenSchema: z.ZodType<When> = z.lazy(() => z.record(z.string(), z.union([condTest, z.array(whenSchema).min(1).max(10)])));

/** What happens when a unit change brings a field to its bound: a follow-up test, or an effect to read out. */
const atLimit = z.strictObject({ then: z.string().optional(), effect: z.string().min(1).max(300).optional() });

const choiceValue = z.union([
  z.string().regex(NAME, 'a choice: lower-case letters, digits, - and _, 1–32 characters'),
  z.strictObject({ value: z.string().regex(NAME, 'a choice value: lower-case letters, digits, - and _, 1–32 characters'), label: z.string().min(1).max(100) }),
]);

export const unitFieldSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({
      name: name('a unit field'),
      type: z.literal('integer'),
      ...integerBounds,
      default: z.number().int().optional(),
      at_min: atLimit.optional(),
      at_max: atLimit.optional(),
    }),
    z.strictObject({
      name: name('a unit field'),
      type: z.literal('choice'),
      choices: z.array(choiceValue).min(1).max(25),
      default: z.string().optional(),
    }),
  ],
  { error: 'one of "integer", "choice"' },
);

const optionCommon = {
  name: name('an option'),
  description: z.string().min(1).max(100).optional(),
  from_unit: z.string().optional(),
};

export const optionSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ ...optionCommon, type: z.literal('integer'), ...integerBounds, default: z.number().int().optional() }),
    z.strictObject({ ...optionCommon, type: z.literal('boolean'), default: z.boolean().optional() }),
    z.strictObject({ ...optionCommon, type: z.literal('choice'), choices: z.array(choiceValue).min(1).max(25), default: z.string().optional() }),
  ],
  { error: 'one of "integer", "boolean", "choice"' },
);

export const modifierSchema = z.strictObject({
  label: z.string().min(1).max(100),
  value: z.union([z.number().int().min(-100).max(100), z.string().min(1).max(120)]),
  to: z.enum(['total', 'target']).default('total'),
  /** Multiplies the value by this integer option's value (or an expression's). */
  per: z.string().optional(),
  /** With `per`: counts only what the option has beyond this many ("each marker after the first"). */
  beyond: z.union([z.number().int().min(0).max(1000), z.string().min(1).max(120)]).optional(),
  when: whenSchema.optional(),
  /** The tests it applies to; every test when omitted. */
  tests: z.array(z.string()).min(1).optional(),
});

const unitChange = z.strictObject({
  add: z.record(z.string(), whole).optional(),
  /** A whole number (or expression) for an integer field; a choice's value for a choice field. */
  set: z.record(z.string(), z.union([z.number().int(), z.string().min(1).max(120)])).optional(),
  remove: z.literal(true).optional(),
});

export const resultSchema = z.strictObject({
  label: z.string().min(1).max(60),
  tone: z.enum(['good', 'neutral', 'bad']),
  effect: z.string().min(1).max(300),
  ref: z.string().min(1).max(100).optional(),
  unit: unitChange.optional(),
  then: z.string().optional(),
});

/** A grade of a result, by the test's margin: the first grade whose range holds it is the result shown. */
export const gradeSchema = z.strictObject({
  result: idOf('a grade id').optional(),
  from: whole.optional(),
  to: whole.optional(),
  label: z.string().min(1).max(60),
  tone: z.enum(['good', 'neutral', 'bad']).optional(),
  effect: z.string().min(1).max(300).optional(),
  unit: unitChange.optional(),
});

const resultWithGrades = resultSchema.extend({ grades: z.array(gradeSchema).min(1).max(10).optional() });

/** A band: a result for the final totals from `from` to `to`; a bound left out is open-ended. */
export const bandSchema = resultSchema.extend({
  /** The result's id on the record; the label in lower case with _ for spaces when omitted. */
  result: idOf('a result id').optional(),
  from: whole.optional(),
  to: whole.optional(),
});

const specialSchema = z.union([
  z.strictObject({ faces: z.array(z.number().int().min(1)).min(1).max(20), result: z.string() }),
  z.strictObject({ total: z.union([z.number().int(), z.strictObject({ from: z.number().int(), to: z.number().int() })]), result: z.string() }),
  z.strictObject({ doubles: z.literal(true), result: z.string() }),
]);

/** A re-roll the rules allow after a result: a button under the reply, for the roll's owner, once. */
export const rerollSchema = z.strictObject({
  label: z.string().min(1).max(60),
  when: whenSchema.describe('`result:` the result(s) that allow it, and any option conditions'),
  once: z.literal(true).default(true),
  by: z.enum(['owner', 'owner_or_gm']).default('owner'),
  /** The test rolled instead (the same test when omitted). */
  test: z.string().optional(),
});

export const testSchema = z.strictObject({
  label: z.string().min(1).max(60).optional().describe('The test’s name in replies ("Panic table")'),
  when: whenSchema.optional().describe('On the first tests: the first whose conditions hold is rolled'),
  dice: z.string().min(2).max(120).describe('Dice in /roll dice notation: 2d6, 1d10, 4d6kh3; {count}d6 takes the count from an option or field'),
  count: z
    .union([z.strictObject({ at_least: z.number().int() }), z.strictObject({ at_most: z.number().int() }), z.strictObject({ equal: z.number().int() })])
    .optional()
    .describe('Count the kept dice meeting this instead of adding them'),
  target: z.union([z.string(), z.number().int()]).optional().describe('An integer option or expression: the test passes or fails against it'),
  compare: z.enum(['at_most', 'at_least']).optional().describe('With target: pass when the final total is at most (or at least) the target'),
  clamp_target: z.strictObject({ min: z.number().int(), max: z.number().int() }).optional(),
  bands: z.array(bandSchema).min(1).max(25).optional().describe('Instead of a target: every reachable final total in exactly one band'),
  specials: z.array(specialSchema).max(10).optional().describe('Natural dice checked before anything else; the first match wins'),
  results: z.record(idOf('a result id'), resultWithGrades).optional(),
  reroll: rerollSchema.optional(),
});

export const packSchema = z.strictObject({
  pack: z.string().regex(/^[-_a-z0-9]{3,32}$/, 'the pack id: 3–32 lower-case letters, digits, - and _ (it is the slash command’s name)'),
  version: z.number().int().min(1).describe('A whole number; installing a changed pack needs a higher one'),
  name: z.string().min(1).max(80).describe('Shown in replies'),
  description: z.string().min(1).max(100).describe('The slash command’s description'),
  source: z.string().min(1).max(100).optional().describe('Where the rule is: shown as the rule reference'),
  unit_fields: z.array(unitFieldSchema).max(10).optional().describe('What a roster unit of this pack carries'),
  options: z.array(optionSchema).max(20).default([]).describe('The command’s own options, in order'),
  modifiers: z.array(modifierSchema).max(40).default([]).describe('Named modifiers: to the total (default) or to the target'),
  tests: z.record(idOf('a test name'), testSchema).describe('The first test is rolled by the command; others follow a result’s `then`'),
});

export type PackFile = z.infer<typeof packSchema>;
export type PackOption = z.infer<typeof optionSchema>;
export type PackModifier = z.infer<typeof modifierSchema>;
export type PackTest = z.infer<typeof testSchema>;
export type PackResult = z.infer<typeof resultSchema>;
export type PackBand = z.infer<typeof bandSchema>;
export type UnitField = z.infer<typeof unitFieldSchema>;
export type PackGrade = z.infer<typeof gradeSchema>;
export type PackSpecial = NonNullable<PackTest['specials']>[number];
export type PackReroll = z.infer<typeof rerollSchema>;
export type { OptionValue } from './values.js';
