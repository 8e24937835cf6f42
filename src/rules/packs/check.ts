import { ExpressionError, parseExpression, sidesOf, type Expression } from '../dice/expression.js';
import { resultsOf } from './results.js';
import { MAX_COMBINATIONS, diceTotals, domainOf, packWork, reachOfTests, type Reach, type ReachRefusal, type Work } from './reach.js';
import { RESERVED_OPTIONS, type TakenNames } from './reserved.js';
import type { PackFile, PackResult, PackTest } from './schema.js';
import {
  checkBracedDice,
  checkChangeForms,
  checkChoiceField,
  checkChoiceFromUnit,
  checkLimits,
  checkModifierNumbers,
  checkRoots,
  checkSpecialForms,
  checkTestForms,
  extraLinks,
  sayTooMuchWork,
  walkCoverage,
  walksCoverage,
} from './check-second.js';
import { rootTests } from './roll.js';

/**
 * What zod cannot see in one field: names that must point somewhere, bands that must cover every
 * total, chains that must end. Each problem is one sentence led by its path in the file.
 */

/** Past this many equally likely dice outcomes in one test, exact odds are refused at install. */
export const MAX_OUTCOMES = 1_000_000;
/** A roll is its first test and at most this many tests in all, following `then`. */
export const MAX_CHAIN = 3;

type Say = (path: string, problem: string) => void;

/**
 * A test or result named by the pack's author: only the pack's own. `then: constructor` must not
 * find what every object inherits (it passed here, and every roll then failed).
 */
const hasTest = (pack: PackFile, name: string) => Object.hasOwn(pack.tests, name);
const hasResult = (test: PackTest, id: string) => test.results !== undefined && Object.hasOwn(test.results, id);

const list = (xs: readonly (string | number)[]) => xs.map((x) => (typeof x === 'string' ? `"${x}"` : String(x))).join(', ');

function duplicates(names: string[], path: (i: number) => string, what: string, say: Say) {
  names.forEach((n, i) => {
    if (names.indexOf(n) < i) say(path(i), `${what} "${n}" is given twice`);
  });
}

function checkUnitFields(pack: PackFile, say: Say) {
  const fields = pack.unit_fields ?? [];
  duplicates(
    fields.map((f) => f.name),
    (i) => `unit_fields[${i}].name`,
    'the field',
    say,
  );
  fields.forEach((f, i) => {
    if (f.type === 'choice') {
      checkChoiceField(f, i, say);
      return;
    }
    if (f.min > f.max) say(`unit_fields[${i}]`, `min ${f.min} is above max ${f.max}`);
    if (f.default !== undefined && (f.default < f.min || f.default > f.max)) say(`unit_fields[${i}].default`, `${f.default} is outside ${f.min}–${f.max}`);
  });
}

function checkOptions(pack: PackFile, say: Say) {
  duplicates(
    pack.options.map((o) => o.name),
    (i) => `options[${i}].name`,
    'the option',
    say,
  );
  pack.options.forEach((o, i) => {
    const at = `options[${i}]`;
    if ((RESERVED_OPTIONS as readonly string[]).includes(o.name))
      say(`${at}.name`, `"${o.name}" is the bot's own option on every pack command (${list(RESERVED_OPTIONS)})`);
    if (o.type === 'integer' && o.min > o.max) say(at, `min ${o.min} is above max ${o.max}`);
    if (o.type === 'choice') duplicates(domainOf(o) as string[], (j) => `${at}.choices[${j}]`, 'the choice', say);
    if (o.default !== undefined && !domainOf(o).includes(o.default)) say(`${at}.default`, `${JSON.stringify(o.default)} is not one of its values`);
    if (o.from_unit !== undefined) checkFromUnit(pack, o, at, say);
  });
}

function checkFromUnit(pack: PackFile, o: PackFile['options'][number], at: string, say: Say) {
  const field = pack.unit_fields?.find((f) => f.name === o.from_unit);
  if (!field)
    return say(`${at}.from_unit`, `no unit field is named "${o.from_unit}" (unit_fields: ${list((pack.unit_fields ?? []).map((f) => f.name)) || 'none'})`);
  if (field.type === 'choice') return checkChoiceFromUnit(o, field, at, say);
  if (o.type !== 'integer') return say(`${at}.from_unit`, `only an integer option can take a unit field's value; "${o.name}" is ${o.type}`);
  // A unit's value outside the option's range is refused at the roll (a unit with no disorder does not rally).
  if (field.max < o.min || field.min > o.max) say(`${at}.from_unit`, `the field's range ${field.min}–${field.max} never meets the option's ${o.min}–${o.max}`);
}

function checkModifiers(pack: PackFile, say: Say) {
  const tests = Object.keys(pack.tests);
  pack.modifiers.forEach((m, i) => {
    const at = `modifiers[${i}]`;
    // Whole numbers may be expressions, and conditions more than equality (check-second.ts).
    checkModifierNumbers(pack, m, at, say);
    (m.tests ?? []).forEach((t, j) => {
      if (!tests.includes(t)) say(`${at}.tests[${j}]`, `no test is named "${t}" (tests: ${list(tests)})`);
    });
    const applies = (m.tests ?? tests).filter((t) => hasTest(pack, t));
    if (m.to === 'target' && applies.length && !applies.some((t) => pack.tests[t]!.target !== undefined))
      say(`${at}.to`, 'adds to a target, but none of its tests has one (a band test reads the total)');
  });
}

/** The dice, parsed; a refusal names the character where the expression stopped. */
function checkDice(pack: PackFile, test: PackTest, at: string, say: Say): Expression | undefined {
  // `{count}d6`: the dice are known per combination of the values in braces.
  if (test.dice.includes('{')) return void checkBracedDice(pack, test, at, say, MAX_OUTCOMES);
  try {
    const e = parseExpression(test.dice);
    const outcomes = sidesOf(e).reduce((n, s) => n * s, 1);
    if (outcomes > MAX_OUTCOMES)
      say(`${at}.dice`, `${test.dice} has ${outcomes.toLocaleString('en')} outcomes; exact odds stop at ${MAX_OUTCOMES.toLocaleString('en')}`);
    return e;
  } catch (err) {
    if (!(err instanceof ExpressionError)) throw err;
    say(`${at}.dice`, `"${test.dice}" is not dice: ${err.message}`);
    return undefined;
  }
}

function checkComparison(_pack: PackFile, test: PackTest, at: string, say: Say) {
  if (test.target === undefined) {
    if (test.compare !== undefined) say(`${at}.compare`, 'compares with a target: give `target` too, or use `bands`');
    if (test.clamp_target !== undefined) say(`${at}.clamp_target`, 'clamps a target: give `target` too');
    return;
  }
  if (test.compare === undefined) say(`${at}.compare`, 'a target test needs `compare`: at_most (pass when the total is at most the target) or at_least');
  if (test.clamp_target && test.clamp_target.min > test.clamp_target.max)
    say(`${at}.clamp_target`, `min ${test.clamp_target.min} is above max ${test.clamp_target.max}`);
  for (const id of ['pass', 'fail']) if (!hasResult(test, id)) say(`${at}.results`, `a target test needs a "${id}" result`);
}

/** Specials read the kept dice: as many faces as dice are kept, each a face those dice have. */
function checkSpecials(test: PackTest, e: Expression | undefined, at: string, say: Say) {
  const kept = e?.terms.flatMap((t) =>
    t.kind === 'dice' ? new Array<number>(t.keep ? (t.keep.mode[0] === 'k' ? t.keep.k : t.count - t.keep.k) : t.count).fill(t.sides) : [],
  );
  checkSpecialForms(test, kept, at, say);
  (test.specials ?? []).forEach((s, i) => {
    const where = `${at}.specials[${i}]`;
    if (!hasResult(test, s.result)) say(`${where}.result`, `no result "${s.result}" in ${at}.results`);
    if (!kept) return;
    if ('faces' in s) {
      if (s.faces.length !== kept.length)
        say(`${where}.faces`, `${test.dice} keeps ${kept.length} ${kept.length === 1 ? 'die' : 'dice'}; this lists ${s.faces.length}`);
      const top = Math.max(...kept);
      if (s.faces.some((f) => f > top)) say(`${where}.faces`, `no die of ${test.dice} shows ${list(s.faces.filter((f) => f > top))}`);
    } else if ('total' in s && typeof s.total === 'number') {
      const top = kept.reduce((a, b) => a + b, 0);
      if (s.total < kept.length || s.total > top) say(`${where}.total`, `the kept dice of ${test.dice} total ${kept.length}–${top}, never ${s.total}`);
    }
  });
}

/** Results and bands: ids unique, every result reachable, unit changes on real fields within bounds. */
function checkResults(pack: PackFile, name: string, test: PackTest, say: Say) {
  const at = `tests.${name}`;
  const named = resultsOf(test);
  duplicates(
    named.map((r) => r.id),
    () => `${at}.bands`,
    'the result',
    say,
  );
  const used = new Set([...(test.specials ?? []).map((s) => s.result), ...(test.target !== undefined ? ['pass', 'fail'] : [])]);
  for (const id of Object.keys(test.results ?? {}))
    if (!used.has(id))
      say(
        `${at}.results.${id}`,
        test.target !== undefined ? 'no special gives it, and a target test gives only pass or fail' : 'no special gives it; a band test gives its bands',
      );
  for (const r of named) {
    const where = r.band ? `${at}.bands[${test.bands!.indexOf(r.band)}]` : `${at}.results.${r.id}`;
    checkUnitChange(pack, r.result.unit, `${where}.unit`, say);
    if (r.result.then !== undefined && !hasTest(pack, r.result.then))
      say(`${where}.then`, `no test is named "${r.result.then}" (tests: ${list(Object.keys(pack.tests))})`);
  }
}

function checkUnitChange(pack: PackFile, change: PackResult['unit'], at: string, say: Say) {
  if (!change) return;
  checkChangeForms(pack, change, at, say);
  for (const kind of ['add', 'set'] as const) {
    for (const [field, value] of Object.entries(change[kind] ?? {})) {
      const f = pack.unit_fields?.find((x) => x.name === field);
      if (!f) say(`${at}.${kind}.${field}`, `no unit field is named "${field}" (unit_fields: ${list((pack.unit_fields ?? []).map((x) => x.name)) || 'none'})`);
      else if (kind === 'set' && f.type === 'integer' && typeof value === 'number' && (value < f.min || value > f.max))
        say(`${at}.set.${field}`, `${value} is outside the field's ${f.min}–${f.max}`);
    }
  }
}

/** Past this many totals in no band (or in two), the rest are counted, not listed. */
const LISTED = 10;

/** Why a test's totals could not be worked out, as the sentence the validator gives. */
function refusedReach(name: string, r: ReachRefusal, say: Say) {
  if ('tooMany' in r)
    return say(
      `modifiers`,
      `options ${list(r.tooMany)} together have ${r.combinations.toLocaleString('en')} combinations; at most ${MAX_COMBINATIONS.toLocaleString('en')} can be checked`,
    );
  sayTooMuchWork(name, r, say);
}

/** Every band test's bands: each reachable final total in exactly one band, and no band out of reach. */
function checkCoverage(pack: PackFile, reachOf: ReturnType<typeof reachOfTests>, name: string, test: PackTest, say: Say, work: Work) {
  if (!test.bands) return;
  // Bands read more than the options' sums (braced or counted dice, expressions, a table chosen by a condition): walked value by value.
  if (walksCoverage(pack, name)) return walkCoverage(pack, name, say, work);
  const at = `tests.${name}.bands`;
  const reach = reachOf(name, 'total', diceTotals(test.dice));
  if (!('has' in reach)) return refusedReach(name, reach, say);
  const { lo: base, has } = reach;
  // How many reachable totals lie below each place: any band's reach is then one subtraction.
  const below = new Int32Array(has.length + 1);
  for (let i = 0; i < has.length; i++) below[i + 1] = below[i]! + has[i]!;
  const lo = base + has.indexOf(1);
  const hi = base + has.lastIndexOf(1);
  const reached = (from: number, to: number) => {
    const a = Math.max(from, base) - base;
    const b = Math.min(to, base + has.length - 1) - base;
    return a <= b && below[b + 1]! - below[a]! > 0;
  };
  // A bound left out is open-ended: from the lowest, or to the highest, reachable total.
  // (Bounds here are numbers: a band bound written as an expression is walked instead.)
  const spans = test.bands.map((b) => ({
    from: (b.from as number | undefined) ?? Number.NEGATIVE_INFINITY,
    to: (b.to as number | undefined) ?? Number.POSITIVE_INFINITY,
  }));
  test.bands.forEach((b, i) => {
    const s = spans[i]!;
    const range = b.from === undefined ? `${b.to} or less` : b.to === undefined ? `${b.from} or more` : `${b.from}–${b.to}`;
    if (s.from > s.to) say(`${at}[${i}]`, `from ${s.from} is above to ${s.to}`);
    else if (!reached(s.from, s.to)) say(`${at}[${i}]`, `no final total reaches ${range} (totals run ${lo}–${hi})`);
  });
  checkCovered(reach, spans, at, say);
}

/** Each reachable total in exactly one band: the bands' edges swept once over the reach. */
function checkCovered({ lo: base, has }: Reach, spans: { from: number; to: number }[], at: string, say: Say) {
  const edges = new Int32Array(has.length + 1);
  for (const s of spans) {
    const a = Math.max(s.from, base) - base;
    const b = Math.min(s.to, base + has.length - 1) - base;
    if (a > b) continue;
    edges[a]!++;
    edges[b + 1]!--;
  }
  let holding = 0;
  const unlisted = { none: 0, two: 0 };
  let listed = 0;
  for (let i = 0; i < has.length; i++) {
    holding += edges[i]!;
    if (!has[i] || holding === 1) continue;
    if (listed >= LISTED) {
      unlisted[holding === 0 ? 'none' : 'two']++;
      continue;
    }
    listed++;
    const f = base + i;
    if (holding === 0) say(at, `${f} is a reachable total in no band`);
    else say(at, `${f} is in bands ${spans.flatMap((s, j) => (f >= s.from && f <= s.to ? [j] : [])).join(' and ')}`);
  }
  if (unlisted.none) say(at, `…and ${unlisted.none.toLocaleString('en')} more reachable totals in no band`);
  if (unlisted.two) say(at, `…and ${unlisted.two.toLocaleString('en')} more reachable totals in more than one band`);
}

/** `then` links: every test reached from the first, no cycle, at most MAX_CHAIN tests in one roll. */
function checkChains(pack: PackFile, say: Say) {
  const names = Object.keys(pack.tests);
  const next = (t: string) => [
    ...new Set([
      ...resultsOf(pack.tests[t]!).flatMap((r) => (r.result.then !== undefined && hasTest(pack, r.result.then) ? [r.result.then] : [])),
      ...extraLinks(pack, t).chain,
    ]),
  ];
  // Each test's depth once: tests that share follow-ups would otherwise be walked once per path to them.
  const depths = new Map<string, number>();
  const path: string[] = [];
  const depth = (t: string): number => {
    const known = depths.get(t);
    if (known !== undefined) return known;
    if (path.includes(t)) {
      say(`tests.${path.at(-1)}`, `a chain loops: ${[...path.slice(path.indexOf(t)), t].join(' → ')}`);
      return Number.POSITIVE_INFINITY;
    }
    path.push(t);
    const d = 1 + Math.max(0, ...next(t).map(depth));
    path.pop();
    depths.set(t, d);
    return d;
  };
  // A roll starts at one of the first tests (chosen by their `when`), or at a re-roll's test.
  const roots = rootTests(pack);
  const starts = [...new Set([...roots, ...names.flatMap((t) => extraLinks(pack, t).reached.filter((n) => !extraLinks(pack, t).chain.includes(n)))])];
  for (const root of starts) {
    const longest = depth(root);
    if (Number.isFinite(longest) && longest > MAX_CHAIN) say(`tests.${root}`, `a roll chains ${longest} tests; at most ${MAX_CHAIN}`);
  }
  const reached = new Set(roots);
  for (const t of reached) for (const n of [...next(t), ...extraLinks(pack, t).reached]) reached.add(n);
  for (const t of names) if (!reached.has(t)) say(`tests.${t}`, `no result leads to it (the first test, "${names[0]}", is the one rolled)`);
}

function checkTests(pack: PackFile, say: Say) {
  const names = Object.keys(pack.tests);
  if (!names.length) return say('tests', 'give at least one test: the first is the one the command rolls');
  for (const name of names) {
    const test = pack.tests[name]!;
    const at = `tests.${name}`;
    if ((test.target === undefined) === (test.bands === undefined))
      say(at, 'give either `target` with `compare` (pass or fail) or `bands`, not both and not neither');
    const e = checkDice(pack, test, at, say);
    checkComparison(pack, test, at, say);
    checkSpecials(test, e, at, say);
    checkResults(pack, name, test, say);
  }
  checkChains(pack, say);
}

/**
 * Every problem the whole pack has, each led by its path; none when it is sound. `commands` are the
 * names it must not take (each with what it is, in a map). `walk: false` leaves out the checks that
 * walk the options' values (the first tests' conditions, the bands): a pack row read back on the
 * serving thread was walked in the install's worker, and is not walked again there.
 */
export function packProblems(pack: PackFile, commands: TakenNames, o: { walk?: boolean } = {}): string[] {
  const problems = new Set<string>();
  const say: Say = (path, problem) => problems.add(`${path}: ${problem}`);
  // A map names what each name is ("/rally, as German players see it"): the clash is said.
  const clash = commands instanceof Map ? commands.get(pack.pack) : (commands as readonly string[]).includes(pack.pack) ? '' : undefined;
  if (clash !== undefined) say('pack', `"${pack.pack}" is a command the bot already has${clash ? ` (${clash})` : ''}`);
  checkUnitFields(pack, say);
  checkOptions(pack, say);
  checkModifiers(pack, say);
  checkTests(pack, say);
  for (const [name, test] of Object.entries(pack.tests)) checkTestForms(pack, name, test, say);
  checkLimits(pack, say);
  // One count of work for the whole pack: every test's checks share MAX_REACH_WORK.
  const work = packWork();
  if (o.walk === false) return [...problems];
  if (!problems.size) checkRoots(pack, say, work);
  // Coverage walks the options' values: only once every name it reads is known to be sound.
  if (!problems.size) {
    const reachOf = reachOfTests(pack, work);
    for (const [name, test] of Object.entries(pack.tests)) checkCoverage(pack, reachOf, name, test, say, work);
  }
  return [...problems];
}
