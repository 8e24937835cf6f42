import { isDeepStrictEqual } from 'node:util';
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalForm, canonicalJson } from '../../src/ledger/canonical-json.js';

/** The library's answer, the judge of every value: its text, or that it refuses the value. */
function libraryAnswer(v: unknown): string | 'refused' {
  try {
    return canonicalize(v) ?? 'refused';
  } catch {
    return 'refused';
  }
}

function ourAnswer(v: unknown): string | 'refused' {
  try {
    return canonicalJson(v);
  } catch {
    return 'refused';
  }
}

/** Each answer the library gives, ours gives; and canonicalForm's value is exactly the text parsed back (-0 told from 0). */
function agreesWithLibrary(v: unknown): void {
  const expected = libraryAnswer(v);
  expect(ourAnswer(v)).toBe(expected);
  if (expected === 'refused') {
    expect(() => canonicalForm(v)).toThrow();
    return;
  }
  const form = canonicalForm(v);
  expect(form.text).toBe(expected);
  expect(JSON.stringify(form.value)).toBe(JSON.stringify(JSON.parse(expected)));
  expect(isDeepStrictEqual(form.value, JSON.parse(expected))).toBe(true);
}

// Keys JS lists before the others, keys JSON.parse keeps as own properties, and text the library refuses.
const oddKey = fc.constantFrom('10', '9', '0', '01', '-1', '1.5', '4294967295', '__proto__', 'constructor', '\uD800', 'é', 'e\u0301', '\u{1F600}', '');
const key = fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), oddKey);
const leaf = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.double(),
  fc.integer(),
  fc.constantFrom(-0, 0, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, Number.NaN, Number.POSITIVE_INFINITY),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constant(() => 1),
  fc.constant(Symbol('s')),
  fc.bigInt(),
  fc.date({ noInvalidDate: true }),
  fc.constant(new Number(3)),
  fc.constant(new String('boxed')),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object'), tie('parsed')),
  array: fc.array(tie('node'), { maxLength: 5 }),
  object: fc.dictionary(key, tie('node'), { maxKeys: 5 }),
  // JSON.parse makes __proto__ an own key, as a stored row's text read back does.
  parsed: fc.jsonValue({ maxDepth: 3 }).map((j) => JSON.parse(JSON.stringify(j))),
}));

describe('canonical JSON: the fast path writes exactly what the library writes', () => {
  it('agrees with the library on generated values, odd keys, numbers and strings included', () => {
    fc.assert(
      fc.property(value.node, (v) => agreesWithLibrary(v)),
      { numRuns: 3000 },
    );
  });

  it('agrees with it on the values a roll writes and on each case the fast path leaves to it', () => {
    // A hole at index 1, which JSON writes as null.
    const sparse: unknown[] = [1];
    sparse[2] = 3;
    const noProto = Object.assign(Object.create(null), { b: 1, a: [2] });
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    let deep: unknown = 'bottom';
    for (let i = 0; i < 200; i++) deep = { d: deep };
    const cases: unknown[] = [
      { outcome: { result: 'rally', steps: [{ dice: [4], final: 2, modifiers: [{ reason: 'militia' }] }] }, odds: { exactly: '1/2' } },
      { 10: 'ten', 9: 'nine', a: 'a' },
      JSON.parse('{"__proto__": {"x": 1}, "a": 2}'),
      { z: -0, a: [-0, 0] },
      { keep: 1, drop: undefined, fn: () => 1, sym: Symbol('s') },
      [undefined, () => 1, Symbol('s')],
      sparse,
      noProto,
      { when: new Date(0) },
      { toJSON: () => ({ b: 2, a: 1 }) },
      { boxed: new Number(2), text: new String('t'), yes: new Boolean(true) },
      { lone: '\uDC00' },
      { '\uD800': 'lone key' },
      { big: 1n },
      { nan: Number.NaN },
      cycle,
      deep,
      'a string',
      42,
      null,
      undefined,
    ];
    for (const v of cases) agreesWithLibrary(v);
  });

  it('agrees with it on arrays whose length changes while they are read, and on odd lengths', () => {
    const shrinking = () => {
      const a = [1, 2, 3];
      Object.defineProperty(a, 0, {
        get() {
          a.length = 1;
          return 1;
        },
      });
      return a;
    };
    const withLength = (length: unknown) => new Proxy([7, 8], { get: (t, k) => (k === 'length' ? length : Reflect.get(t, k)) });
    for (const make of [shrinking, () => withLength('0'), () => withLength(-1), () => withLength(1.5)]) {
      expect(ourAnswer(make())).toBe(libraryAnswer(make()));
      const text = libraryAnswer(make());
      expect(isDeepStrictEqual(canonicalForm(make()).value, JSON.parse(text))).toBe(true);
    }
  });

  it('leaves nesting past its depth to the library, which writes any depth and names a cycle', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(canonicalJson(deep)).toBe(`${'['.repeat(100_000)}"bottom"${']'.repeat(100_000)}`);
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect(() => canonicalJson({ a: cycle })).toThrow(/Circular/);
  });

  it('refuses what the library refuses, with the values named', () => {
    expect(() => canonicalJson({ lone: '\uD800' })).toThrow(/Lone surrogate/);
    expect(() => canonicalJson({ n: Number.POSITIVE_INFINITY })).toThrow(/Infinity/);
    expect(() => canonicalJson(undefined)).toThrow(/cannot be canonicalized/);
  });
});
