import { describe, expect, it } from 'vitest';
import { parseUnit, suggestUnits } from '../../src/rules/asl/parse-unit.js';

describe('ASL unit parsing: spellings players use', () => {
  const spellings: [string, string, string][] = [
    ['German 4-6-7', 'German 4-6-7', 'squad'],
    ['german 4-6-7', 'German 4-6-7', 'squad'],
    ['GERMAN 467', 'German 4-6-7', 'squad'],
    ['ge 467', 'German 4-6-7', 'squad'],
    ['Ger 4 6 7', 'German 4-6-7', 'squad'],
    ['de 4–6–7', 'German 4-6-7', 'squad'],
    ['4-6-7 German', 'German 4-6-7', 'squad'],
    ['German 4-6-7 squad', 'German 4-6-7', 'squad'],
    ['Russian 2-2-7', 'Russian 2-2-7 half-squad', 'half_squad'],
    ['ru 227 hs', 'Russian 2-2-7 half-squad', 'half_squad'],
    ['Soviet 4-4-7', 'Russian 4-4-7', 'squad'],
    ['British 8-1', 'British 8-1 leader', 'leader'],
    ['brit 8-1 leader', 'British 8-1 leader', 'leader'],
    ['UK 9 - 2', 'British 9-2 leader', 'leader'],
    ['German 6+1', 'German 6+1 leader', 'leader'],
    ['Italian 3-4-6', 'Italian 3-4-6', 'squad'],
    ['ita 346', 'Italian 3-4-6', 'squad'],
    ['Japanese 4-4-8', 'Japanese 4-4-8', 'squad'],
    ['jap 448', 'Japanese 4-4-8', 'squad'],
    ['US 6-6-6', 'American 6-6-6', 'squad'],
    ['american 7-4-7', 'American 7-4-7', 'squad'],
    ['SS 6-5-8', 'German SS 6-5-8', 'squad'],
    ['German SS 3-4-8', 'German SS 3-4-8 half-squad', 'half_squad'],
    ['NKVD 6-2-8', 'Russian NKVD 6-2-8', 'squad'],
    ['Russian 6-2-8', 'Russian 6-2-8', 'squad'],
    ['VG 5-3-7', 'German VG 5-3-7', 'squad'],
    ['German 2-3-7', 'German 2-3-7 half-squad', 'half_squad'],
    ['Finn 5-4-8', 'Finnish 5-4-8', 'squad'],
    ['Finnish 2-3-8 half-squad (green)', 'Finnish 2-3-8 half-squad (Green)', 'half_squad'],
    ['Axis Minor 3-3-6', 'Axis Minor 3-3-6', 'squad'],
    ['axis_minor 3-4-7', 'Axis Minor 3-4-7', 'squad'],
    ['hungarian 4-4-7', 'Axis Minor 4-4-7', 'squad'],
    ['Partisan 3-3-7', 'Partisan 3-3-7', 'squad'],
    ['French 4-5-7', 'French 4-5-7', 'squad'],
    ['Japanese 10-0', 'Japanese 10-0 leader', 'leader'],
  ];
  it.each(spellings)('%j → %s', (text, name, kind) => {
    const u = parseUnit(text);
    if (typeof u === 'string') throw new Error(u);
    expect(u.name).toBe(name);
    expect(u.kind).toBe(kind);
  });

  it('takes the nationality from the option when the text has none', () => {
    expect(parseUnit('4-6-7', { nationality: 'german' })).toMatchObject({ name: 'German 4-6-7' });
    expect(parseUnit('8-1', { nationality: 'russian' })).toMatchObject({ name: 'Russian 8-1 leader', leadership: -1 });
  });

  it.each([
    ['German crew', 'crew'],
    ['German crew 2-2-8', 'crew'],
    ['British hero', 'hero'],
    ['Russian cavalry', 'cavalry'],
    ['US unarmed', 'unarmed'],
    ['German passengers', 'prc'],
  ])('reads the exempt kind in %j', (text, kind) => {
    expect(parseUnit(text)).toMatchObject({ kind });
  });

  it.each([
    ['4-6-7', /4-6-7 names no nationality: did you mean German 4-6-7, Russian 4-6-7|names no nationality: did you mean German 4-6-7/],
    ['German', /give the counter/],
    ['Klingon 4-6-7', /"klingon" is not a nationality the bot knows/],
    ['German 4-6-7x', /"x" is not a nationality/],
    ['German 12-3', /is not a counter/],
    ['German 5-5-7', /not in the unit data. Closest known: .*German 4-4-7.*give its `class`/],
    ['Finnish 2-3-8', /more than one unit in the data .*class:first_line or class:green/],
    ['German 4-6-7 green', /German 4-6-7 is 1st Line in the data, not Green/],
  ])('refuses %j clearly', (text, message) => {
    expect(parseUnit(text)).toMatch(message);
  });

  it('refuses a nationality that contradicts the option', () => {
    expect(parseUnit('German 4-6-7', { nationality: 'russian' })).toMatch(/the unit says German but `nationality` is russian/);
  });

  it('rolls a unit not in the data when its class is given', () => {
    expect(parseUnit('Allied Minor 4-4-7', { class: 'second_line' })).toMatchObject({
      name: 'Allied Minor 4-4-7',
      class: 'second_line',
      ml: 7,
      known: undefined,
    });
  });

  it('suggests units for autocomplete', () => {
    expect(suggestUnits('ge 46')).toEqual(['German 4-6-8', 'German SS 4-6-8', 'German 4-6-7']);
    expect(suggestUnits('finn 2-3-8')).toEqual(['Finnish 2-3-8 half-squad (1st Line)', 'Finnish 2-3-8 half-squad (Green)']);
    expect(suggestUnits('').length).toBe(25);
    // Every suggestion parses back to a unit.
    for (const s of suggestUnits('', 500)) expect(typeof parseUnit(s)).toBe('object');
  });
});
