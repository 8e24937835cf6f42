import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { type Catalog, catalog, DEFAULT_UNITS_FILE, derivedBrokenMl, hardensToFanatic, loadCatalog, unitName } from '../../src/rules/asl/catalog.js';
import { tmpDir } from '../helpers/tmp.js';

// The catalog's own logic (mutation testing found it reached by few tests): naming, the
// derived broken ML, the Fanatic rule, the ladders it links, and every refusal of a bad units file.
// Loaded afresh for every test, not the cached catalog(): a test then exercises the loader itself.
let cat: Catalog;
beforeEach(() => {
  cat = loadCatalog(DEFAULT_UNITS_FILE);
});
const byName = (name: string) => cat.units.find((u) => u.name === name);
const data = () => JSON.parse(fs.readFileSync(DEFAULT_UNITS_FILE, 'utf8'));
function loadEdited(edit: (d: any) => void) {
  const d = data();
  edit(d);
  const file = path.join(tmpDir(), 'units.json');
  fs.writeFileSync(file, JSON.stringify(d));
  return () => loadCatalog(file);
}

describe('unit names', () => {
  it.each([
    [{ nationality: 'german', counter: '6-5-8', tags: ['ss'] }, 'German SS 6-5-8'],
    [{ nationality: 'russian', counter: '6-2-8', tags: ['nkvd'] }, 'Russian NKVD 6-2-8'],
    [{ nationality: 'german', counter: '5-3-7', tags: ['volksgrenadier'] }, 'German VG 5-3-7'],
    [{ nationality: 'american', counter: '7-6-8', tags: ['usmc'] }, 'American USMC 7-6-8'],
    [{ nationality: 'russian', counter: '5-2-7', tags: ['smg'] }, 'Russian 5-2-7'],
    [{ nationality: 'martian', counter: '4-4-7', tags: [] }, 'martian 4-4-7'],
  ])('%o → %s', (u, name) => {
    expect(unitName(cat.nationalities, u)).toBe(name);
  });

  it('sizes and sides name themselves; twins in the data are told apart by Class', () => {
    expect(byName('German 4-6-7')).toMatchObject({ size: 'squad', ml: 7, class: 'first_line' });
    expect(byName('German 2-4-7 half-squad')).toMatchObject({ size: 'half_squad', ml: 7 });
    expect(byName('German 9-2 leader')).toMatchObject({ size: 'leader', ml: 9, leadership: -2, brokenMl: 9, class: undefined });
    expect(byName('German 6+1 leader')).toMatchObject({ leadership: 1, ml: 6 });
    expect(cat.units.filter((u) => u.reduced).every((u) => u.name.endsWith(' reduced squad'))).toBe(true);
    expect(cat.units.some((u) => u.reduced)).toBe(true);
    const finnishHs = cat.units.filter((u) => u.nationality === 'finnish' && u.counter === '2-3-8' && u.size === 'half_squad').map((u) => u.name);
    expect(finnishHs.sort()).toEqual(['Finnish 2-3-8 half-squad (1st Line)', 'Finnish 2-3-8 half-squad (Green)'].sort());
  });

  it('a fresh load reads the same units as the cached catalog', () => {
    expect(cat.units.map((u) => u.name)).toEqual(catalog().units.map((u) => u.name));
  });

  it("the data's flags and the nationalities' defaults are read as written", () => {
    expect(byName('German 8-3-8')).toMatchObject({ underscored: true, elr: 5, reduced: false });
    expect(byName('German 4-6-7')).toMatchObject({ underscored: false, elr: undefined, reduced: false, tags: [] });
    expect(byName('German 3-3-8 half-squad')).toMatchObject({ underscored: true, elr: 5 });
    expect(cat.nationalities.get('german')!.brokenMlByClass).toEqual({});
    expect(cat.nationalities.get('american')!.brokenMlByClass).toEqual({ green: 1, second_line: 1, first_line: 2, elite: 1 });
    for (const n of cat.nationalities.values()) for (const a of n.aliases) expect(a).toBe(a.toLowerCase());
  });

  it('every name is unique', () => {
    const names = cat.units.map((u) => u.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('links between units', () => {
  it('leader ladders run up and down; the best leader hardens to Fanatic; Japanese leaders have no broken side', () => {
    const l80 = byName('German 8-0 leader')!;
    expect(l80.up).toBe(byName('German 8-1 leader'));
    expect(l80.down).toBe(byName('German 7-0 leader'));
    expect(byName('German 6+1 leader')!.down).toBeUndefined();
    expect(byName('German 10-3 leader')!.up).toBe('fanatic');
    expect(byName('Japanese 10-2 leader')!.up).toBe('fanatic');
    expect(byName('Japanese 9-1 leader')!.brokenMl).toBeUndefined();
    expect(byName('Finnish 10-1 leader')!.up).toBe('fanatic');
  });

  it('a squad links its half-squad, its step up and down; a half-squad follows its squad', () => {
    const s = byName('German 4-6-7')!;
    expect(s.half).toBe(byName('German 2-4-7 half-squad'));
    expect(s.up).toBe(byName('German 4-6-8'));
    expect(s.down).toBe(byName('German 4-4-7'));
    expect(s.half!.up).toBe((s.up as typeof s).half);
    expect(s.half!.down).toBe(s.down!.half);
    // Fanatic at the top, for the squad and its half-squad.
    expect(byName('German SS 6-5-8')!.up).toBe('fanatic');
    expect(byName('German SS 6-5-8')!.half!.up).toBe('fanatic');
  });

  it("a reduced side climbs and falls along its full squad's ladder (G1.12, A19.13)", () => {
    const r347 = byName('Japanese 3-4-7 reduced squad')!;
    expect(r347.up).toBe(byName('Japanese 3-4-8 reduced squad'));
    expect(r347.down).toBe(byName('Japanese 2-3-7 reduced squad'));
    expect(byName('Japanese 3-4-8 reduced squad')!.up).toBe('fanatic');
    expect(byName('Japanese 2-3-7 reduced squad')!.down).toBe(byName('Japanese 2-2-6 reduced squad'));
  });

  it('leaders carry no tags and no underscore', () => {
    for (const u of cat.units.filter((x) => x.size === 'leader'))
      expect({ tags: u.tags, underscored: u.underscored, reduced: u.reduced }).toEqual({ tags: [], underscored: false, reduced: false });
  });

  it('a Japanese squad and its reduced side flip into each other and share a half-squad', () => {
    const full = cat.units.find((u) => u.nationality === 'japanese' && u.size === 'squad' && !u.reduced && u.flip)!;
    expect(full.flip!.flip).toBe(full);
    expect(full.flip!.reduced).toBe(true);
    expect(full.flip!.half).toBe(full.half);
    expect(full.brokenMl).toBeUndefined();
    if (full.up && full.up !== 'fanatic') expect(full.flip!.up).toBe(full.up.flip);
  });
});

describe('derivedBrokenMl', () => {
  it.each([
    ['german', 'first_line', [], 7, 7],
    ['american', 'first_line', [], 6, 8],
    ['american', 'green', [], 6, 7],
    ['french', 'elite', [], 8, 7],
    ['german', 'elite', ['ss'], 8, 9],
    ['russian', 'second_line', ['nkvd'], 8, 9],
    ['american', 'first_line', ['ss'], 9, 10],
    ['italian', 'conscript', [], 1, 1],
    ['german', undefined, ['ss', 'nkvd'], 9, 10],
    ['martian', 'elite', [], 7, 7],
    // Allied Minor −1, except Polish elite and 1st Line: their own ML.
    ['allied_minor', 'second_line', [], 7, 6],
    ['allied_minor', 'elite', [], 8, 7],
    ['allied_minor', 'elite', ['polish'], 8, 8],
    ['allied_minor', 'first_line', ['polish'], 7, 7],
    ['allied_minor', 'second_line', ['polish'], 7, 6],
    ['allied_minor', 'conscript', ['polish'], 6, 5],
  ] as const)('%s %s %o ML %i → broken %i', (nat, cls, tags, ml, broken) => {
    expect(derivedBrokenMl(cat, { nationality: nat, class: cls, tags, ml })).toBe(broken);
  });

  // Pre-6/42 US Army counters break to their own ML (G17.2); the post-6/42 ones keep +1/+2.
  it.each([
    ['4-4-7', 'second_line', 7, 7],
    ['3-3-6', 'green', 6, 6],
    ['5-4-6', 'second_line', 6, 7],
    ['6-6-6', 'first_line', 6, 8],
  ] as const)('American %s (%s, ML %i) → broken %i', (counter, cls, ml, broken) => {
    expect(derivedBrokenMl(cat, { nationality: 'american', class: cls, tags: [], ml, counter })).toBe(broken);
  });

  it('clamps to 1 at the bottom', () => {
    expect(derivedBrokenMl({ ...cat, tagBrokenMl: { shaky: -5 } }, { nationality: 'german', class: 'green', tags: ['shaky'], ml: 3 })).toBe(1);
  });
});

describe('hardensToFanatic', () => {
  it.each([
    ['german', 'elite', [], true],
    ['german', 'first_line', [], false],
    ['partisan', 'green', [], true],
    ['russian', 'second_line', ['nkvd'], true],
    ['german', 'second_line', ['volksgrenadier'], true],
    ['axis_minor', 'first_line', ['smg'], true],
    ['russian', 'first_line', ['smg'], false],
    ['finnish', 'first_line', [], true],
    ['finnish', 'green', [], false],
    ['finnish', undefined, [], false],
    ['german', undefined, [], false],
  ] as const)('%s %s %o → %s', (nat, cls, tags, fanatic) => {
    expect(hardensToFanatic(cat.fanatic, nat, cls, tags)).toBe(fanatic);
  });
});

describe('a bad units file stops start-up, naming what is wrong', () => {
  it('a schema error names the path of the bad entry', () => {
    const load = loadEdited((d) => {
      d.squads[0].ml = 11;
    });
    expect(load).toThrow(/^ASL units file .*units\.json: squads\.0\.ml: /);
  });

  it.each([
    [
      'an unknown leader ladder',
      (d: any) => {
        d.nationalities.german.leaders = 'nowhere';
      },
      'ASL units file: german uses unknown leader ladder nowhere',
    ],
    [
      'an unknown nationality',
      (d: any) => {
        d.squads[0].nationality = 'martian';
      },
      'ASL units file: unknown nationality martian',
    ],
    [
      'an ML that is not the last number',
      (d: any) => {
        d.squads[0].ml = 7;
      },
      'ASL units file: german 8-3-8 has ML 7, not its last number',
    ],
    [
      'a shared half-squad with two broken MLs',
      (d: any) => {
        // A second German squad of the same Class sharing 4-6-7's half-squad, with another broken ML.
        const base = d.squads.find((s: any) => s.nationality === 'german' && s.squad === '4-6-7');
        d.squads.push({ ...base, squad: '4-5-7', up: undefined, down: undefined, half_squad_broken_ml: base.half_squad_broken_ml + 1 });
      },
      'ASL units file: german 2-4-7 half-squad has two broken MLs',
    ],
    [
      'a step up to a squad not in the data',
      (d: any) => {
        d.squads.find((s: any) => s.nationality === 'german' && s.squad === '4-6-7').up = '9-9-9';
      },
      'ASL units file: german 4-6-7 names 9-9-9, which is not a german squad',
    ],
    [
      'a step down to a tagged squad not in the data',
      (d: any) => {
        d.squads.find((s: any) => s.nationality === 'german' && s.squad === '4-6-7').down = '4-4-7 ss';
      },
      'ASL units file: german 4-6-7 names 4-4-7 ss, which is not a german squad',
    ],
  ])('%s', (_what, edit, message) => {
    expect(loadEdited(edit)).toThrow(message);
  });

  it('two squads of one Class share one half-squad unit when its broken ML agrees', () => {
    const c = loadEdited((d) => {
      const base = d.squads.find((s: any) => s.nationality === 'german' && s.squad === '4-6-7');
      d.squads.push({ ...base, squad: '4-5-7', up: undefined, down: undefined });
    })();
    const a = c.units.find((u) => u.name === 'German 4-6-7')!;
    const b = c.units.find((u) => u.name === 'German 4-5-7')!;
    expect(a.half).toBe(b.half);
    expect(c.units.filter((u) => u.name === 'German 2-4-7 half-squad')).toHaveLength(1);
  });

  it('a tagged step names the tagged squad where two share a counter', () => {
    const c = loadEdited((d) => {
      d.squads.find((s: any) => s.nationality === 'german' && s.squad === '4-6-7').up = '6-5-8 ss';
    })();
    expect(c.units.find((u) => u.name === 'German 4-6-7')!.up).toBe(c.units.find((u) => u.name === 'German SS 6-5-8'));
  });
});
