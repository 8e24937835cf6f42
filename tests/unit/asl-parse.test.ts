import { describe, expect, it } from 'vitest';
import { parseUnit, suggestUnits } from '../../src/rules/asl/parse-unit.js';
import { isSaid, type Said } from '../../src/i18n/said.js';
import { sayIn } from '../../src/i18n/speak.js';

/** What a player reads in English: a refusal's sentence, or the unit as read. */
const english = <T extends object>(v: T | Said) => (isSaid(v) ? sayIn('en', v) : v);

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
    if (isSaid(u)) throw new Error(sayIn('en', u));
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
    expect(english(parseUnit(text))).toMatch(message);
  });

  it('refuses a nationality that contradicts the option', () => {
    expect(english(parseUnit('German 4-6-7', { nationality: 'russian' }))).toMatch(/the unit says German but `nationality` is russian/);
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
    // Whatever the case, dashes or spacing the player types.
    expect(suggestUnits('  GE   4–6 ')).toEqual(['German 4-6-8', 'German SS 4-6-8', 'German 4-6-7']);
    expect(suggestUnits('German 4.6.7')).toEqual(['German 4-6-7']);
    expect(suggestUnits('finn 2-3-8')).toEqual(['Finnish 2-3-8 half-squad (1st Line)', 'Finnish 2-3-8 half-squad (Green)']);
    expect(suggestUnits('').length).toBe(25);
    // Every suggestion parses back to a unit.
    for (const s of suggestUnits('', 500)) expect(isSaid(parseUnit(s)), s).toBe(false);
  });
});

// Every refusal word for word, and the units built outside the data in full (mutation
// testing found the messages and the built units' fields unchecked).
describe('parseUnit refusals, word for word', () => {
  const NATS = 'german, russian, american, british, french, italian, japanese, finnish, axis_minor, allied_minor, partisan';
  it.each([
    ['German 4-6-7 and then 8-1', {}, '"German 4-6-7 and then 8-1" names more than one counter (4-6-7, 8-1): give one'],
    ['German 4-6-', {}, '"4-6-" is not a counter: write a squad as 4-6-7 and a leader as 8-1 or 6+1'],
    ['German 1st 4-6-7', { class: 'elite' }, 'the unit says first_line but `class` is elite'],
    ['Martian 4-6-7', {}, `"martian" is not a nationality the bot knows (${NATS})`],
    ['German Russian 4-6-7', {}, 'the unit names two nationalities (german, russian)'],
    ['squad', {}, 'name the nationality, in the unit ("German 4-6-7") or with `nationality`'],
    ['4-6-7', { nationality: 'martian' }, `"martian" is not a nationality the bot knows (${NATS})`],
    ['German', {}, 'give the counter, e.g. "German 4-6-7" for a squad or "German 8-1" for a leader'],
    // A name of the player's own, with no counter in it: how to write the counter.
    [
      'my squad',
      {},
      '"my squad" is not a counter the bot can read: write the unit as its counter, e.g. "German 4-6-7" for a squad or "German 8-1" for a leader',
    ],
    [
      'my squad',
      { nationality: 'russian', class: 'elite' },
      '"my squad" is not a counter the bot can read: write the unit as its counter, e.g. "Russian 4-6-7" for a squad or "Russian 8-1" for a leader (with `nationality` given, "4-6-7" is enough)',
    ],
    ['German 4-6-7 elite', {}, 'German 4-6-7 is 1st Line in the data, not Elite'],
    ['Finnish 2-3-8', {}, 'Finnish 2-3-8 is more than one unit in the data (1st Line half-squad, Green half-squad): add class:first_line or class:green'],
    [
      // Nearest by the sum of the three numbers' differences, own nationality first: 8-3-8 and SS 6-5-8 are
      // 8 away, 4-6-8 and SS 4-6-8 9, 5-4-8 10 (before 4-6-7, also 10, in the data's order). A leader never is.
      'German 9-9-9',
      {},
      'German 9-9-9 is not in the unit data. Closest known: German 8-3-8, German SS 6-5-8, German 4-6-8, German SS 4-6-8, German 5-4-8. To roll it anyway, give its `class`',
    ],
    // The sub-type is named: the plain German 4-6-7 is in the data, an SS one is not.
    [
      'ss 4-6-7',
      {},
      'German SS 4-6-7 is not in the unit data. Closest known: German 4-6-7, German 4-6-8, German SS 4-6-8, German 4-4-7, German SS 3-4-8 half-squad. To roll it anyway, give its `class`',
    ],
    ['japanese 4-4-7 reduced', {}, 'Japanese 4-4-7 is a full squad; its reduced side is Japanese 3-4-7 reduced squad'],
    ['German 4-6-7 reduced', {}, 'German 4-6-7 is a full squad with no reduced side in the data'],
    ['German 2-4-7 reduced', {}, 'German 2-4-7 is a half-squad with no reduced side in the data'],
  ] as const)('%j %o', (text, opts, message) => {
    expect(english(parseUnit(text, opts as never))).toBe(message);
  });
});

describe('parseUnit, whole units', () => {
  const plain = (text: string, opts = {}) => {
    const u = parseUnit(text, opts);
    if (isSaid(u)) throw new Error(sayIn('en', u));
    return { ...u, known: u.known?.name };
  };
  it.each([
    [
      'Russian Commissar',
      {},
      {
        name: 'Russian Commissar',
        nationality: 'russian',
        kind: 'leader',
        counter: undefined,
        class: undefined,
        ml: undefined,
        brokenMl: undefined,
        leadership: 0,
        tags: ['commissar'],
        known: undefined,
      },
    ],
    [
      'Russian Commissar 9-0',
      {},
      {
        name: 'Russian Commissar 9-0 leader',
        nationality: 'russian',
        kind: 'leader',
        counter: '9-0',
        class: undefined,
        ml: 9,
        brokenMl: 9,
        leadership: 0,
        tags: ['commissar'],
        known: undefined,
      },
    ],
    [
      'German crew',
      {},
      {
        name: 'German crew',
        nationality: 'german',
        kind: 'crew',
        counter: undefined,
        class: undefined,
        ml: undefined,
        brokenMl: undefined,
        leadership: undefined,
        tags: [],
        known: undefined,
      },
    ],
    [
      'crew 2-2-8',
      {},
      {
        name: 'Crew 2-2-8',
        nationality: '',
        kind: 'crew',
        counter: '2-2-8',
        class: undefined,
        ml: 8,
        brokenMl: 8,
        leadership: undefined,
        tags: [],
        known: undefined,
      },
    ],
    [
      'hero',
      {},
      {
        name: 'Hero',
        nationality: '',
        kind: 'hero',
        counter: undefined,
        class: undefined,
        ml: undefined,
        brokenMl: undefined,
        leadership: undefined,
        tags: [],
        known: undefined,
      },
    ],
    [
      'German hero 1-4-9',
      {},
      {
        name: 'German hero 1-4-9',
        nationality: 'german',
        kind: 'hero',
        counter: '1-4-9',
        class: undefined,
        ml: 9,
        brokenMl: 9,
        leadership: undefined,
        tags: [],
        known: undefined,
      },
    ],
    [
      'Gurkha 4-5-8',
      {},
      {
        name: 'British Gurkha 4-5-8',
        nationality: 'british',
        kind: 'squad',
        counter: '4-5-8',
        class: 'elite',
        ml: 8,
        brokenMl: 8,
        leadership: undefined,
        tags: ['gurkha'],
        known: 'British 4-5-8',
      },
    ],
    [
      'Japanese 7-0',
      {},
      {
        name: 'Japanese 7-0 leader',
        nationality: 'japanese',
        kind: 'leader',
        counter: '7-0',
        class: undefined,
        ml: 7,
        brokenMl: undefined,
        leadership: 0,
        tags: [],
        known: undefined,
      },
    ],
    [
      'German 7-1',
      {},
      {
        name: 'German 7-1 leader',
        nationality: 'german',
        kind: 'leader',
        counter: '7-1',
        class: undefined,
        ml: 7,
        brokenMl: 7,
        leadership: -1,
        tags: [],
        known: undefined,
      },
    ],
    [
      'Japanese 4-4-9',
      { class: 'elite' },
      {
        name: 'Japanese 4-4-9',
        nationality: 'japanese',
        kind: 'squad',
        counter: '4-4-9',
        class: 'elite',
        ml: 9,
        brokenMl: undefined,
        leadership: undefined,
        tags: [],
        known: undefined,
      },
    ],
    [
      'American 4-4-7',
      { class: 'green' },
      {
        name: 'American 4-4-7',
        nationality: 'american',
        kind: 'squad',
        counter: '4-4-7',
        class: 'green',
        ml: 7,
        // A pre-6/42 Army counter: it breaks to its own ML whatever class is given (G17.2).
        brokenMl: 7,
        leadership: undefined,
        tags: [],
        known: undefined,
      },
    ],
    [
      'ss 5-6-8',
      { class: 'elite' },
      {
        name: 'German SS 5-6-8',
        nationality: 'german',
        kind: 'squad',
        counter: '5-6-8',
        class: 'elite',
        ml: 8,
        brokenMl: 9,
        leadership: undefined,
        tags: ['ss'],
        known: undefined,
      },
    ],
    [
      'Russian 4-4-7',
      { tag: 'smg' },
      {
        name: 'Russian 4-4-7',
        nationality: 'russian',
        kind: 'squad',
        counter: '4-4-7',
        class: 'first_line',
        ml: 7,
        brokenMl: 7,
        leadership: undefined,
        tags: ['smg'],
        known: 'Russian 4-4-7',
      },
    ],
    [
      'German VG 2-3-7',
      {},
      {
        name: 'German VG 2-3-7 half-squad',
        nationality: 'german',
        kind: 'half_squad',
        counter: '2-3-7',
        class: 'second_line',
        ml: 7,
        brokenMl: 6,
        leadership: undefined,
        tags: ['volksgrenadier'],
        known: 'German VG 2-3-7 half-squad',
      },
    ],
  ] as const)('%j %o', (text, opts, unit) => {
    expect(plain(text, opts)).toEqual(unit);
  });

  it('without a sub-type word the plain unit is read, not the tagged one sharing its counter', () => {
    expect(plain('German 2-3-7').name).toBe('German 2-3-7 half-squad');
    expect(plain('Russian 5-2-7 smg').tags).toEqual(['smg']);
    expect(plain('japanese 2-2-6')).toMatchObject({ name: 'Japanese 2-2-6 reduced squad' });
  });
});

// What mutation testing found unread: separators a leader may be typed with, the trimmed
// text in a refusal, where each sub-type word goes, and which units the "closest" list may name.
describe('parseUnit: separators, sub-types and suggestions', () => {
  const nameOf = (text: string, opts = {}) => {
    const u = parseUnit(text, opts);
    return isSaid(u) ? sayIn('en', u) : { name: u.name, tags: u.tags };
  };
  it.each([
    ['German 9/1', { name: 'German 9-1 leader', tags: [] }],
    ['German 9–1', { name: 'German 9-1 leader', tags: [] }],
    ['German 9−2', { name: 'German 9-2 leader', tags: [] }],
    ['British Gurkha 4-5-8', { name: 'British Gurkha 4-5-8', tags: ['gurkha'] }],
    ['Gurkha 4-5-8', { name: 'British Gurkha 4-5-8', tags: ['gurkha'] }],
    ['gurkha crew', { name: 'British Gurkha crew', tags: ['gurkha'] }],
    ['Russian 9-1 commissar', { name: 'Russian Commissar 9-1 leader', tags: ['commissar'] }],
    ['Russian Commissar', { name: 'Russian Commissar', tags: ['commissar'] }],
    ['SS 6-5-8', { name: 'German SS 6-5-8', tags: ['ss'] }],
  ])('%j', (text, expected) => expect(nameOf(text)).toEqual(expected));

  it('a sub-type given as an option describes (Gurkha, Commissar) or narrows (SS) as the word would', () => {
    expect(nameOf('British 4-5-8', { tag: 'gurkha' })).toEqual({ name: 'British Gurkha 4-5-8', tags: ['gurkha'] });
    expect(nameOf('Russian 9-1', { tag: 'commissar' })).toEqual({ name: 'Russian Commissar 9-1 leader', tags: ['commissar'] });
    // SS on a counter the data has only plain: allowed, and carried as a tag.
    expect(nameOf('German 4-6-7', { tag: 'ss' })).toEqual({ name: 'German 4-6-7', tags: ['ss'] });
  });

  it('a refusal quotes the text as typed, trimmed', () => {
    expect(english(parseUnit('  German 4-6-7 and 8-1  '))).toBe('"German 4-6-7 and 8-1" names more than one counter (4-6-7, 8-1): give one');
  });

  it('the closest units never include a leader, even one nearer by the numbers', () => {
    // Partisan 9-1 leader would be 3 away from 9-1-1; the squads and half-squads are 11–15 away, German 8-3-8 110.
    expect(english(parseUnit('Partisan 9-1-1'))).toBe(
      'Partisan 9-1-1 is not in the unit data. Closest known: Partisan 5-2-7, Partisan 3-3-7, Partisan 2-2-7 half-squad, Partisan 1-2-7 half-squad, German 8-3-8. To roll it anyway, give its `class`',
    );
  });

  it('a counter with no nationality lists the units that carry it', () => {
    expect(english(parseUnit('8-1'))).toBe(
      '8-1 names no nationality: did you mean German 8-1 leader, Russian 8-1 leader, American 8-1 leader, British 8-1 leader, French 8-1 leader, Italian 8-1 leader, Axis Minor 8-1 leader, Allied Minor 8-1 leader, Partisan 8-1 leader? Put the nationality in the unit or give `nationality`',
    );
  });
});
