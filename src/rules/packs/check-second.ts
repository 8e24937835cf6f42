import { sidesOf } from '../dice/expression.js';
import { DiceCountError, bracesIn, diceText, expressionOf, keptAndTotal, naturalOf, totalsOf } from './dice.js';
import { ExprError, namesOf, parseExpr, wholeOf } from './expr.js';
import { modifierValue, modifiesTest, modifiersFor, optionsRead, type PackInput } from './modifiers.js';
import { gradeId, resultsOf } from './results.js';
import { rootTests, targetOf } from './roll.js';
import type { PackFile, PackOption, PackResult, PackTest, UnitField } from './schema.js';
import { scopeOf, valuesOf, type Known } from './scope.js';
import { domainOf, namesInTest, variablesOf } from './vars.js';
import { charge, EVALUATION, MAX_REACH_WORK, type Work } from './reach.js';
import { leavesOf, whenHolds, type When } from './when.js';
import { sum } from '../types.js';

/**
 * The validator's checks for what published tests needed beyond a plain table: expressions, richer
 * conditions, tables chosen by an option, counted and braced dice, grades, ranges of faces, text
 * unit fields, bounds that fire, re-rolls. Each problem is one sentence led by its path.
 */

type Say = (path: string, problem: string) => void;

/** Past this many combinations of the values a walked test reads, the validator refuses rather than guess. */
export const MAX_WALK = 200_000;
/** Past this many combinations of what a follow-up's parent reads, its parent's totals are not walked (refused, naming them). */
const PARENT_WALK = 20_000;

/** The refusal of a test whose checks would pass the pack's work limit, naming what it reads. */
export function sayTooMuchWork(name: string, r: { work: number; spent: number; options: string[] }, say: Say, more = false) {
  say(
    `tests.${name}`,
    `checking its bands takes ${more ? 'more than ' : ''}${r.work.toLocaleString('en')} steps over the values of ${list(r.options) || 'no option'}; a pack's checks take at most ${MAX_REACH_WORK.toLocaleString('en')}${r.spent ? ` (the tests before it took ${r.spent.toLocaleString('en')})` : ''}: narrow those options' min and max`,
  );
}

/** What reading a condition costs: a third of an evaluation for each of its leaves (a comparison; a condition may nest thousands). */
const whenCost = (when: When | undefined) => (EVALUATION / 3) * Math.max(1, leavesOf(when, '').length);
/** What working out a modifier for one combination costs: its condition's leaves, and its value when that is an expression. */
const modCost = (mods: PackFile['modifiers']) =>
  mods.reduce((n, m) => n + (m.when ? whenCost(m.when as When) : 0) + (typeof m.value === 'string' ? EVALUATION : EVALUATION / 10), 0);

/** A walk's counted work: each step is charged before it is done, and the first that would pass the limit stops the walk. */
type Walked = { work: Work; before: number; names: string[]; name: string; say: Say };

/** Charges `n` steps of the walk; false once the pack's limit is passed (the refusal said). */
function step(w: Walked, n: number): boolean {
  if (charge(w.work, n)) return true;
  sayTooMuchWork(w.name, { work: w.work.limit - w.before, spent: w.before, options: w.names }, w.say, true);
  return false;
}

const list = (xs: readonly (string | number)[]) => xs.map((x) => (typeof x === 'string' ? `"${x}"` : String(x))).join(', ');
const own = <T>(r: Readonly<Record<string, T>> | undefined, k: string) => (r !== undefined && Object.hasOwn(r, k) ? r[k] : undefined);

/** Names every test knows besides the pack's own: what the expressions of a test may read where. */
export type Where = { total?: boolean; target?: boolean; margin?: boolean; parent?: boolean; result?: boolean };

const wholeVariables = (pack: PackFile) => variablesOf(pack).filter((v) => (v.option ?? v.field)!.type !== 'choice');

/** The names an expression reads, each a whole-number option or field, or one this place knows; else refused naming it. */
export function checkNumber(pack: PackFile, text: string | number | undefined, at: string, where: Where, say: Say) {
  if (text === undefined || typeof text === 'number') return;
  let names: string[];
  try {
    parseExpr(text);
    names = namesOf(text);
  } catch (err) {
    if (!(err instanceof ExprError)) throw err;
    return say(at, `"${text}" is not a whole number or an expression: ${err.message}`);
  }
  const whole = wholeVariables(pack).map((v) => v.name);
  for (const n of names) {
    if (whole.includes(n)) continue;
    if (n === 'total' && where.total) continue;
    if (n === 'target' && where.target) continue;
    if (n === 'margin') {
      if (!where.margin) say(at, '`margin` is known only once the test is read: its results, grades and follow-ups read it, not its modifiers or target');
      continue;
    }
    if (n === 'parent.total' || n === 'parent.margin') {
      if (!where.parent) say(at, `\`${n}\` is read by a follow-up: a test some result leads to`);
      continue;
    }
    if (['total', 'target'].includes(n)) say(at, `\`${n}\` is not known here`);
    else say(at, `"${n}" is not an integer option (integer options: ${list(pack.options.filter((x) => x.type === 'integer').map((x) => x.name)) || 'none'})`);
  }
}

const domainText = (v: { option?: PackOption; field?: UnitField }) => {
  const o = (v.option ?? v.field)!;
  return o.type === 'integer' ? `${o.min}–${o.max}` : list(domainOf(o) as string[]);
};

/** A condition: each key an option or field (or `result` on a re-roll) and a value it can have; bounds on whole numbers. */
export function checkWhen(pack: PackFile, when: When | undefined, at: string, say: Say, results?: string[]) {
  const vars = variablesOf(pack);
  for (const leaf of leavesOf(when, at)) {
    const { name, test, path } = leaf;
    if (name === 'result' && results) {
      const ids = typeof test === 'object' && 'in' in test ? test.in : typeof test === 'object' && 'not' in test ? [test.not] : [test];
      for (const id of ids)
        if (typeof id !== 'string' || !results.includes(id)) say(path, `${JSON.stringify(id)} is not a result of the test (${list(results)})`);
      continue;
    }
    if ((name === 'any' || name === 'all') && !Array.isArray(test)) {
      say(path, `\`${name}\` holds a list of conditions`);
      continue;
    }
    const v = vars.find((x) => x.name === name);
    if (!v) {
      say(path, `no option is named "${name}"`);
      continue;
    }
    if (Array.isArray(test)) continue;
    const type = (v.option ?? v.field)!.type;
    if (typeof test !== 'object') {
      if (!v.domain.includes(test)) say(path, `${JSON.stringify(test)} is not a value of the option (${domainText(v)})`);
    } else if ('in' in test || 'not' in test) {
      for (const x of 'in' in test ? test.in : [test.not])
        if (!v.domain.includes(x)) say(path, `${JSON.stringify(x)} is not a value of the option (${domainText(v)})`);
    } else if (type !== 'integer') say(path, `at_least and at_most compare whole numbers; "${name}" is ${type}`);
    else checkNumber(pack, 'at_least' in test ? test.at_least : test.at_most, path, { total: true, target: true }, say);
  }
}

/** A modifier's whole numbers and conditions. */
export function checkModifierNumbers(pack: PackFile, m: PackFile['modifiers'][number], at: string, say: Say) {
  const where: Where = { total: true, target: m.to === 'total', parent: true };
  checkNumber(pack, m.value, `${at}.value`, where, say);
  if (m.per !== undefined) checkNumber(pack, m.per, `${at}.per`, where, say);
  else if (m.beyond !== undefined) say(`${at}.beyond`, 'counts beyond a number of what: give `per` with it');
  checkNumber(pack, m.beyond, `${at}.beyond`, where, say);
  checkWhen(pack, m.when, `${at}.when`, say);
}

/** A unit field of choices, and an option that takes its value. */
export function checkChoiceField(f: UnitField, i: number, say: Say) {
  if (f.type !== 'choice') return;
  const values = domainOf(f) as string[];
  values.forEach((v, j) => {
    if (values.indexOf(v) < j) say(`unit_fields[${i}].choices[${j}]`, `the choice "${v}" is given twice`);
  });
  if (f.default !== undefined && !values.includes(f.default)) say(`unit_fields[${i}].default`, `"${f.default}" is not one of its choices`);
}

export function checkChoiceFromUnit(o: PackOption, field: UnitField & { type: 'choice' }, at: string, say: Say) {
  if (o.type !== 'choice')
    return say(`${at}.from_unit`, `the field "${field.name}" holds a choice: only a choice option can take it; "${o.name}" is ${o.type}`);
  const mine = domainOf(o);
  const missing = (domainOf(field) as string[]).filter((v) => !mine.includes(v));
  if (missing.length) say(`${at}.from_unit`, `the field's choices ${list(missing)} are not the option's`);
}

/** Braced dice: the braces' expressions, and the dice they make over every value (each a count of 1–100, under 10⁶ outcomes). */
export function checkBracedDice(pack: PackFile, test: PackTest, at: string, say: Say, maxOutcomes: number) {
  for (const b of bracesIn(test.dice)) checkNumber(pack, b, `${at}.dice`, { parent: true }, say);
  if (!test.dice.includes('{')) return;
  const names = [...new Set(bracesIn(test.dice).flatMap((b) => namesOf(b)))].filter((n) => !n.startsWith('parent.'));
  for (const input of combinationsOf(pack, names, 10_000)) {
    try {
      const text = diceText(test.dice, scopeOf(input, { 'parent.total': 1, 'parent.margin': 1 }));
      const outcomes = sidesOf(expressionOf(text)).reduce((n, s) => n * s, 1);
      if (outcomes > maxOutcomes)
        return say(`${at}.dice`, `${text} has ${outcomes.toLocaleString('en')} outcomes; exact odds stop at ${maxOutcomes.toLocaleString('en')}`);
    } catch (err) {
      return say(`${at}.dice`, `"${test.dice}" with ${shownCombination(input)}: ${(err as Error).message}`);
    }
  }
}

const shownCombination = (input: PackInput) =>
  Object.entries(input)
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join(', ') || 'no options';

/** Every combination of these variables' values (at most `limit`; undefined past it). */
export function* combinationsOf(pack: PackFile, names: readonly string[], limit = MAX_WALK): Generator<PackInput> {
  const vars = variablesOf(pack).filter((v) => names.includes(v.name));
  const domains = vars.map((v) => v.domain);
  const total = domains.reduce((n, d) => n * d.length, 1);
  if (total > limit) return;
  const at = domains.map(() => 0);
  for (let n = 0; n < total; n++) {
    yield Object.fromEntries(vars.map((v, i) => [v.name, domains[i]![at[i]!]!]));
    for (let i = 0; i < at.length && ++at[i]! === domains[i]!.length; i++) at[i] = 0;
  }
}

const countOf = (pack: PackFile, names: readonly string[]) =>
  variablesOf(pack)
    .filter((v) => names.includes(v.name))
    .reduce((n, v) => n * v.domain.length, 1);

/** Specials beyond faces: a range of totals within the kept dice's reach, doubles only with two kept dice or more. */
export function checkSpecialForms(test: PackTest, kept: number[] | undefined, at: string, say: Say) {
  (test.specials ?? []).forEach((s, i) => {
    const where = `${at}.specials[${i}]`;
    if (!kept) return;
    if ('doubles' in s && kept.length < 2) say(`${where}.doubles`, `${test.dice} keeps ${kept.length} die: doubles need two or more`);
    if ('total' in s && typeof s.total === 'object') {
      const top = kept.reduce((a, b) => a + b, 0);
      if (s.total.from > s.total.to) say(`${where}.total`, `from ${s.total.from} is above to ${s.total.to}`);
      else if (s.total.to < kept.length || s.total.from > top)
        say(`${where}.total`, `the kept dice of ${test.dice} total ${kept.length}–${top}, never ${s.total.from}–${s.total.to}`);
    }
  });
}

/** A unit change: choice fields set to one of their choices (never added to), integer fields by numbers or expressions. */
export function checkChangeForms(pack: PackFile, change: PackResult['unit'], at: string, say: Say) {
  if (!change) return;
  const where: Where = { total: true, target: true, margin: true, parent: true };
  for (const [field, value] of Object.entries(change.add ?? {})) {
    const f = pack.unit_fields?.find((x) => x.name === field);
    if (f?.type === 'choice') say(`${at}.add.${field}`, `"${field}" holds a choice: set it, a choice cannot be added to`);
    else checkNumber(pack, value, `${at}.add.${field}`, where, say);
  }
  for (const [field, value] of Object.entries(change.set ?? {})) {
    const f = pack.unit_fields?.find((x) => x.name === field);
    if (f?.type === 'choice') {
      if (!(domainOf(f) as string[]).includes(String(value)))
        say(`${at}.set.${field}`, `${JSON.stringify(value)} is not one of the field's choices (${list(domainOf(f) as string[])})`);
    } else if (typeof value === 'string') checkNumber(pack, value, `${at}.set.${field}`, where, say);
  }
}

/** A test's second-pass forms: counting, grades, `when` only on the first tests, a re-roll's names. */
export function checkTestForms(pack: PackFile, name: string, test: PackTest, say: Say) {
  const at = `tests.${name}`;
  const roots = rootTests(pack);
  const parent = !roots.includes(name);
  if (test.when !== undefined && parent) say(`${at}.when`, `only the first tests are chosen by a condition; "${name}" comes after one without \`when\``);
  checkWhen(pack, test.when, `${at}.when`, say);
  if (test.count && expressionOf(test.dice.replace(/\{[^{}]*\}/g, '1')).terms.some((t) => t.kind === 'const'))
    say(`${at}.count`, 'a counted test counts dice: its dice have no number added');
  checkNumber(pack, test.target, `${at}.target`, { total: true, parent }, say);
  (test.bands ?? []).forEach((b, i) => {
    checkNumber(pack, b.from, `${at}.bands[${i}].from`, { parent }, say);
    checkNumber(pack, b.to, `${at}.bands[${i}].to`, { parent }, say);
  });
  for (const [id, r] of Object.entries(test.results ?? {})) {
    if (!r.grades) continue;
    if (test.target === undefined) say(`${at}.results.${id}.grades`, 'grades read the margin, and only a target test has one');
    r.grades.forEach((g, i) => {
      const where = `${at}.results.${id}.grades[${i}]`;
      checkNumber(pack, g.from, `${where}.from`, { parent }, say);
      checkNumber(pack, g.to, `${where}.to`, { parent }, say);
      if (typeof g.from === 'number' && typeof g.to === 'number' && g.from > g.to) say(where, `from ${g.from} is above to ${g.to}`);
      checkChangeForms(pack, g.unit, `${where}.unit`, say);
    });
    const ids = r.grades.map(gradeId);
    ids.forEach((g, i) => {
      if (ids.indexOf(g) < i) say(`${at}.results.${id}.grades[${i}]`, `the grade "${g}" is given twice`);
    });
  }
  if (test.reroll) {
    const r = test.reroll;
    if (own(r.when as Record<string, unknown>, 'result') === undefined)
      say(`${at}.reroll.when.result`, 'give the result (or results, with `in:`) after which the re-roll is offered');
    checkWhen(
      pack,
      r.when,
      `${at}.reroll.when`,
      say,
      resultsOf(test).map((x) => x.id),
    );
    if (r.test !== undefined && !Object.hasOwn(pack.tests, r.test))
      say(`${at}.reroll.test`, `no test is named "${r.test}" (tests: ${list(Object.keys(pack.tests))})`);
  }
}

/** Unit fields' bounds that fire: a test that exists, or an effect. */
export function checkLimits(pack: PackFile, say: Say) {
  (pack.unit_fields ?? []).forEach((f, i) => {
    if (f.type !== 'integer') return;
    for (const side of ['at_min', 'at_max'] as const) {
      const l = f[side];
      if (!l) continue;
      if (l.then === undefined && l.effect === undefined) say(`unit_fields[${i}].${side}`, 'give `then: <test>` or `effect:` (or both)');
      if (l.then !== undefined && !Object.hasOwn(pack.tests, l.then))
        say(`unit_fields[${i}].${side}.then`, `no test is named "${l.then}" (tests: ${list(Object.keys(pack.tests))})`);
    }
  });
}

/** The links beyond `then`: a re-roll's test, and the tests a field's bound fires after a result that changes it. */
export function extraLinks(pack: PackFile, t: string): { chain: string[]; reached: string[] } {
  const test = pack.tests[t]!;
  const changed = new Set(resultsOf(test).flatMap((r) => [...Object.keys(r.result.unit?.add ?? {}), ...Object.keys(r.result.unit?.set ?? {})]));
  const fired = (pack.unit_fields ?? []).flatMap((f) =>
    f.type === 'integer' && changed.has(f.name)
      ? [f.at_min?.then, f.at_max?.then].filter((x): x is string => x !== undefined && Object.hasOwn(pack.tests, x))
      : [],
  );
  const reroll = test.reroll?.test !== undefined && Object.hasOwn(pack.tests, test.reroll.test) ? [test.reroll.test] : [];
  return { chain: fired, reached: [...fired, ...reroll] };
}

/** Every combination of the values the first tests' conditions read reaches one of them; else one that reaches none is named. */
export function checkRoots(pack: PackFile, say: Say, work: Work) {
  const roots = rootTests(pack);
  if (pack.tests[roots.at(-1)!]!.when === undefined) return;
  const names = [...new Set(roots.flatMap((n) => leavesOf(pack.tests[n]!.when, '').flatMap((l) => [l.name, ...namesOfTest(l.test)])))];
  if (countOf(pack, names) > MAX_WALK)
    return say('tests', `the first tests' conditions read ${list(names)}: too many combinations to check (at most ${MAX_WALK.toLocaleString('en')})`);
  const cost = countOf(pack, names) * roots.reduce((n, r) => n + whenCost(pack.tests[r]!.when), 0);
  if (!charge(work, cost))
    return say(
      'tests',
      `the first tests' conditions read ${list(names)}: checking them takes ${cost.toLocaleString('en')} steps; a pack's checks take at most ${MAX_REACH_WORK.toLocaleString('en')}: narrow those options' min and max`,
    );
  for (const input of combinationsOf(pack, names)) {
    const scope = scopeOf(input);
    if (!roots.some((n) => whenHolds(pack.tests[n]!.when, valuesOf(input), () => scope)))
      return say('tests', `no test is rolled when ${shownCombination(input)}: give a first test without \`when\`, or one whose \`when\` holds then`);
  }
}

const namesOfTest = (t: unknown): string[] =>
  typeof t === 'object' && t !== null && ('at_least' in t || 'at_most' in t)
    ? namesOf((t as { at_least?: string; at_most?: string }).at_least ?? (t as { at_most: string }).at_most)
    : [];

/** Whether a test's bands need walking value by value: its dice, bounds or modifiers read more than options, or a condition chooses it. */
export function walksCoverage(pack: PackFile, name: string): boolean {
  const test = pack.tests[name]!;
  if (!test.bands) return false;
  const plainOptions = pack.options.map((o) => o.name);
  const mods = pack.modifiers.filter((m) => modifiesTest(m, name, 'total'));
  return (
    test.count !== undefined ||
    test.dice.includes('{') ||
    test.when !== undefined ||
    test.bands.some((b) => typeof b.from === 'string' || typeof b.to === 'string') ||
    mods.some((m) => optionsRead(m).some((n) => !plainOptions.includes(n)) || typeof m.value === 'string' || typeof m.beyond === 'string')
  );
}

/** The parent's (total, margin) pairs a follow-up may read: every pair a test leading to it can give. */
function parentPairs(pack: PackFile, name: string, reads: { total: boolean; margin: boolean }, w: Walked): Known[] | undefined {
  const pairs = new Map<string, Known>();
  for (const [pName, p] of Object.entries(pack.tests)) {
    if (!resultsOf(p).some((r) => r.result.then === name) && !extraLinks(pack, pName).chain.includes(name)) continue;
    const names = readNames(pack, pName);
    if (countOf(pack, names) > PARENT_WALK) {
      w.say(
        `tests.${name}`,
        `it reads its parent's ${list([...(reads.total ? ['parent.total'] : []), ...(reads.margin ? ['parent.margin'] : [])])}, and its parent ${pName} reads ${list(names)}: ${countOf(pack, names).toLocaleString('en')} combinations; at most ${PARENT_WALK.toLocaleString('en')} can be checked`,
      );
      return undefined;
    }
    const mods = modCost(pack.modifiers.filter((m) => modifiesTest(m, pName, 'total')));
    for (const input of combinationsOf(pack, names, PARENT_WALK)) {
      const naturals = naturalTotals(p, input, {}, w);
      // Each total's target and modifiers worked out.
      if (!naturals || !step(w, naturals.length * (2 * EVALUATION + mods))) return undefined;
      for (const natural of naturals) {
        const target = targetOf(pack, pName, p, input, { total: natural });
        const final = natural + sum(modifiersFor(pack, pName, 'total', input, { total: natural, target: target?.value }).map((m) => m.value));
        const margin = target ? (target.compare === 'at_most' ? target.value - final : final - target.value) : undefined;
        // Only what the follow-up reads tells pairs apart: a margin alone is far fewer values than every total with it.
        const key = { 'parent.total': reads.total ? final : undefined, 'parent.margin': reads.margin ? margin : undefined };
        pairs.set(`${key['parent.total']}|${key['parent.margin']}`, key);
      }
    }
  }
  return [...pairs.values()];
}

/** The names a test's reading depends on: its own, and its modifiers'. */
function readNames(pack: PackFile, name: string): string[] {
  const test = pack.tests[name]!;
  const mods = pack.modifiers.filter((m) => modifiesTest(m, name, 'total') || modifiesTest(m, name, 'target'));
  const vars = variablesOf(pack).map((v) => v.name);
  return [...new Set([...namesInTest(pack, test), ...mods.flatMap(optionsRead)])].filter((n) => vars.includes(n));
}

const totalsMemo = new Map<string, number[]>();
/** The natural totals a test's dice can show for these values (the dice's sums, or how many dice a counted test can count). */
function naturalTotals(test: PackTest, input: PackInput, known: Known, w: Walked): number[] | undefined {
  const text = diceText(test.dice, scopeOf(input, known));
  const key = `${text}|${JSON.stringify(test.count ?? null)}`;
  const hit = totalsMemo.get(key);
  if (hit) return hit;
  const e = expressionOf(text);
  const t = totalsOf(test, e);
  let out: number[];
  if (t) out = t.counts.flatMap((c, i) => (c > 0n ? [t.min + i] : []));
  else {
    const seen = new Set<number>();
    const sides = sidesOf(e);
    const faces = sides.map(() => 1);
    const n = sides.reduce((a, s) => a * s, 1);
    // Every face of every die is looked at: a tenth of an evaluation each.
    if (!step(w, n * (EVALUATION / 10))) return undefined;
    for (let k = 0; k < n; k++) {
      const { kept, total } = keptAndTotal(e.terms, faces);
      seen.add(naturalOf(test, kept, total));
      for (let i = 0; i < faces.length && ++faces[i]! > sides[i]!; i++) faces[i] = 1;
    }
    out = [...seen].sort((a, b) => a - b);
  }
  if (totalsMemo.size > 512) totalsMemo.clear();
  totalsMemo.set(key, out);
  return out;
}

/**
 * A band test's bands checked value by value: for every combination of what it reads (and every
 * total and margin its parent can give it), every final total in exactly one band; no band unreached.
 */
export function walkCoverage(pack: PackFile, name: string, say: Say, work: Work) {
  // The limit spent by an earlier test: that test's refusal says so, once.
  if (work.spent >= work.limit) return;
  const test = pack.tests[name]!;
  const at = `tests.${name}.bands`;
  const roots = rootTests(pack);
  const earlier = roots.slice(0, roots.indexOf(name));
  const vars = variablesOf(pack).map((v) => v.name);
  const own = [...namesInTest(pack, test), ...earlier.flatMap((n) => leavesOf(pack.tests[n]!.when, '').map((l) => l.name))].filter((n) => vars.includes(n));
  const { core, free } = groupsOf(pack, name, own);
  const usesParent = [...namesInTest(pack, test), ...core.mods.flatMap(optionsRead)].some((n) => n.startsWith('parent.'));
  const parentRead = [...namesInTest(pack, test), ...core.mods.flatMap(optionsRead)];
  const names = [...core.names];
  const w: Walked = { work, before: work.spent, names: [...new Set([...names, ...free.flatMap((g) => [...g.names])])], name, say };
  const pairs = usesParent ? parentPairs(pack, name, { total: parentRead.includes('parent.total'), margin: parentRead.includes('parent.margin') }, w) : [{}];
  if (!pairs) return;
  const too = (n: number, read: string[]) =>
    say(`tests.${name}`, `its bands read ${list(read)}: ${n.toLocaleString('en')} combinations; at most ${MAX_WALK.toLocaleString('en')} can be checked`);
  if (countOf(pack, names) * pairs.length > MAX_WALK) return too(countOf(pack, names) * pairs.length, names);
  let others = [0];
  // Refused while adding up, it names the options whose sums grow too many.
  const added: string[] = [];
  for (const g of free) {
    added.push(...g.names);
    if (countOf(pack, [...g.names]) > MAX_WALK) return too(countOf(pack, [...g.names]), [...g.names]);
    if (!step(w, countOf(pack, [...g.names]) * modCost(g.mods))) return;
    const sums = new Set<number>();
    for (const input of combinationsOf(pack, [...g.names])) sums.add(sum(g.mods.map((m) => modifierValue(m, input))));
    // Every sum so far with every sum of this group: counted before it is made.
    if (!step({ ...w, names: added }, others.length * sums.size)) return;
    others = [...new Set(others.flatMap((o) => [...sums].map((x) => o + x)))];
  }
  const reached = new Set<number>();
  // A first test is walked where it is the one rolled: its condition and every earlier one's read for each combination.
  const chosen = roots.includes(name) ? [...earlier, name].reduce((n, r) => n + whenCost(pack.tests[r]!.when), 0) : 0;
  for (const input of combinationsOf(pack, names)) {
    if (!step(w, chosen)) return;
    const scope0 = scopeOf(input);
    if (
      roots.includes(name) &&
      (!whenHolds(test.when, valuesOf(input), () => scope0) || earlier.some((n) => whenHolds(pack.tests[n]!.when, valuesOf(input), () => scope0)))
    )
      continue;
    for (const known of pairs) {
      try {
        if (!walkOne({ pack, test, mods: core.mods, others, w }, input, known, at, reached)) return;
      } catch (err) {
        if (!(err instanceof ExprError) && !(err instanceof DiceCountError)) throw err;
        return say(`tests.${name}`, `with ${shownCombination(input)}: ${err.message}`);
      }
    }
  }
  test.bands!.forEach((_, i) => {
    if (!reached.has(i)) say(`${at}[${i}]`, 'no final total reaches this band, for any value of the options');
  });
}

type Group = { names: Set<string>; mods: PackFile['modifiers'] };

/**
 * The test's modifiers in groups no modifier links: the core (what the test itself reads, walked
 * value by value) and the free groups, whose sums only add (walked apart: options read by no
 * common modifier need not be combined). A modifier reading the total, target or parent joins the core.
 */
function groupsOf(pack: PackFile, name: string, own: string[]): { core: Group; free: Group[] } {
  const vars = variablesOf(pack).map((v) => v.name);
  const mods = pack.modifiers.filter((m) => modifiesTest(m, name, 'total'));
  const core: Group = { names: new Set(own), mods: [] };
  const free: Group[] = [];
  for (const m of mods) {
    const read = optionsRead(m);
    const names = read.filter((n) => vars.includes(n));
    if (read.some((n) => !vars.includes(n)) || names.some((n) => core.names.has(n))) {
      core.mods.push(m);
      for (const n of names) core.names.add(n);
      continue;
    }
    const merged: Group = { names: new Set(names), mods: [m] };
    for (const g of free.filter((x) => [...x.names].some((n) => merged.names.has(n)))) {
      for (const n of g.names) merged.names.add(n);
      merged.mods.push(...g.mods);
      free.splice(free.indexOf(g), 1);
    }
    free.push(merged);
  }
  // A free group a core modifier came to read later belongs to the core.
  for (let again = true; again; ) {
    again = false;
    for (const g of free) {
      if (![...g.names].some((n) => core.names.has(n))) continue;
      for (const n of g.names) core.names.add(n);
      core.mods.push(...g.mods);
      free.splice(free.indexOf(g), 1);
      again = true;
      break;
    }
  }
  return { core, free };
}

/** One combination: every total in exactly one band (false once a problem is said: one example is enough). */
function walkOne(
  t: { pack: PackFile; test: PackTest; mods: PackFile['modifiers']; others: number[]; w: Walked },
  input: PackInput,
  known: Known,
  at: string,
  reached: Set<number>,
): boolean {
  const say = t.w.say;
  const bands = t.test.bands!.length;
  // Its scope and each band's bounds worked out, then each total's modifiers, then each sum looked up in every band.
  if (!step(t.w, (1 + 2 * bands) * EVALUATION)) return false;
  const naturals = naturalTotals(t.test, input, known, t.w);
  if (!naturals || !step(t.w, naturals.length * (modCost(t.mods) + t.others.length * bands))) return false;
  const scope = scopeOf(input, known);
  const lo = Number.NEGATIVE_INFINITY;
  const bounds = t.test.bands!.map((b) => ({ from: b.from === undefined ? lo : wholeOf(b.from, scope), to: b.to === undefined ? -lo : wholeOf(b.to, scope) }));
  for (const natural of naturals) {
    const own = sum(t.mods.map((m) => modifierValue(m, input, { ...known, total: natural })));
    for (const other of t.others) {
      const final = natural + own + other;
      const holders = bounds.flatMap((b, i) => (final >= b.from && final <= b.to ? [i] : []));
      if (holders.length === 1) {
        reached.add(holders[0]!);
        continue;
      }
      const when = `${shownCombination(input)}${known['parent.total'] !== undefined ? `, parent total ${known['parent.total']}` : ''}${known['parent.margin'] !== undefined ? `, parent margin ${known['parent.margin']}` : ''}`;
      say(at, holders.length ? `${final} is in bands ${holders.join(' and ')} (with ${when})` : `${final} is a reachable total in no band (with ${when})`);
      return false;
    }
  }
  return true;
}
