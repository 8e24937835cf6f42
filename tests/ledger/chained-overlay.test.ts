import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/ledger/chain.js';
import { fullChained, storedChained } from '../../src/ledger/chained-overlay.js';
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
    const c = '{"by":["0a"],"erasable":"' + 'f'.repeat(64) + '"}';
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

  it('the writer stores the whole text wherever the commitments alone would not give it back', () => {
    const c = { by: ['0a'], erasable: 'f'.repeat(64) };
    const plain = { a: 'Ann', b: 1 };
    const committed = { a: c, b: 1 };
    const plainText = canonicalJson(plain);
    const whole = canonicalJson(committed);
    expect(storedChained(plain, committed, ['a', 'b'], plainText, whole)).toBe(`[[["a"],${canonicalJson(c)}]]`);
    // A difference that is no commitment.
    const other = canonicalJson({ a: c, b: 2 });
    expect(storedChained(plain, { a: c, b: 2 }, ['a', 'b'], plainText, other)).toBe(other);
    // A text the commitments in place would not give back (a writer's slip).
    const slip = whole.replace('"b":1', '"b":1.0');
    expect(storedChained(plain, committed, ['a', 'b'], plainText, slip)).toBe(slip);
  });

  it('follows a path 64 steps deep at most: a commitment nested deeper is stored in the whole text', () => {
    const c = { by: ['0a'], erasable: 'f'.repeat(64) };
    const nest = (depth: number, leaf: unknown): unknown => (depth ? { a: nest(depth - 1, leaf) } : leaf);
    for (const [depth, overlay] of [
      [63, true],
      [64, false],
    ] as const) {
      const plain = { x: nest(depth, 'Ann') };
      const committed = { x: nest(depth, c) };
      const whole = canonicalJson(committed);
      const stored = storedChained(plain, committed, ['x'], canonicalJson(plain), whole);
      expect(stored.startsWith('[[')).toBe(overlay);
      expect(fullChained(canonicalJson(plain), canonicalJson([[['x', ...Array(depth).fill('a')], c]]))).toBe(
        overlay ? whole : canonicalJson([[['x', ...Array(depth).fill('a')], c]]),
      );
    }
  });
});
