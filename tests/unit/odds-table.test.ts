import { describe, expect, it } from 'vitest';
import { fraction } from '../../src/rules/odds.js';
import { oddsTable, PHONE_COLUMNS } from '../../src/render/odds.js';

// The odds table on a phone: a result name of up to 20 characters keeps its row; one
// past it goes on a line of its own with its figures under the column.
describe('the odds table', () => {
  const p = fraction(1n, 6n);
  it('keeps a 20-character name on its row and moves a 21-character one above its figures', () => {
    const twenty = 'a'.repeat(20);
    const twentyOne = 'b'.repeat(21);
    expect(oddsTable([{ result: twenty, p }]).split('\n')).toEqual([`result${' '.repeat(14)}  chance       %`, `${twenty}     1/6   16.7%`]);
    expect(
      oddsTable([
        { result: twenty, p },
        { result: twentyOne, p },
      ]).split('\n'),
    ).toEqual([`result${' '.repeat(14)}  chance       %`, `${twenty}     1/6   16.7%`, twentyOne, `${' '.repeat(20)}     1/6   16.7%`]);
  });

  it('is as narrow as its names when they are short, and never past the phone’s columns', () => {
    const rows = [
      { result: 'Rally', p: fraction(1n, 2n) },
      { result: 'Rout', p: fraction(1n, 2n) },
    ];
    expect(oddsTable(rows).split('\n')).toEqual(['result  chance       %', 'Rally      1/2   50.0%', 'Rout       1/2   50.0%']);
    for (const line of oddsTable([{ result: 'x'.repeat(20), p: fraction(1n, 1679616n) }]).split('\n')) expect(line.length).toBeLessThanOrEqual(PHONE_COLUMNS);
  });
});
