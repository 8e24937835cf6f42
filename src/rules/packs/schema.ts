import { z } from 'zod';

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

export const unitFieldSchema = z.strictObject({
  name: name('a unit field'),
  type: z.literal('integer'),
  ...integerBounds,
  default: z.number().int().optional(),
});

const choiceValue = z.union([
  z.string().regex(NAME, 'a choice: lower-case letters, digits, - and _, 1–32 characters'),
  z.strictObject({ value: z.string().regex(NAME, 'a choice value: lower-case letters, digits, - and _, 1–32 characters'), label: z.string().min(1).max(100) }),
]);

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
  value: z.number().int().min(-100).max(100),
  to: z.enum(['total', 'target']).default('total'),
  /** Multiplies the value by this integer option's value. */
  per: z.string().optional(),
  /** With `per`: counts only what the option has beyond this many ("each marker after the first"). */
  beyond: z.number().int().min(0).max(1000).optional(),
  when: z.record(z.string(), z.union([z.string(), z.number().int(), z.boolean()])).optional(),
  /** The tests it applies to; every test when omitted. */
  tests: z.array(z.string()).min(1).optional(),
});

const unitChange = z.strictObject({
  add: z.record(z.string(), z.number().int()).optional(),
  set: z.record(z.string(), z.number().int()).optional(),
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

/** A band: a result for the final totals from `from` to `to`; a bound left out is open-ended. */
export const bandSchema = resultSchema.extend({
  /** The result's id on the record; the label in lower case with _ for spaces when omitted. */
  result: idOf('a result id').optional(),
  from: z.number().int().optional(),
  to: z.number().int().optional(),
});

const specialSchema = z.union([
  z.strictObject({ faces: z.array(z.number().int().min(1)).min(1).max(20), result: z.string() }),
  z.strictObject({ total: z.number().int(), result: z.string() }),
]);

export const testSchema = z.strictObject({
  dice: z.string().min(2).max(60).describe('Dice in /roll dice notation: 2d6, 1d10, 4d6kh3'),
  target: z.string().optional().describe('An integer option: the test passes or fails against it'),
  compare: z.enum(['at_most', 'at_least']).optional().describe('With target: pass when the final total is at most (or at least) the target'),
  clamp_target: z.strictObject({ min: z.number().int(), max: z.number().int() }).optional(),
  bands: z.array(bandSchema).min(1).max(25).optional().describe('Instead of a target: every reachable final total in exactly one band'),
  specials: z.array(specialSchema).max(10).optional().describe('Natural dice checked before anything else; the first match wins'),
  results: z.record(idOf('a result id'), resultSchema).optional(),
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
export type OptionValue = string | number | boolean;
