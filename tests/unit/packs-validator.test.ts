import { describe, expect, it } from 'vitest';
import { nervePack, problemsOf } from '../helpers/packs.js';

type Edit = (p: any) => void;

/** Each refusal rule: one broken pack, and the exact sentence (led by its path) the validator gives. */
const CASES: [string, Edit, string][] = [
  ['the id is a built-in command', (p) => (p.pack = 'rally'), 'pack: "rally" is a command the bot already has'],
  [
    'the id breaks Discord’s name rule',
    (p) => (p.pack = 'Nerve Test'),
    'pack: the pack id: 3–32 lower-case letters, digits, - and _ (it is the slash command’s name)',
  ],
  ['a required field is missing', (p) => delete p.version, 'version: expected number (it is missing)'],
  ['a version that is not whole', (p) => (p.version = 1.5), 'version: expected a whole number (you gave 1.5)'],
  ['a field the format does not have', (p) => (p.colour = 'red'), 'the file: no such field: colour'],
  [
    'a text cut by a comma inside { … } (YAML ends the value there)',
    (p) => (p.tests.check.results.pass[' and it rallies.'] = null),
    'tests.check.results.pass: no such field:  and it rallies. (part of a text? a comma inside { … } ends the value: put the text in quotes)',
  ],
  ['a name too long', (p) => (p.name = 'x'.repeat(81)), 'name: at most 80 characters (you gave 81)'],
  ['no choices', (p) => (p.options[2].choices = []), 'options[2].choices: at least 1 entry (you gave 0)'],
  ['too many choices', (p) => (p.options[2].choices = Array.from({ length: 26 }, (_, i) => `c${i}`)), 'options[2].choices: at most 25 entries (you gave 26)'],
  ['an option type the format does not have', (p) => (p.options[3].type = 'text'), 'options[3].type: one of "integer", "boolean", "choice" (you gave "text")'],
  ['an option given twice', (p) => (p.options[3].name = 'pins'), 'options[3].name: the option "pins" is given twice'],
  [
    'an option the bot adds itself',
    (p) => (p.options[3].name = 'sealed'),
    'options[3].name: "sealed" is the bot\'s own option on every pack command ("unit", "sealed", "note", "odds_only")',
  ],
  ['min above max', (p) => Object.assign(p.options[1], { min: 5, max: 4, default: 4 }), 'options[1]: min 5 is above max 4'],
  ['a default that is not a value', (p) => (p.options[2].default = 'general'), 'options[2].default: "general" is not one of its values'],
  ['a choice given twice', (p) => p.options[2].choices.push('nco'), 'options[2].choices[3]: the choice "nco" is given twice'],
  ['from_unit names no field', (p) => (p.options[0].from_unit = 'grit'), 'options[0].from_unit: no unit field is named "grit" (unit_fields: "nerve", "pins")'],
  [
    'from_unit on a choice',
    (p) => (p.options[2].from_unit = 'pins'),
    'options[2].from_unit: only an integer option can take a unit field\'s value; "leader" is choice',
  ],
  [
    'a field range that never meets the option’s',
    (p) => Object.assign(p.unit_fields[0], { min: 13, max: 20 }),
    "options[0].from_unit: the field's range 13–20 never meets the option's 2–12",
  ],
  ['a unit field given twice', (p) => (p.unit_fields[1].name = 'nerve'), 'unit_fields[1].name: the field "nerve" is given twice'],
  ['a unit field default out of range', (p) => (p.unit_fields[1].default = 13), 'unit_fields[1].default: 13 is outside 0–12'],
  [
    'per names no integer option',
    (p) => (p.modifiers[0].per = 'leader'),
    'modifiers[0].per: "leader" is not an integer option (integer options: "nerve", "pins")',
  ],
  ['beyond without per', (p) => (p.modifiers[1].beyond = 1), 'modifiers[1].beyond: counts beyond a number of what: give `per` with it'],
  ['when names no option', (p) => (p.modifiers[1].when = { rank: 'nco' }), 'modifiers[1].when.rank: no option is named "rank"'],
  [
    'when gives a value the option does not have',
    (p) => (p.modifiers[1].when = { leader: 'sergeant' }),
    'modifiers[1].when.leader: "sergeant" is not a value of the option ("none", "nco", "officer")',
  ],
  ['tests names no test', (p) => (p.modifiers[3].tests = ['rout']), 'modifiers[3].tests[0]: no test is named "rout" (tests: "check", "panic")'],
  [
    'a target modifier with no target to add to',
    (p) => (p.modifiers[0].tests = ['panic']),
    'modifiers[0].to: adds to a target, but none of its tests has one (a band test reads the total)',
  ],
  [
    'a test with both target and bands',
    (p) => (p.tests.panic.target = 'nerve'),
    'tests.panic: give either `target` with `compare` (pass or fail) or `bands`, not both and not neither',
  ],
  ['dice that are not dice', (p) => (p.tests.check.dice = '2x6'), 'tests.check.dice: "2x6" is not dice: character 2 ("x"): + or - between terms'],
  ['dice past a million outcomes', (p) => (p.tests.panic.dice = '8d6'), 'tests.panic.dice: 8d6 has 1,679,616 outcomes; exact odds stop at 1,000,000'],
  [
    'a target that is not an integer option',
    (p) => (p.tests.check.target = 'leader'),
    'tests.check.target: "leader" is not an integer option (integer options: "nerve", "pins")',
  ],
  [
    'a target without compare',
    (p) => delete p.tests.check.compare,
    'tests.check.compare: a target test needs `compare`: at_most (pass when the total is at most the target) or at_least',
  ],
  ['compare without a target', (p) => (p.tests.panic.compare = 'at_most'), 'tests.panic.compare: compares with a target: give `target` too, or use `bands`'],
  ['a clamp without a target', (p) => (p.tests.panic.clamp_target = { min: 1, max: 2 }), 'tests.panic.clamp_target: clamps a target: give `target` too'],
  ['a clamp whose min is above its max', (p) => (p.tests.check.clamp_target = { min: 9, max: 3 }), 'tests.check.clamp_target: min 9 is above max 3'],
  ['a target test without a fail result', (p) => delete p.tests.check.results.fail, 'tests.check.results: a target test needs a "fail" result'],
  [
    'a special naming no result',
    (p) => (p.tests.check.specials[0].result = 'berserk'),
    'tests.check.specials[0].result: no result "berserk" in tests.check.results',
  ],
  [
    'a special with the wrong number of faces',
    (p) => (p.tests.check.specials[1].faces = [1, 1, 1]),
    'tests.check.specials[1].faces: 2d6 keeps 2 dice; this lists 3',
  ],
  ['a special with a face no die shows', (p) => (p.tests.check.specials[1].faces = [1, 7]), 'tests.check.specials[1].faces: no die of 2d6 shows 7'],
  [
    'a special total the dice never make',
    (p) => (p.tests.check.specials[1] = { total: 13, result: 'steady' }),
    'tests.check.specials[1].total: the kept dice of 2d6 total 2–12, never 13',
  ],
  [
    'a result nothing gives',
    (p) => (p.tests.check.results.hero = { label: 'Hero', tone: 'good', effect: 'A hero.' }),
    'tests.check.results.hero: no special gives it, and a target test gives only pass or fail',
  ],
  [
    'a unit change on no field',
    (p) => (p.tests.check.results.fail.unit = { add: { shock: 1 } }),
    'tests.check.results.fail.unit.add.shock: no unit field is named "shock" (unit_fields: "nerve", "pins")',
  ],
  [
    'a set outside the field',
    (p) => (p.tests.check.results.steady.unit = { set: { pins: 20 } }),
    "tests.check.results.steady.unit.set.pins: 20 is outside the field's 0–12",
  ],
  [
    'then names no test',
    (p) => (p.tests.check.results.panic.then = 'flee'),
    'tests.check.results.panic.then: no test is named "flee" (tests: "check", "panic")',
  ],
  ['a gap between bands', (p) => (p.tests.panic.bands[1].from = 4), 'tests.panic.bands: 3 is a reachable total in no band'],
  ['two bands over one total', (p) => (p.tests.panic.bands[1].to = 5), 'tests.panic.bands: 5 is in bands 0 and 1'],
  [
    'a band no total reaches',
    (p) => p.tests.panic.bands.push({ from: 9, label: 'Charges', tone: 'good', effect: 'It charges.' }),
    'tests.panic.bands[3]: no final total reaches 9 or more (totals run 1–7)',
  ],
  ['a band whose from is above its to', (p) => Object.assign(p.tests.panic.bands[1], { from: 4, to: 3 }), 'tests.panic.bands[1]: from 4 is above to 3'],
  [
    'a test no result leads to',
    (p) => delete p.tests.check.results.panic.then,
    'tests.panic: no result leads to it (the first test, "check", is the one rolled)',
  ],
  ['a chain that loops', (p) => (p.tests.panic.bands[0].then = 'check'), 'tests.panic: a chain loops: check → panic → check'],
  [
    'a chain four tests deep',
    (p) => {
      p.tests.panic.bands[0].then = 'shock';
      p.tests.shock = { dice: '1d6', bands: [{ label: 'Shaken', tone: 'bad', effect: 'Shaken.', then: 'last' }] };
      p.tests.last = { dice: '1d6', bands: [{ label: 'Done', tone: 'bad', effect: 'Done.' }] };
    },
    'tests.check: a roll chains 4 tests; at most 3',
  ],
  [
    'options whose combinations are too many to check',
    (p) => {
      for (const n of ['a', 'b', 'c']) p.options.push({ name: n, type: 'integer', min: 0, max: 100, default: 0 });
      p.modifiers.push({ label: 'abc', when: { a: 1, b: 1, c: 1 }, value: 1 });
    },
    'modifiers: options "a", "b", "c" together have 1,030,301 combinations; at most 200,000 can be checked',
  ],
];

describe('the pack validator: each refusal names its path and its rule', () => {
  it('passes the sound pack', () => expect(problemsOf(nervePack())).toEqual([]));
  it.each(CASES)('%s', (_what, edit, problem) => {
    const pack = structuredClone(nervePack());
    edit(pack);
    expect(problemsOf(pack)).toContain(problem);
  });

  it('refuses a file over 64 KiB, a YAML error with its line, a key given twice, and an alias bomb', () => {
    expect(problemsOf(`# ${'x'.repeat(64 * 1024)}`)).toEqual(['the file: 65,538 bytes; a pack is at most 65,536']);
    expect(problemsOf('pack: a\n  version: [1')[0]).toBe('line 1, column 7: Nested mappings are not allowed in compact mappings');
    expect(problemsOf('pack: abc\npack: abd\n')[0]).toBe('line 2, column 1: Map keys must be unique');
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x]',
      ...'bcdefghij'.split('').map((c, i) => `${c}: &${c} [*${'abcdefghij'[i]}, *${'abcdefghij'[i]}, *${'abcdefghij'[i]}, *${'abcdefghij'[i]}]`),
    ].join('\n');
    expect(problemsOf(bomb)[0]).toMatch(/^the file: .*alias/i);
  });
});

/**
 * A pack whose bands are walked value by value (their bounds are expressions): options `x` and `y`
 * from 0 to `ab`, `z` from 0 to `cmax`, and `tests` tests of `bands` bands each over 2d6 plus x−y.
 */
function walkedPack(ab: number, cmax: number, tests: number, bands: number) {
  const plus = (n: number) => (n < 0 ? `x - ${-n}` : `x + ${n}`);
  const band = (i: number) => ({
    ...(i ? { from: plus((i - 1) * 10 - 15) } : {}),
    ...(i < bands - 1 ? { to: plus(i * 10 - 16) } : {}),
    label: `Band ${i}`,
    tone: 'neutral',
    effect: 'As the band says.',
  });
  const names = Array.from({ length: tests }, (_, i) => `t${i}`);
  return {
    pack: 'walked',
    version: 1,
    name: 'Walked bands',
    description: 'Bands whose bounds read an option',
    source: 'A test of the validator',
    options: [
      { name: 'x', type: 'integer', min: 0, max: ab, description: 'x' },
      { name: 'y', type: 'integer', min: 0, max: ab, description: 'y' },
      { name: 'z', type: 'integer', min: 0, max: cmax, description: 'z' },
      { name: 'which', type: 'choice', choices: names, description: 'which test' },
    ],
    modifiers: [{ label: 'x less y', value: 'x - y + floor(z / 3)' }],
    tests: Object.fromEntries(names.map((n) => [n, { label: n, dice: '2d6', when: { which: n }, bands: Array.from({ length: bands }, (_, i) => band(i)) }])),
  };
}

describe('the pack validator: one bound on the work of every check', () => {
  it('refuses bands walked value by value past the limit, before walking them all (once: minutes of work)', () => {
    // The first test's condition (one choice, one leaf) took 50 steps; the bands would take some 10⁹.
    expect(problemsOf(walkedPack(60, 50, 1, 25))).toEqual([
      `tests.t0: checking its bands takes more than 23,999,950 steps over the values of "x", "which", "y", "z"; a pack's checks take at most 24,000,000 (the tests before it took 50): narrow those options' min and max`,
    ]);
  });

  it('counts the work of every test against the one limit: a second test is refused with what the first took', () => {
    expect(problemsOf(walkedPack(20, 9, 1, 5))).toEqual([]);
    const [problem, ...more] = problemsOf(walkedPack(20, 9, 2, 5));
    expect(more).toEqual([]);
    expect(problem).toMatch(
      /^tests\.t1: checking its bands takes more than [\d,]+ steps over the values of "x", "which", "y", "z"; a pack's checks take at most 24,000,000 \(the tests before it took 1\d,\d{3},\d{3}\): narrow those options' min and max$/,
    );
  });
});

describe('the pack validator: work counted where it grows', () => {
  /** A minimal pack around the given options, modifiers and tests. */
  const packWith = (options: unknown[], modifiers: unknown[], tests: Record<string, unknown>) => ({
    pack: 'heavy',
    version: 1,
    name: 'Heavy checks',
    description: 'Work the validator must count',
    source: 'A test of the validator',
    options,
    modifiers,
    tests,
  });
  const bands = (at: string) => [
    { to: at, label: 'Low', tone: 'bad', effect: 'Low.' },
    { from: `${at} + 1`, label: 'High', tone: 'good', effect: 'High.' },
  ];

  it('adding up the sums of many unlinked options (each a group of its own) is counted before it is done', () => {
    const names = Array.from({ length: 19 }, (_, i) => `o${i}`);
    const pack = packWith(
      names.map((name) => ({ name, type: 'integer', min: 0, max: 1000, description: name })),
      names.slice(1).map((n) => ({ label: n, value: n })),
      { check: { label: 'Check', dice: '2d6', bands: bands('o0') } },
    );
    // Named while adding up the unlinked options' sums (o0, read by the bands, is walked after): before it is done.
    expect(problemsOf(pack)).toEqual([
      `tests.check: checking its bands takes more than 24,000,000 steps over the values of "o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8"; a pack's checks take at most 24,000,000: narrow those options' min and max`,
    ]);
  });

  it('a condition of thousands of leaves is counted by its leaves, not as one', () => {
    // 1,000 leaves, ten to a list (the most a list holds), none of which holds: every one is read.
    const ten = <T>(f: (i: number) => T) => Array.from({ length: 10 }, (_, i) => f(i));
    const big = { any: ten((a) => ({ any: ten((b) => ({ any: ten((c) => ({ y: { at_least: 1000 + a * 100 + b * 10 + c } })) })) })) };
    const pack = packWith(
      [
        { name: 'x', type: 'integer', min: 0, max: 39, description: 'x' },
        { name: 'y', type: 'integer', min: 0, max: 999, description: 'y' },
      ],
      [],
      {
        first: { label: 'First', dice: '2d6', when: big, bands: bands('6') },
        second: { label: 'Second', dice: '2d6', when: { x: { at_least: 0 } }, bands: bands('6') },
      },
    );
    expect(problemsOf(pack)).toEqual([
      `tests: the first tests' conditions read "y", "x": checking them takes 2,002,000,000 steps; a pack's checks take at most 24,000,000: narrow those options' min and max`,
    ]);
  });
});
