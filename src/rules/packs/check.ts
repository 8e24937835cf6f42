import { ExpressionError, parseExpression, sidesOf, type Expression } from '../dice/expression.js';
import { resultsOf } from './results.js';
import { MAX_COMBINATIONS, diceTotals, domainOf, modifierSums, reachableFinals } from './reach.js';
import { RESERVED_OPTIONS } from './reserved.js';
import type { PackFile, PackResult, PackTest } from './schema.js';

/**
 * What zod cannot see in one field: names that must point somewhere, bands that must cover every
 * total, chains that must end. Each problem is one sentence led by its path in the file.
 */

/** Past this many equally likely dice outcomes in one test, exact odds are refused at install. */
export const MAX_OUTCOMES = 1_000_000;
/** A roll is its first test and at most this many tests in all, following `then`. */
export const MAX_CHAIN = 3;

type Say = (path: string, problem: string) => void;

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
  if (o.type !== 'integer') return say(`${at}.from_unit`, `only an integer option can take a unit field's value; "${o.name}" is ${o.type}`);
  // A unit's value outside the option's range is refused at the roll (a unit with no disorder does not rally).
  if (field.max < o.min || field.min > o.max) say(`${at}.from_unit`, `the field's range ${field.min}–${field.max} never meets the option's ${o.min}–${o.max}`);
}

function checkModifiers(pack: PackFile, say: Say) {
  const tests = Object.keys(pack.tests);
  pack.modifiers.forEach((m, i) => {
    const at = `modifiers[${i}]`;
    if (m.per !== undefined) {
      const o = pack.options.find((x) => x.name === m.per);
      if (o?.type !== 'integer')
        say(
          `${at}.per`,
          `"${m.per}" is not an integer option (integer options: ${list(pack.options.filter((x) => x.type === 'integer').map((x) => x.name)) || 'none'})`,
        );
    } else if (m.beyond !== undefined) say(`${at}.beyond`, 'counts beyond a number of what: give `per` with it');
    for (const [name, value] of Object.entries(m.when ?? {})) {
      const o = pack.options.find((x) => x.name === name);
      if (!o) say(`${at}.when.${name}`, `no option is named "${name}"`);
      else if (!domainOf(o).includes(value))
        say(
          `${at}.when.${name}`,
          `${JSON.stringify(value)} is not a value of the option (${o.type === 'integer' ? `${o.min}–${o.max}` : list(domainOf(o) as string[])})`,
        );
    }
    (m.tests ?? []).forEach((t, j) => {
      if (!tests.includes(t)) say(`${at}.tests[${j}]`, `no test is named "${t}" (tests: ${list(tests)})`);
    });
    const applies = (m.tests ?? tests).filter((t) => pack.tests[t]);
    if (m.to === 'target' && applies.length && !applies.some((t) => pack.tests[t]!.target !== undefined))
      say(`${at}.to`, 'adds to a target, but none of its tests has one (a band test reads the total)');
  });
}

/** The dice, parsed; a refusal names the character where the expression stopped. */
function checkDice(test: PackTest, at: string, say: Say): Expression | undefined {
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

function checkComparison(pack: PackFile, test: PackTest, at: string, say: Say) {
  if (test.target === undefined) {
    if (test.compare !== undefined) say(`${at}.compare`, 'compares with a target: give `target` too, or use `bands`');
    if (test.clamp_target !== undefined) say(`${at}.clamp_target`, 'clamps a target: give `target` too');
    return;
  }
  const o = pack.options.find((x) => x.name === test.target);
  if (o?.type !== 'integer')
    say(
      `${at}.target`,
      `"${test.target}" is not an integer option (integer options: ${list(pack.options.filter((x) => x.type === 'integer').map((x) => x.name)) || 'none'})`,
    );
  if (test.compare === undefined) say(`${at}.compare`, 'a target test needs `compare`: at_most (pass when the total is at most the target) or at_least');
  if (test.clamp_target && test.clamp_target.min > test.clamp_target.max)
    say(`${at}.clamp_target`, `min ${test.clamp_target.min} is above max ${test.clamp_target.max}`);
  for (const id of ['pass', 'fail']) if (!test.results?.[id]) say(`${at}.results`, `a target test needs a "${id}" result`);
}

/** Specials read the kept dice: as many faces as dice are kept, each a face those dice have. */
function checkSpecials(test: PackTest, e: Expression | undefined, at: string, say: Say) {
  const kept = e?.terms.flatMap((t) =>
    t.kind === 'dice' ? new Array<number>(t.keep ? (t.keep.mode[0] === 'k' ? t.keep.k : t.count - t.keep.k) : t.count).fill(t.sides) : [],
  );
  (test.specials ?? []).forEach((s, i) => {
    const where = `${at}.specials[${i}]`;
    if (!test.results?.[s.result]) say(`${where}.result`, `no result "${s.result}" in ${at}.results`);
    if (!kept) return;
    if ('faces' in s) {
      if (s.faces.length !== kept.length)
        say(`${where}.faces`, `${test.dice} keeps ${kept.length} ${kept.length === 1 ? 'die' : 'dice'}; this lists ${s.faces.length}`);
      const top = Math.max(...kept);
      if (s.faces.some((f) => f > top)) say(`${where}.faces`, `no die of ${test.dice} shows ${list(s.faces.filter((f) => f > top))}`);
    } else {
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
    if (r.result.then !== undefined && !pack.tests[r.result.then])
      say(`${where}.then`, `no test is named "${r.result.then}" (tests: ${list(Object.keys(pack.tests))})`);
  }
}

function checkUnitChange(pack: PackFile, change: PackResult['unit'], at: string, say: Say) {
  if (!change) return;
  for (const kind of ['add', 'set'] as const) {
    for (const [field, value] of Object.entries(change[kind] ?? {})) {
      const f = pack.unit_fields?.find((x) => x.name === field);
      if (!f) say(`${at}.${kind}.${field}`, `no unit field is named "${field}" (unit_fields: ${list((pack.unit_fields ?? []).map((x) => x.name)) || 'none'})`);
      else if (kind === 'set' && (value < f.min || value > f.max)) say(`${at}.set.${field}`, `${value} is outside the field's ${f.min}–${f.max}`);
    }
  }
}

/** Every band test's bands: each reachable final total in exactly one band, and no band out of reach. */
function checkCoverage(pack: PackFile, name: string, test: PackTest, say: Say) {
  if (!test.bands) return;
  const at = `tests.${name}.bands`;
  const sums = modifierSums(pack, name, 'total');
  if ('tooMany' in sums)
    return say(
      `modifiers`,
      `options ${list(sums.tooMany)} together have ${sums.combinations.toLocaleString('en')} combinations; at most ${MAX_COMBINATIONS.toLocaleString('en')} can be checked`,
    );
  const finals = reachableFinals(diceTotals(test.dice), sums.sums);
  const lo = finals[0]!;
  const hi = finals.at(-1)!;
  // A bound left out is open-ended: from the lowest, or to the highest, reachable total.
  const spans = test.bands.map((b) => ({ from: b.from ?? Number.NEGATIVE_INFINITY, to: b.to ?? Number.POSITIVE_INFINITY }));
  test.bands.forEach((b, i) => {
    const s = spans[i]!;
    const range = b.from === undefined ? `${b.to} or less` : b.to === undefined ? `${b.from} or more` : `${b.from}–${b.to}`;
    if (s.from > s.to) say(`${at}[${i}]`, `from ${s.from} is above to ${s.to}`);
    else if (!finals.some((f) => f >= s.from && f <= s.to)) say(`${at}[${i}]`, `no final total reaches ${range} (totals run ${lo}–${hi})`);
  });
  for (const f of finals) {
    const holders = spans.flatMap((s, i) => (f >= s.from && f <= s.to ? [i] : []));
    if (holders.length === 0) say(at, `${f} is a reachable total in no band`);
    if (holders.length > 1) say(at, `${f} is in bands ${holders.join(' and ')}`);
  }
}

/** `then` links: every test reached from the first, no cycle, at most MAX_CHAIN tests in one roll. */
function checkChains(pack: PackFile, say: Say) {
  const names = Object.keys(pack.tests);
  const next = (t: string) => [...new Set(resultsOf(pack.tests[t]!).flatMap((r) => (r.result.then && pack.tests[r.result.then] ? [r.result.then] : [])))];
  const depth = (t: string, seen: string[]): number => {
    if (seen.includes(t)) {
      say(`tests.${seen.at(-1)}`, `a chain loops: ${[...seen.slice(seen.indexOf(t)), t].join(' → ')}`);
      return Number.POSITIVE_INFINITY;
    }
    return 1 + Math.max(0, ...next(t).map((n) => depth(n, [...seen, t])));
  };
  const longest = depth(names[0]!, []);
  if (Number.isFinite(longest) && longest > MAX_CHAIN) say(`tests.${names[0]}`, `a roll chains ${longest} tests; at most ${MAX_CHAIN}`);
  const reached = new Set([names[0]!]);
  for (const t of reached) for (const n of next(t)) reached.add(n);
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
    const e = checkDice(test, at, say);
    checkComparison(pack, test, at, say);
    checkSpecials(test, e, at, say);
    checkResults(pack, name, test, say);
  }
  checkChains(pack, say);
}

/** Every problem the whole pack has, each led by its path; none when it is sound. `commands` are the names it must not take. */
export function packProblems(pack: PackFile, commands: readonly string[]): string[] {
  const problems: string[] = [];
  const say: Say = (path, problem) => {
    const line = `${path}: ${problem}`;
    if (!problems.includes(line)) problems.push(line);
  };
  if (commands.includes(pack.pack)) say('pack', `"${pack.pack}" is a command the bot already has`);
  checkUnitFields(pack, say);
  checkOptions(pack, say);
  checkModifiers(pack, say);
  checkTests(pack, say);
  // Coverage walks the options' values: only once every name it reads is known to be sound.
  if (!problems.length) for (const [name, test] of Object.entries(pack.tests)) checkCoverage(pack, name, test, say);
  return problems;
}
