import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, pickChained, type ChainedFields } from '../../src/ledger/chain.js';
import { namedIn, nextRow } from '../../src/ledger/next-row.js';
import { checkCommitted, commitTo, committedFields, type PersonSalt } from '../../src/ledger/people.js';
import { withFullChained, type NewEntry } from '../../src/ledger/rows.js';
import { sayIn } from '../../src/i18n/speak.js';
import { ledgerEntry } from '../helpers/ledger.js';

// The shortcuts a roll's write takes (the plain columns' text reused in the chained text, a field
// left unwalked when its text holds no one's value, HMACs and sentences kept) must give the very
// bytes the long way gives: every field walked, every value canonicalised again.

const saltOf = (userId: string): PersonSalt => ({
  salt_id: Buffer.from(userId).toString('hex').padEnd(24, '0').slice(0, 24),
  user_id: userId,
  salt: `${userId}`.padEnd(64, 'f'),
});

/** The chained text the long way: every person field walked, the whole row canonicalised. */
function longWay(entry: NewEntry, fields: ChainedFields): string {
  const named = namedIn(entry);
  const committed = committedFields(fields, named, saltOf) as ChainedFields;
  const input = entry.chainedInput ? { ...(committed.input as Record<string, unknown>), ...entry.chainedInput } : committed.input;
  return canonicalJson(pickChained({ ...committed, input }));
}

const awkward = [
  // A name JSON escapes (a quote, a backslash) inside the rules' prose.
  { userName: 'O"Neil \\ the Bold', unit: 'Guard', outcome: { steps: [{ effect: 'O"Neil \\ the Bold rallies the line' }], result: 'pass' } },
  // A name outside the basic plane, and a control character.
  { userName: 'Zoë 🎲\tTwo', unit: null, outcome: { steps: [{ effect: 'Zoë 🎲\tTwo holds' }] } },
  // An object keyed by the maker's id, and integer-like keys (which JavaScript orders first).
  { userName: 'Ann', unit: 'Red Devils', outcome: { byPlayer: { u7: 3 }, totals: { '10': 1, '2': 5, a: 0 } } },
  // Nothing in the outcome names anyone.
  { userName: 'Ann', unit: 'Guard', outcome: { result: 'retreat', steps: [{ effect: 'The disorder stays.', dice: [4] }] } },
  // The unit's name inside the outcome's prose only.
  { userName: 'Bea', unit: 'Iron Brigade', outcome: { steps: [{ effect: 'The Iron Brigade breaks' }] } },
];

describe("a roll's chained text, written the short way", () => {
  for (const [i, a] of awkward.entries()) {
    it(`is the long way's bytes (case ${i + 1})`, () => {
      const entry = ledgerEntry({ userId: 'u7', userName: a.userName, unit: a.unit, input: { note: `for ${a.userName}`, n: 2 }, outcome: a.outcome });
      const row = nextRow(entry, undefined, '2026-12-04T00:00:00.000Z', saltOf);
      expect(row.chained).toBe(longWay(entry, row.fields));
      // The maker's name never stands in the chained text as it is.
      expect(row.chained).not.toContain(JSON.stringify(a.userName).slice(1, -1));
      // Stored as its commitments alone, which give it back from the plain columns.
      expect(row.stored.chained!.startsWith('[[')).toBe(true);
      expect(withFullChained({ ...row.stored }).chained).toBe(row.chained);
    });
  }

  it('in a game, with the game fields', () => {
    const entry = ledgerEntry({
      userId: 'u7',
      userName: 'Ann',
      gameId: 'g1',
      turn: 3,
      phase: 'rally',
      gameSeq: 9,
      outcome: { steps: [{ effect: 'Ann wins' }] },
    });
    const row = nextRow(entry, undefined, '2026-12-04T00:00:00.000Z', saltOf);
    expect(row.chained).toBe(longWay(entry, row.fields));
    expect(row.chained).toContain('"game_seq":9');
  });
});

describe('commitments kept between rows', () => {
  const hmac = (key: string, text: string) => createHmac('sha256', key).update(text).digest('hex');

  it('are found by the salt itself: one id under two salts gives two commitments', () => {
    const a = commitTo('Ann', [{ salt_id: 'same-id', user_id: 'u1', salt: 'a'.repeat(64) }]);
    const b = commitTo('Ann', [{ salt_id: 'same-id', user_id: 'u1', salt: 'b'.repeat(64) }]);
    expect(a.erasable).toBe(hmac('a'.repeat(64), '"Ann"'));
    expect(b.erasable).toBe(hmac('b'.repeat(64), '"Ann"'));
  });

  it('are found by every salt apart: one salt "x,y" is not the two salts "x" and "y"', () => {
    const joined = commitTo('Bob', [{ salt_id: 'a', user_id: 'u1', salt: 'x,y' }]);
    const two = commitTo('Bob', [
      { salt_id: 'a', user_id: 'u1', salt: 'x' },
      { salt_id: 'b', user_id: 'u2', salt: 'y' },
    ]);
    expect(joined.erasable).toBe(hmac('x,y', '"Bob"'));
    expect(two.erasable).toBe(hmac('y', hmac('x', '"Bob"')));
  });

  it('open nothing under no salt: a value in place of its own HMAC is refused', () => {
    // Under no salt the "HMAC" is the value's own text: no commitment, so it differs from the value.
    expect(checkCommitted('Bob', { by: [], erasable: '"Bob"' }, new Map(), 'user_name')).toEqual({
      ok: false,
      why: 'user_name differs from the chained value',
    });
    expect(checkCommitted('Bob', { by: [], erasable: 'f'.repeat(64) }, new Map(), 'user_name')).toEqual({
      ok: false,
      why: 'user_name is committed under no salt',
    });
  });

  it('are found by the value: two values under one salt give two commitments', () => {
    const s = { salt_id: 'id', user_id: 'u1', salt: 'c'.repeat(64) };
    expect(commitTo('Ann', [s]).erasable).toBe(hmac('c'.repeat(64), '"Ann"'));
    expect(commitTo('Bea', [s]).erasable).toBe(hmac('c'.repeat(64), '"Bea"'));
  });
});

describe('sentences kept between replies', () => {
  it('are kept by language and by number', () => {
    expect(sayIn('en', { key: 'hot.r.markers', values: { n: 2 } })).toBe('2 disorder markers');
    expect(sayIn('de', { key: 'hot.r.markers', values: { n: 2 } })).toBe('2 Unordnungsmarker');
    expect(sayIn('en', { key: 'hot.r.markers', values: { n: 1 } })).toBe('1 disorder marker');
    expect(sayIn('fr', { key: 'hot.r.markers', values: { n: 1 } })).toBe('1 marqueur de désordre');
    expect(sayIn('en', { key: 'hot.r.markers', values: { n: 2 } })).toBe('2 disorder markers');
  });

  it('tell −0 from 0', () => {
    expect(sayIn('en', { key: 'hot.r.markers', values: { n: 0 } })).toBe('0 disorder markers');
    expect(sayIn('en', { key: 'hot.r.markers', values: { n: -0 } })).toBe('-0 disorder markers');
  });

  it('with text in them are said anew each time', () => {
    expect(sayIn('en', { key: 'hot.r.quality', values: { quality: 'militia' } })).toBe('militia');
    expect(sayIn('en', { key: 'hot.r.quality', values: { quality: 'elite' } })).toBe('elite');
  });
});
