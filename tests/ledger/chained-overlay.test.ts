import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/ledger/chain.js';
import { committedFieldsOf, fullChained, skeletonsKept, storedChained } from '../../src/ledger/chained-overlay.js';
import { valueEnd } from '../../src/ledger/json-text.js';
import { saltIdsOf } from '../../src/ledger/people.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { withFullChained } from '../../src/ledger/rows.js';
import { wellFormed } from '../../src/util/text.js';
import { ledgerEntry } from '../helpers/ledger.js';
import { tmpDb } from '../helpers/tmp.js';

const text = fc.string({ unit: 'binary', maxLength: 10 }).map(wellFormed);
const name = fc
  .string({ unit: 'binary', minLength: 3, maxLength: 10 })
  .map(wellFormed)
  .filter((s) => s.trim().length >= 3);

/** A tree of values where the person's name turns up anywhere: whole, in prose, under any key (escapes included), in lists. */
const tree = (who: string) =>
  fc.letrec<{ node: unknown }>((t) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.constantFrom(who, `${who} holds the ford`, 'nobody', '', 0, -1.5, 1e21, true, null),
      text,
      fc.array(t('node'), { maxLength: 4 }),
      fc.dictionary(fc.oneof(text, fc.constantFrom('note', 'steps', '"q"', 'a\\b', '\u2028', 'label')), t('node'), { maxKeys: 4 }),
    ),
  })).node;

describe('a committed row stores only its commitments, and every reader gets the whole text back', () => {
  it('for any values naming the player anywhere in input and outcome, in a game and out of one: the text the append hashed, and the chain holds', () => {
    const ledger = Ledger.open(tmpDb());
    const read = ledger.db.prepare('SELECT * FROM rolls WHERE id = ?');
    let overlays = 0;
    fc.assert(
      fc.property(
        name.chain((who) => fc.tuple(fc.constant(who), tree(who), tree(who), fc.boolean())),
        ([who, input, outcome, inGame]) => {
          const game = inGame ? { gameId: 'game1', turn: 2, phase: who, gameSeq: 1 } : {};
          const row = ledger.append(
            ledgerEntry({ userName: who, unit: who, input: { note: `${who} aims`, deep: input }, outcome: { steps: [], x: outcome }, ...game }),
          );
          const stored = read.get(row.id) as Record<string, unknown> & { chained: string };
          if (stored.chained.startsWith('[')) overlays++;
          expect(stored.chained.length).toBeLessThanOrEqual(row.chained!.length);
          expect(withFullChained({ ...stored }).chained).toBe(row.chained);
          expect(ledger.get('g1', row.id)!.chained).toBe(row.chained);
        },
      ),
      { numRuns: 300 },
    );
    // Every row here names the player in its note: each stored its commitments alone.
    expect(overlays).toBe(300);
    expect(ledger.verify('g1')).toMatchObject({ ok: true, count: 300 });
    ledger.close();
  });

  it('an overlay that does not read, or names a path the row lacks, gives back what was stored: the row then reads as edited', () => {
    const plain = '{"a":{"b":"x"},"c":[1,"y"]}';
    const c = `{"by":["0a"],"erasable":"${'f'.repeat(64)}"}`;
    expect(fullChained(plain, `[[["a","b"],${c}],[["c",1],${c}]]`)).toBe(`{"a":{"b":${c}},"c":[1,${c}]}`);
    for (const bad of [
      '[',
      '[]',
      `[[["a","z"],${c}]]`,
      `[[["c",2],${c}]]`,
      `[[["a"],${c}],[["a","b"],${c}]]`,
      `[[["a","b"],{"by":[]}]]`,
      `[[[],${c}]]`,
      `[[["c",-1],${c}]]`,
    ])
      expect(fullChained(plain, bad), bad).toBe(bad);
    // A whole text (rows stored before) is itself.
    expect(fullChained(plain, '{"a":1}')).toBe('{"a":1}');
  });

  it('the writer stores the whole text wherever the chained row differs otherwise than by commitments', () => {
    const c = { by: ['0a'], erasable: 'f'.repeat(64) };
    const plain = { a: 'Ann', b: 1, l: ['x', 'Ann'] };
    const committed = { a: c, b: 1, l: ['x', c] };
    const whole = canonicalJson(committed);
    const stored = storedChained(plain, committed, ['a', 'b', 'l'], whole);
    expect(stored).toBe(
      canonicalJson([
        [['a'], c],
        [['l', 1], c],
      ]),
    );
    expect(fullChained(canonicalJson(plain), stored)).toBe(whole);
    // A value that differs and is no commitment; a list of another length; no commitment at all.
    for (const other of [{ ...committed, b: 2 }, { ...committed, l: ['x'] }, plain])
      expect(storedChained(plain, other, ['a', 'b', 'l'], 'whole')).toBe('whole');
  });

  it('follows a path 64 steps deep at most: a commitment nested deeper is stored in the whole text', () => {
    const c = { by: ['0a'], erasable: 'f'.repeat(64) };
    const nest = (depth: number, leaf: unknown): unknown => (depth ? { a: nest(depth - 1, leaf) } : leaf);
    for (const [depth, overlay] of [
      [63, true],
      [64, false],
      [200, false],
    ] as const) {
      const plain = { x: nest(depth, 'Ann') };
      const committed = { x: nest(depth, c) };
      const whole = canonicalJson(committed);
      const stored = storedChained(plain, committed, ['x'], whole);
      expect(stored.startsWith('[[')).toBe(overlay);
      expect(fullChained(canonicalJson(plain), canonicalJson([[['x', ...Array(depth).fill('a')], c]]))).toBe(
        overlay ? whole : canonicalJson([[['x', ...Array(depth).fill('a')], c]]),
      );
    }
  });

  it("the eraser's reading of an overlay sets commitments at the row's own keys and indices only, else gives up (the row is then blanked whole)", () => {
    const c = { by: ['0a'], erasable: 'f'.repeat(64) };
    const plain = { user_id: 'ann', outcome: { steps: [1, 2], note: 'Ann' } };
    const overlay = (...paths: unknown[][]) => JSON.stringify(paths.map((p) => [p, c]));
    expect(committedFieldsOf(overlay(['user_id'], ['outcome', 'note'], ['outcome', 'steps', 1]), plain)).toEqual({
      user_id: c,
      outcome: { steps: [1, c], note: c },
    });
    const objectToString = Object.prototype.toString;
    const map = Array.prototype.map;
    for (const path of [
      ['outcome', 'steps', 'length'],
      [{ toString: 0 }],
      ['__proto__', '__proto__'],
      ['__proto__', 'toString'],
      ['outcome', 'steps', '__proto__', 'map'],
      ['outcome', 'steps', 2],
      ['outcome', 'none'],
    ])
      expect(committedFieldsOf(overlay(path), plain), JSON.stringify(path)).toBeUndefined();
    expect(Object.prototype.toString).toBe(objectToString);
    expect(Array.prototype.map).toBe(map);
    expect(committedFieldsOf('{not json', plain)).toBeUndefined();
  });

  it('an honest row holding data shaped like a commitment (a pack may) is held, not read as a value whose salt is gone', () => {
    const ledger = Ledger.open(tmpDb());
    const when = { by: [{ quality: 'elite' }], erasable: 'x' };
    const row = ledger.append(ledgerEntry({ userName: 'Ann', input: { note: 'Ann tests', pack: { modifiers: [{ when }] } }, outcome: { steps: [], when } }));
    expect((ledger.db.prepare('SELECT chained FROM rolls WHERE id = ?').get(row.id) as { chained: string }).chained.startsWith('[[')).toBe(true);
    expect(ledger.verify('g1')).toMatchObject({ ok: true, count: 1 });
    ledger.close();
  });

  it("keeps the paths' skeleton of the overlays a writer makes, and lets a crafted overlay's long paths go", () => {
    const c = { by: ['0a'], erasable: 'f'.repeat(64) };
    const key = (n: number) => `k${'x'.repeat(n)}`;
    const once = (n: number) => {
      const plain = canonicalJson({ [key(n)]: 'Ann' });
      const before = skeletonsKept();
      expect(fullChained(plain, canonicalJson([[[key(n)], c]]))).toBe(canonicalJson({ [key(n)]: c }));
      return skeletonsKept() - before;
    };
    expect(once(10)).toBe(1);
    expect(once(10)).toBe(0);
    expect(once(2_000)).toBe(0);
  });

  it('finds where a value ends in canonical text: strings skipped whole, escapes included; -1 where it has none', () => {
    const cases: [string, number][] = [
      ['{"a":"}]"}x', 10],
      ['[1,[2,{"b":[]}]],3', 16],
      // An escaped quote, then an escaped backslash before the closing quote.
      ['"a\\"b",', 6],
      ['"a\\\\",1', 5],
      ['{"a":1', -1],
      ['{"a":"x}', -1],
      ['[[]', -1],
      ['12,3', 2],
      ['null}', 4],
      ['', 0],
    ];
    for (const [text, end] of cases) expect(valueEnd(text, 0), text).toBe(end);
    expect(valueEnd('{"k":{"a":[1]},"z":2}', 5)).toBe(14);
  });

  it('reads the salt ids a text names: hex ids of each list, once each, and nothing from a list that does not close', () => {
    const c = (ids: string) => `{"by":[${ids}],"erasable":"${'f'.repeat(64)}"}`;
    expect(saltIdsOf(`{"a":${c('"0a","1b"')},"b":[${c('"2c"')}]}`)).toEqual(['0a', '1b', '2c']);
    expect(saltIdsOf(`{"a":${c('x')},"b":${c('"zz","3d"')}}`)).toEqual(['3d']);
    expect(saltIdsOf(`{"a":${c('"4e"')},"b":"by":["5f"`)).toEqual(['4e']);
    expect(saltIdsOf('"by":['.repeat(50_000))).toEqual([]);
  });
});
