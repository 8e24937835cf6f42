import { describe, expect, it } from 'vitest';
import { storedCanonical } from '../../src/ledger/chain.js';
import { holdsAsText } from '../../src/ledger/committed-text.js';
import { nextRow } from '../../src/ledger/next-row.js';
import { commitTo, type PersonSalt } from '../../src/ledger/people.js';
import { ledgerEntry } from '../helpers/ledger.js';

// The walk's fast reading of a committed row: its plain text and its chained text side by side. It
// may only say "holds" when checkRow would; anything it cannot tell it leaves to checkRow.
const salt: PersonSalt = { salt_id: '0123456789abcdef01234567', user_id: 'u1', salt: 'ab'.repeat(32) };
const salts = new Map([[salt.salt_id, salt.salt]]);
const row = () => {
  const r = nextRow(
    ledgerEntry({ unit: 'Red “Devils”', input: { note: 'the ridge, says u1', n: 1e21 }, userName: 'Ann' }),
    undefined,
    '2026-12-04T00:00:00.000Z',
    () => salt,
  );
  return { plain: storedCanonical(r.stored as never), chained: r.chained! };
};

describe('a committed row read as text', () => {
  it('holds for the row as written, its commitments opened by their values', () => {
    const { plain, chained } = row();
    expect(chained).toContain('"erasable"');
    expect(holdsAsText(plain, chained, salts, new Map())).toBe(true);
  });

  it('cannot tell, and leaves to checkRow, an edited die, an edited name, a missing salt', () => {
    const { plain, chained } = row();
    expect(holdsAsText(plain.replace('"dice":[4]', '"dice":[6]'), chained, salts, new Map())).toBeUndefined();
    expect(holdsAsText(plain.replace('"Ann"', '"Bob"'), chained, salts, new Map())).toBeUndefined();
    expect(holdsAsText(plain, chained, new Map(), new Map())).toBeUndefined();
    // Blank where a value was (an erasure): checkRow decides whether its salt is gone.
    expect(holdsAsText(plain.replace('"user_name":"Ann"', '"user_name":""'), chained, salts, new Map())).toBeUndefined();
  });

  it('never takes a commitment outside a person field: dice committed and opened are still left to checkRow', () => {
    const { plain, chained } = row();
    const dice = commitTo([4], [salt]);
    const forged = chained.replace('"dice":[4]', `"dice":${JSON.stringify({ by: dice.by, erasable: dice.erasable })}`);
    expect(forged).not.toBe(chained);
    expect(holdsAsText(plain, forged, salts, new Map())).toBeUndefined();
  });
});
