import { describe, expect, it } from 'vitest';
import { fixedRoller } from '../../src/dice/roller.js';
import { heatOfBattle, hobExemption, hobModifiers, hobStep, HOB_STATUS_CODES, subTypeConflict, type HobStep } from '../../src/rules/asl/hob.js';
import { HOB_BANDS } from '../../src/rules/asl/hob-table.js';
import { dr, hobBase, unit } from '../helpers/asl.js';
import { expectContiguous } from '../helpers/tables.js';
import { sayIn } from '../../src/i18n/speak.js';
import type { Said } from '../../src/i18n/said.js';

const english = (s: Said | undefined) => (s ? sayIn('en', s) : s);

const ge467 = unit('German 4-6-7');
const roll = (input: ReturnType<typeof hobBase>, total: number) => hobStep(input, fixedRoller(dr(total)));

describe('Heat of Battle DRM (A15.1)', () => {
  const rows: [string, ReturnType<typeof hobBase>, [string, number][]][] = [
    ['German 1st Line: none', hobBase(ge467), []],
    ['elite −1', hobBase(unit('German 4-6-8')), [['elite', -1]]],
    ['a leader counts as elite', hobBase(unit('German 8-1')), [['leader (counts as elite)', -1]]],
    ['British −1', hobBase(unit('British 4-5-7')), [['British', -1]]],
    [
      'elite British −2',
      hobBase(unit('British 4-5-8')),
      [
        ['elite', -1],
        ['British', -1],
      ],
    ],
    ['Finnish −1', hobBase(unit('Finnish 4-4-7')), [['Finnish', -1]]],
    ['broken +1', hobBase(ge467, { broken: true }), [['broken when the Original 2 was rolled', 1]]],
    ['Conscript +1', hobBase(unit('German 4-3-6')), [['inexperienced (Conscript)', 1]]],
    ['Conscript with a leader still +1', hobBase(unit('German 4-3-6'), { withLeader: true }), [['inexperienced (Conscript)', 1]]],
    ['Green without a leader +1', hobBase(unit('American 5-3-6')), [['inexperienced (Green, no unbroken leader stacked with it)', 1]]],
    ['Green with an unbroken leader: not inexperienced', hobBase(unit('American 5-3-6'), { withLeader: true }), []],
    ['French +1', hobBase(unit('French 4-5-7')), [['French', 1]]],
    ['Partisan +1 (instead of a nationality)', hobBase(unit('Partisan 3-3-7')), [['Partisan', 1]]],
    ['Russian +2', hobBase(unit('Russian 4-4-7')), [['Russian', 2]]],
    ['Allied Minor +2', hobBase(unit('Allied Minor 4-4-7', { class: 'first_line' })), [['Allied Minor', 2]]],
    ['Italian +3', hobBase(unit('Italian 3-4-6')), [['Italian', 3]]],
    ['Axis Minor +3', hobBase(unit('Axis Minor 3-4-7')), [['Axis Minor', 3]]],
    [
      'Japanese +4 (elite −1)',
      hobBase(unit('Japanese 4-4-8')),
      [
        ['elite', -1],
        ['Japanese', 4],
      ],
    ],
    // NKVD are 2nd Line (A25.25): Russian +2 and NKVD −1, no elite −1 — net +1.
    [
      'NKVD −1 on top of Russian +2, no elite −1 (A25.25)',
      hobBase(unit('NKVD 6-2-8')),
      [
        ['Russian', 2],
        ['NKVD', -1],
      ],
    ],
    ['American 0', hobBase(unit('American 6-6-6')), []],
    [
      'everything at once: broken Russian Conscript',
      hobBase(unit('Russian 4-2-6'), { broken: true }),
      [
        ['Russian', 2],
        ['broken when the Original 2 was rolled', 1],
        ['inexperienced (Conscript)', 1],
      ],
    ],
  ];
  it.each(rows)('%s', (_n, input, expected) => {
    expect(hobModifiers(input).map((m) => [m.reason, m.value])).toEqual(expected);
  });

  it('no leadership DRM ever applies', () => {
    expect(hobModifiers(hobBase(ge467, { withLeader: true }))).toMatchObject([]);
  });
});

describe('Heat of Battle bands (A15) and their boundaries', () => {
  it('the band table is contiguous', () => expectContiguous(HOB_BANDS));

  // German 4-6-7, no DRM: Final = Original. Below 2 and above 12 come from DRM.
  const cases: [number, string][] = [
    [2, 'hero'],
    [4, 'hero'],
    [5, 'hero_and_battle_hardening'],
    [6, 'hero_and_battle_hardening'],
    [7, 'battle_hardening'],
    [8, 'battle_hardening'],
    [9, 'berserk'],
    [11, 'berserk'],
    [12, 'surrender'],
  ];
  it.each(cases)('Final %i → band %s', (total, band) => {
    const s = roll(hobBase(ge467, { enemyAdjacent: true }), total);
    expect(s.final).toBe(total);
    expect(s.band).toBe(band);
    expect(s.result).toBe(band);
    expect(s.overrides).toMatchObject([]);
  });

  it('Final below 2 (elite British) is still hero; above 12 (Japanese) still the top band', () => {
    expect(roll(hobBase(unit('British 4-5-8')), 2)).toMatchObject({ final: 0, band: 'hero' });
    expect(roll(hobBase(unit('Japanese 3-3-6'), { enemyAdjacent: true }), 12)).toMatchObject({ final: 17, band: 'surrender', result: 'berserk' });
  });

  it('the coloured die comes first and both are kept', () => {
    const s = hobStep(hobBase(ge467), fixedRoller([5, 1]));
    expect(s.dice).toMatchObject([5, 1]);
    expect(s.original).toBe(6);
  });
});

describe('overrides, in order', () => {
  it('non-elite Italian: 9 is berserk, 10 is surrender (boundary 9/10)', () => {
    // Italian 3-4-6 has +3: Original 6 → 9, Original 7 → 10.
    const it9 = roll(hobBase(unit('Italian 3-4-6'), { enemyAdjacent: true }), 6);
    expect(it9).toMatchObject({ final: 9, band: 'berserk', result: 'berserk', overrides: [] });
    const it10 = roll(hobBase(unit('Italian 3-4-6'), { enemyAdjacent: true }), 7);
    expect(it10).toMatchObject({ final: 10, band: 'berserk', result: 'surrender', overrides: ['minor_surrender'] });
  });

  it('non-elite Axis Minor too; elite Italian and an Italian leader are not affected', () => {
    expect(roll(hobBase(unit('Axis Minor 3-4-7'), { enemyAdjacent: true }), 7)).toMatchObject({
      final: 10,
      result: 'surrender',
      overrides: ['minor_surrender'],
    });
    expect(roll(hobBase(unit('Italian 4-4-7'), { enemyAdjacent: true }), 8)).toMatchObject({ final: 10, result: 'berserk', overrides: [] });
    expect(roll(hobBase(unit('Italian 8-1'), { enemyAdjacent: true }), 8)).toMatchObject({ final: 10, result: 'berserk', overrides: [] });
  });

  it('when the band is already surrender the minor rule changes nothing', () => {
    expect(roll(hobBase(unit('Italian 3-4-6'), { enemyAdjacent: true }), 10)).toMatchObject({ final: 13, result: 'surrender', overrides: [] });
  });

  it.each([
    ['Japanese', hobBase(unit('Japanese 4-4-7'), { enemyAdjacent: true })],
    ['Gurkha', hobBase(unit('British 4-5-7'), { subType: 'gurkha', enemyAdjacent: true, broken: true })],
    ['Partisan', hobBase(unit('Partisan 3-3-7'), { enemyAdjacent: true })],
    ['Fanatic', hobBase(ge467, { fanatic: true, enemyAdjacent: true })],
    ['Commissar', hobBase(unit('Russian 9-1'), { subType: 'commissar', enemyAdjacent: true })],
    ['SS fighting Russians', hobBase(unit('SS 6-5-8'), { vsRussians: true, enemyAdjacent: true, broken: true })],
    ['No Quarter', hobBase(ge467, { noQuarter: true, enemyAdjacent: true })],
  ])('%s never surrenders: surrender becomes berserk', (why, input) => {
    const s = hobStep(input, fixedRoller([6, 6]));
    expect(s.band).toBe('surrender');
    expect(s.result).toBe('berserk');
    expect(s.overrides).toMatchObject(['never_surrender']);
    expect(s.effect).toContain(`(${why})`);
  });

  it('SS not fighting Russians surrenders as usual', () => {
    expect(hobStep(hobBase(unit('SS 6-5-8'), { enemyAdjacent: true }), fixedRoller([6, 6]))).toMatchObject({ final: 11, result: 'berserk' });
    expect(hobStep(hobBase(unit('SS 6-5-8'), { enemyAdjacent: true, broken: true }), fixedRoller([6, 6]))).toMatchObject({
      final: 12,
      result: 'surrender',
      overrides: [],
    });
  });

  it('berserk with no Known enemy in LOS becomes battle hardening', () => {
    expect(roll(hobBase(ge467, { enemyInLos: false }), 10)).toMatchObject({ band: 'berserk', result: 'battle_hardening', overrides: ['no_enemy_in_los'] });
  });

  it('surrender with no ADJACENT enemy becomes disrupted', () => {
    const s = roll(hobBase(ge467), 12);
    expect(s).toMatchObject({ band: 'surrender', result: 'disrupted', overrides: ['no_adjacent_enemy'] });
    expect(s.effect).toContain('Disrupted');
  });

  it('surrender with an ADJACENT enemy: broken, Disrupted, surrendered', () => {
    expect(roll(hobBase(ge467, { enemyAdjacent: true }), 12).effect).toContain('surrenders to the ADJACENT enemy unit');
  });

  it('order: Italian surrender (1) → never surrenders (2) → no enemy in LOS (3)', () => {
    // A Fanatic Italian 3-4-6 rolling 7 (Final 10) with no enemy in LOS.
    const s = roll(hobBase(unit('Italian 3-4-6'), { fanatic: true, enemyInLos: false }), 7);
    expect(s.overrides).toMatchObject(['minor_surrender', 'never_surrender', 'no_enemy_in_los']);
    expect(s.result).toBe('battle_hardening');
  });

  it('order: never surrenders (2) is applied before disrupted (4)', () => {
    const s = roll(hobBase(unit('Japanese 4-4-7')), 12);
    expect(s.overrides).toMatchObject(['never_surrender']);
    expect(s.result).toBe('berserk');
  });

  it('order: Italian surrender (1) then disrupted (4) without an adjacent enemy', () => {
    expect(roll(hobBase(unit('Italian 3-4-6')), 7)).toMatchObject({ result: 'disrupted', overrides: ['minor_surrender', 'no_adjacent_enemy'] });
  });
});

describe('effects spelled out', () => {
  it('hero for an MMC: a 1-4-9 of its nationality, the MMC unchanged', () => {
    const s = roll(hobBase(unit('Russian 4-4-7')), 2);
    expect(s.result).toBe('hero');
    expect(s.effect).toContain('A Russian 1-4-9 hero (wounded side 1-3-8)');
    expect(s.effect).toContain('the unit itself is unchanged');
    expect(s.unit_after).toBeUndefined();
  });

  it('hero for a leader: he becomes heroic', () => {
    expect(roll(hobBase(unit('German 8-1')), 5).effect).toContain('The leader becomes heroic');
  });

  it('hero and battle hardening: both, with the substitution', () => {
    const s = roll(hobBase(ge467), 5);
    expect(s).toMatchObject({ result: 'hero_and_battle_hardening', unit_before: 'German 4-6-7', unit_after: 'German 4-6-8', refusable: true });
    expect(s.effect).toContain('1-4-9 hero');
  });

  it("berserk spells out the charge; a leader adds his companions' NTC", () => {
    expect(roll(hobBase(ge467), 10).effect).toContain('must charge the nearest Known enemy unit in its LOS with 8 MF');
    expect(roll(hobBase(unit('German 9-1')), 10).effect).toContain('takes an NTC modified by his leadership');
  });

  it("a berserk leader's companions take NTCs modified by his leadership", () => {
    const out = heatOfBattle(hobBase(unit('German 9-2')), fixedRoller([6, 6, 4, 3, 6, 3]), [
      { unit: ge467, broken: false },
      { unit: unit('German 4-4-7'), broken: true },
      { unit: unit('German crew'), broken: false },
    ]);
    expect(out.result).toBe('berserk'); // 12 − 1 (leader) = 11
    expect(out.steps.map((s) => [s.kind, s.final, s.result])).toMatchObject([
      ['hob', 11, 'berserk'],
      ['ntc', 5, 'berserk'], // 4+3−2 ≤ 7
      ['ntc', 7, 'berserk'], // 6+3−2 = 7 ≤ 7
    ]);
    const ntc = out.steps[2] as unknown as { unit: string; ml: number };
    expect(ntc).toMatchObject({ unit: 'German 4-4-7', ml: 7 });
  });

  it('an NTC above the ML changes nothing', () => {
    const out = heatOfBattle(hobBase(unit('German 8-0')), fixedRoller([6, 5, 6, 6]), [{ unit: ge467, broken: false }]);
    expect(out.steps[0]!.final).toBe(10);
    expect(out.steps[1]).toMatchObject({ kind: 'ntc', final: 12, result: 'no_change' });
  });
});

describe('exemptions (A15.1): the reason, nothing rolled', () => {
  it.each([
    ['German crew', 'crews, inherent or temporary'],
    ['German hero 1-4-9', 'heroes'],
    ['Russian cavalry', 'cavalry'],
    ['American unarmed', 'unarmed units'],
    ['British rider', 'passengers, riders and vehicle crews'],
  ])('%s', (text, reason) => {
    expect(english(hobExemption(hobBase(unit(text))))).toContain(reason);
  });

  // The reasons are written here, not read back from the table under test.
  it.each([
    ['human_wave', 'units taking part in a Human Wave are not subject to Heat of Battle'],
    ['climbing', 'climbing units are not subject to Heat of Battle'],
    ['swimming', 'swimming units are not subject to Heat of Battle'],
    ['wading', 'wading units are not subject to Heat of Battle'],
    ['boat', 'units in boats are not subject to Heat of Battle'],
    ['parachute', 'units on parachute counters are not subject to Heat of Battle'],
    ['berserk', 'units already berserk are not subject to Heat of Battle'],
  ] as const)('status %s', (status, reason) => {
    expect(english(hobExemption(hobBase(ge467, { status })))).toBe(reason);
  });

  it('every status but none is an exemption listed above', () => {
    expect([...HOB_STATUS_CODES].sort()).toMatchObject(['berserk', 'boat', 'climbing', 'human_wave', 'none', 'parachute', 'swimming', 'wading']);
  });

  it('a heroic leader', () => {
    expect(english(hobExemption(hobBase(unit('German 9-1'), { heroic: true })))).toContain('heroes');
  });

  it('rolling an exempt unit is refused before any die', () => {
    const dice = fixedRoller([3, 3]);
    expect(() => hobStep(hobBase(unit('German crew')), dice)).toThrow(/no Heat of Battle/);
    expect(dice.remaining()).toBe(2);
  });
});

describe('sub-types belong to their nationality', () => {
  it.each([
    ['ss', 'Russian 4-4-7', /ss is German/],
    ['nkvd', 'German 4-6-7', /nkvd is Russian/],
    ['gurkha', 'German 4-6-7', /gurkha is British/],
    ['volksgrenadier', 'Russian 4-4-7', /volksgrenadier is German/],
    ['commissar', 'Russian 4-4-7', /commissar is a leader/],
  ] as const)('%s on %s is refused', (subType, text, message) => {
    expect(sayIn('en', subTypeConflict(unit(text), subType)!)).toMatch(message);
  });
  it('fits where it belongs', () => {
    expect(subTypeConflict(unit('Russian 9-1'), 'commissar')).toBeUndefined();
    expect(subTypeConflict(ge467, 'ss')).toBeUndefined();
  });
});

describe('Fanatic (A15.3, A10.8)', () => {
  it.each([
    ['an elite MMC', 'German 4-6-8'],
    ['an elite half-squad', 'German 2-4-8'],
    ['the best leader', 'German 10-3'],
    ['a Partisan', 'Partisan 5-2-7'],
    ['an NKVD MMC', 'NKVD 6-2-8'],
    ['a Volksgrenadier', 'VG 5-3-7'],
    ['a Finnish 1st Line MMC', 'Finnish 5-4-8'],
    ['a Finnish 1st Line half-squad', 'Finnish 2-4-8'],
    ['an unknown elite unit', 'German 7-7-8'],
  ])('battle hardening makes %s Fanatic', (_n, text) => {
    const u = text === 'German 7-7-8' ? unit(text, { class: 'elite' }) : unit(text);
    const input = hobBase(u, { enemyAdjacent: true });
    // Original chosen so that the Final is 8, whatever the unit's DRM.
    const s = roll(input, 8 - hobModifiers(input).reduce((a, m) => a + m.value, 0));
    expect(s.final).toBe(8);
    expect(s.result).toBe('battle_hardening');
    expect(s.fanatic).toBe(true);
    expect(s.unit_after).toBeUndefined();
    expect(s.effect).toContain('+1 to both its Morale Levels');
  });

  it('an already Fanatic unit gains nothing more', () => {
    const s = roll(hobBase(unit('German 4-6-8'), { fanatic: true }), 8);
    expect(s.result).toBe('battle_hardening');
    expect(s.fanatic).toBeUndefined();
    expect(s.refusable).toBeUndefined();
    expect(s.effect).toContain('already Fanatic');
  });

  it('a Fanatic non-elite unit is still substituted', () => {
    expect(roll(hobBase(ge467, { fanatic: true }), 7)).toMatchObject({ unit_before: 'German 4-6-7', unit_after: 'German 4-6-8' });
  });
});

describe('units not in the data', () => {
  it('roll with nationality and class, and name the next higher class of the same size', () => {
    const s = roll(hobBase(unit('Allied Minor 4-4-7', { class: 'second_line' })), 6) as HobStep;
    expect(s.final).toBe(8);
    expect(s.result).toBe('battle_hardening');
    expect(s.unit_before).toBe('Allied Minor 4-4-7');
    expect(s.effect).toContain('an unbroken, unpinned 1st Line unit of the same size (the next higher class)');
  });
});

// Every Heat of Battle reading, word for word with its tone and roster fields (mutation
// testing found tones, the refusable flag and several effect texts unchecked). A field a row leaves
// out must be absent. [what, input, dice, reading]
describe('Heat of Battle readings, word for word', () => {
  const HERO = "A German 1-4-9 hero (wounded side 1-3-8) is created in the unit's Location with its fire and movement status; the unit itself";
  const BERSERK =
    'Berserk: its ML becomes 10, it rallies if broken, loses any CX, TI, concealment and pin, never gets a leadership DRM, and in its MPh must charge the nearest Known enemy unit in its LOS with 8 MF (A15.4).';
  const reading = (s: object) => {
    const { result, label, effect, tone, ref, overrides, unit_before, unit_after, refusable, fanatic } = s as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries({ result, label, effect, tone, ref, overrides, unit_before, unit_after, refusable, fanatic }).filter(([, v]) => v !== undefined),
    );
  };
  it.each([
    ['hero', hobBase(ge467), [1, 1], { result: 'hero', label: 'Hero', effect: `${HERO} is unchanged (A15.2).`, tone: 'good', overrides: [] }],
    [
      'hero and Battle Hardening: the next counter up, refusable',
      hobBase(ge467),
      [2, 3],
      {
        result: 'hero_and_battle_hardening',
        label: 'Hero and Battle Hardening',
        effect: `${HERO} is also battle hardened (below) (A15.2).\nBattle hardened: replace German 4-6-7 with an unbroken, unpinned German 4-6-8. Its owner may refuse this. (A15.3)`,
        tone: 'good',
        overrides: [],
        unit_before: 'German 4-6-7',
        unit_after: 'German 4-6-8',
        refusable: true,
      },
    ],
    [
      'Battle Hardening of a unit outside the data: the next class, described',
      hobBase(unit('German 5-5-7', { class: 'second_line' })),
      [3, 4],
      {
        result: 'battle_hardening',
        label: 'Battle Hardening',
        effect:
          'Battle hardened: replace it with an unbroken, unpinned 1st Line unit of the same size (the next higher class); no number of its strength factor may drop, and of two candidates take the one that gains least. Its owner may refuse this. (A15.3)',
        tone: 'good',
        overrides: [],
        unit_before: 'German 5-5-7',
        refusable: true,
      },
    ],
    [
      'Battle Hardening of an elite unit: Fanatic, refusable',
      hobBase(unit('German 4-6-8')),
      [4, 5],
      {
        result: 'battle_hardening',
        label: 'Battle Hardening',
        effect:
          'Battle hardening makes it Fanatic instead: +1 to both its Morale Levels (at most 10), for the rest of the game. Its owner may refuse this. (A15.3, A10.8)',
        tone: 'good',
        overrides: [],
        fanatic: true,
        refusable: true,
      },
    ],
    [
      'Battle Hardening of a unit already Fanatic: no effect',
      hobBase(unit('German 4-6-8'), { fanatic: true }),
      [4, 5],
      {
        result: 'battle_hardening',
        label: 'Battle Hardening',
        effect: 'It is already Fanatic: a further Battle Hardening result has no effect (A15.3).',
        tone: 'neutral',
        overrides: [],
      },
    ],
    [
      'Battle Hardening of a Commissar: unchanged',
      hobBase(unit('Russian 9-1'), { subType: 'commissar' }),
      [3, 3],
      {
        result: 'battle_hardening',
        label: 'Battle Hardening',
        effect: 'A Commissar is never substituted (A25.221): Battle Hardening leaves him unchanged.',
        tone: 'neutral',
        overrides: [],
      },
    ],
    ['berserk', hobBase(ge467), [4, 5], { result: 'berserk', label: 'Berserk', effect: BERSERK, tone: 'mixed', overrides: [] }],
    [
      'a berserk leader: his companions take NTCs',
      hobBase(unit('German 8-1')),
      [5, 6],
      {
        result: 'berserk',
        label: 'Berserk',
        effect: `${BERSERK} Every other HoB-eligible friendly unit in his Location takes an NTC modified by his leadership; then he loses his leadership DRM until he returns to normal (A15.41).`,
        tone: 'mixed',
        overrides: [],
      },
    ],
    [
      'a berserk Commissar: his companions go berserk at once',
      hobBase(unit('Russian 9-1'), { subType: 'commissar' }),
      [4, 4],
      {
        result: 'berserk',
        label: 'Berserk',
        effect:
          'Berserk: its ML becomes 10 and it must charge the nearest Known enemy unit in its LOS (A15.4). Every friendly Infantry unit in his Location that is subject to Heat of Battle goes berserk at once, with no NTC (A25.223).',
        tone: 'mixed',
        overrides: [],
      },
    ],
    [
      'surrender to an ADJACENT enemy',
      hobBase(ge467, { enemyAdjacent: true }),
      [6, 6],
      {
        result: 'surrender',
        label: 'Surrender',
        effect: 'It becomes broken (if not already) and Disrupted, and surrenders to the ADJACENT enemy unit by the RtPh method (A15.5, A20.21).',
        tone: 'bad',
        overrides: [],
      },
    ],
    [
      'no ADJACENT enemy: Disrupted instead',
      hobBase(ge467),
      [6, 6],
      {
        result: 'disrupted',
        label: 'Disrupted',
        effect:
          'Override: no Known, Good Order, armed enemy Infantry/Cavalry ADJACENT: Disrupted instead of surrendering (A15.5, A19.12).\nNo Known enemy is ADJACENT, so it does not surrender: it becomes broken (if not already) and Disrupted (A15.5, A19.12).',
        tone: 'bad',
        overrides: ['no_adjacent_enemy'],
      },
    ],
    [
      'a unit that never surrenders says why',
      hobBase(ge467, { fanatic: true, enemyAdjacent: true }),
      [6, 6],
      {
        result: 'berserk',
        label: 'Berserk',
        effect: `Override: never surrenders: Surrender becomes Berserk (A15.5) (Fanatic).\n${BERSERK}`,
        tone: 'mixed',
        overrides: ['never_surrender'],
      },
    ],
    [
      'berserk with no Known enemy in LOS: Battle Hardening, the override named and no reason added',
      hobBase(ge467, { enemyInLos: false }),
      [4, 5],
      {
        result: 'battle_hardening',
        label: 'Battle Hardening',
        effect:
          'Override: no Known enemy unit in LOS: Berserk becomes Battle Hardening (A15.44).\nBattle hardened: replace German 4-6-7 with an unbroken, unpinned German 4-6-8. Its owner may refuse this. (A15.3)',
        tone: 'good',
        overrides: ['no_enemy_in_los'],
        unit_before: 'German 4-6-7',
        unit_after: 'German 4-6-8',
        refusable: true,
      },
    ],
    [
      'Battle Hardening with no Known enemy in LOS stays Battle Hardening, no override',
      hobBase(ge467, { enemyInLos: false }),
      [3, 4],
      {
        result: 'battle_hardening',
        label: 'Battle Hardening',
        effect: 'Battle hardened: replace German 4-6-7 with an unbroken, unpinned German 4-6-8. Its owner may refuse this. (A15.3)',
        tone: 'good',
        overrides: [],
        unit_before: 'German 4-6-7',
        unit_after: 'German 4-6-8',
        refusable: true,
      },
    ],
  ] as const)('%s', (_what, input, dice, expected) => {
    expect(reading(hobStep(input, fixedRoller([...dice])))).toMatchObject({ ref: 'A15.1', ...expected });
  });

  it('a nationality with no Heat of Battle DRM adds no row for it; one with a DRM adds exactly its own', () => {
    expect(hobModifiers(hobBase(ge467))).toMatchObject([]);
    expect(hobModifiers(hobBase(unit('Russian 4-4-7')))).toMatchObject([{ reason: 'Russian', value: 2 }]);
  });

  it("a berserk leader's companions: each NTC word for word, exempt companions skipped, ML 7 when a counter has none", () => {
    const leader = unit('German 8-1');
    const companions = [
      { unit: ge467, broken: false },
      { unit: unit('German 4-4-7'), broken: true },
      { unit: unit('German crew 2-2-8'), broken: false },
      { unit: unit('German 5-5-7', { class: 'first_line' }), broken: false },
    ];
    const out = heatOfBattle(hobBase(leader), fixedRoller([5, 6, 4, 4, 5, 4, 6, 3]), companions);
    expect(out.steps.slice(1)).toMatchObject([
      {
        kind: 'ntc',
        unit: 'German 4-6-7',
        ml: 7,
        dice: [4, 4],
        original: 8,
        modifiers: [{ reason: 'leadership of the berserk German 8-1 leader', value: -1 }],
        final: 7,
        result: 'berserk',
        label: 'German 4-6-7: berserk',
        effect: 'Final 7 ≤ ML 7: it goes berserk too.',
        tone: 'mixed',
        ref: 'A15.41',
      },
      {
        kind: 'ntc',
        unit: 'German 4-4-7',
        ml: 7,
        dice: [5, 4],
        original: 9,
        modifiers: [{ reason: 'leadership of the berserk German 8-1 leader', value: -1 }],
        final: 8,
        result: 'no_change',
        label: 'German 4-4-7: no change',
        effect: 'Final 8 > ML 7: its status does not change.',
        tone: 'neutral',
        ref: 'A15.41',
      },
      {
        kind: 'ntc',
        unit: 'German 5-5-7',
        ml: 7,
        dice: [6, 3],
        original: 9,
        modifiers: [{ reason: 'leadership of the berserk German 8-1 leader', value: -1 }],
        final: 8,
        result: 'no_change',
        label: 'German 5-5-7: no change',
        effect: 'Final 8 > ML 7: its status does not change.',
        tone: 'neutral',
        ref: 'A15.41',
      },
    ]);
    // A squad that goes berserk, or a leader who does not, brings no NTCs.
    expect(heatOfBattle(hobBase(ge467), fixedRoller([4, 5]), companions).steps).toHaveLength(1);
    expect(heatOfBattle(hobBase(leader), fixedRoller([1, 1]), companions).steps).toHaveLength(1);
  });

  it("a berserk Commissar's companions go berserk with no dice", () => {
    const out = heatOfBattle(hobBase(unit('Russian 9-1'), { subType: 'commissar' }), fixedRoller([6, 6]), [{ unit: unit('Russian 4-4-7'), broken: true }]);
    expect(out.steps[1]).toMatchObject({
      kind: 'ntc',
      unit: 'Russian 4-4-7',
      ml: 7,
      dice: [],
      original: 0,
      modifiers: [],
      final: 0,
      result: 'berserk',
      label: 'Russian 4-4-7: berserk',
      effect: 'The Commissar went berserk: it goes berserk too, with no NTC.',
      tone: 'mixed',
      ref: 'A25.223',
    });
  });
});
