import { describe, expect, it } from 'vitest';
import { expectContiguous } from '../helpers/tables.js';
import { fixedRoller } from '../../src/dice/roller.js';
import { MORALE_TABLE } from '../../src/rules/lightning-war/morale-table.js';
import { casualtyModifier, moraleCheck, moraleModifiers, parseCasualties, type MoraleInput } from '../../src/rules/lightning-war/morale.js';
import { isSaid } from '../../src/i18n/said.js';
import { sayIn } from '../../src/i18n/speak.js';

const base: MoraleInput = {
  morale: 'professional',
  casualties: undefined,
  cover: 'none',
  unitType: 'infantry',
  immobilized: false,
  nearKill: false,
  reserveMove: false,
  commander: false,
  rally: false,
  enemyWithin100m: false,
  reason: undefined,
};

/** Three dice that add up to `total` (3–18). */
function diceFor(total: number): number[] {
  const a = Math.min(6, total - 2);
  const b = Math.min(6, total - a - 1);
  return [a, b, total - a - b];
}

describe('Lightning War morale table: every row and boundary', () => {
  // Professional, no modifiers: Final = 3d6. Below 3 and above 18 come from modifiers.
  // [3d6 total, situation, Final written out by hand, result]
  const rows: [number, Partial<MoraleInput>, number, string][] = [
    [3, { morale: 'shaken', nearKill: true }, -4, 'eliminated'], // 3 − 4 − 3
    [3, { morale: 'leery' }, 1, 'eliminated'],
    [4, { morale: 'leery' }, 2, 'eliminated'],
    [3, {}, 3, 'rout'],
    [4, {}, 4, 'rout'],
    [5, {}, 5, 'retreat'],
    [6, {}, 6, 'fall_back'],
    [7, {}, 7, 'suppressed'],
    [8, {}, 8, 'suppressed'],
    [9, {}, 9, 'pinned'],
    [10, {}, 10, 'pinned'],
    [11, {}, 11, 'firm'],
    [18, {}, 18, 'firm'],
    [18, { morale: 'fanatic', cover: 'hard', commander: true }, 28, 'firm'],
  ];
  it.each(rows)('3d6 = %i with %o → Final %i, %s', (total, change, final, code) => {
    const dice = diceFor(total);
    const out = moraleCheck({ ...base, ...change }, fixedRoller(dice));
    const step = out.steps[0]!;
    expect(step.dice).toEqual(dice);
    expect(step.original).toBe(total);
    expect(step.final).toBe(final);
    expect(step.result).toBe(code);
    expect(step.table_result).toBe(code);
    expect(step.kind).toBe('morale');
    expect(step.ref).toBe('Lightning War, Morale Table');
  });

  it('the table is contiguous and open-ended', () => {
    expectContiguous(MORALE_TABLE);
  });

  it('rolls exactly three dice', () => {
    const dice = fixedRoller([1, 2, 3, 4]);
    moraleCheck(base, dice);
    expect(dice.remaining()).toBe(1);
  });
});

describe('modifiers, each alone', () => {
  const alone: [string, Partial<MoraleInput>, { reason: string; value: number }[]][] = [
    ['professional: none', {}, []],
    ['shaken −4', { morale: 'shaken' }, [{ reason: 'shaken morale', value: -4 }]],
    ['leery −2', { morale: 'leery' }, [{ reason: 'leery morale', value: -2 }]],
    ['resolved +2', { morale: 'resolved' }, [{ reason: 'resolved morale', value: 2 }]],
    ['fanatic +4', { morale: 'fanatic' }, [{ reason: 'fanatic morale', value: 4 }]],
    ['soft cover +2', { cover: 'soft' }, [{ reason: 'under soft cover', value: 2 }]],
    ['hard cover +4', { cover: 'hard' }, [{ reason: 'under hard cover', value: 4 }]],
    ['immobilized −2', { immobilized: true }, [{ reason: 'immobilized', value: -2 }]],
    ['near kill −3', { nearKill: true }, [{ reason: 'suffered a Near Kill this turn', value: -3 }]],
    ['reserve movement −2', { reserveMove: true }, [{ reason: 'using reserve movement', value: -2 }]],
    ['commander, infantry: 100 m', { commander: true }, [{ reason: 'company commander or higher visible within 100 m', value: 2 }]],
    [
      'commander, armored vehicle: 250 m',
      { commander: true, unitType: 'armored_vehicle' },
      [{ reason: 'company commander or higher visible within 250 m', value: 2 }],
    ],
    [
      'commander, soft vehicle: 250 m',
      { commander: true, unitType: 'soft_vehicle' },
      [{ reason: 'company commander or higher visible within 250 m', value: 2 }],
    ],
    ['rally +2', { rally: true }, [{ reason: 'rally attempt', value: 2 }]],
    ['casualties 2/5 −2', { casualties: { lost: 2, original: 5 } }, [{ reason: 'casualties over 20% up to 40% (2/5)', value: -2 }]],
    ['reason: no modifier', { reason: 'friendly_fire' }, []],
    ['enemy within 100 m: no modifier', { enemyWithin100m: true }, []],
  ];
  it.each(alone)('%s', (_n, change, expected) => {
    expect(moraleModifiers({ ...base, ...change })).toMatchObject(expected);
  });

  it('all cumulative in combination', () => {
    const input: MoraleInput = {
      ...base,
      morale: 'resolved',
      casualties: { lost: 3, original: 4 },
      cover: 'hard',
      immobilized: true,
      nearKill: true,
      reserveMove: true,
      commander: true,
      rally: true,
      unitType: 'armored_vehicle',
    };
    const mods = moraleModifiers(input);
    expect(mods.map((m) => m.value)).toMatchObject([2, -6, 4, -2, -3, -2, 2, 2]);
    const out = moraleCheck(input, fixedRoller([6, 6, 6]));
    expect(out.steps[0]!.final).toBe(18 - 3);
    expect(out.result).toBe('rallied');
  });
});

describe('casualties', () => {
  const bands: [number, number, number][] = [
    [0, 5, 0],
    [1, 5, 0],
    [1, 4, -2],
    [1, 3, -2],
    [2, 5, -2],
    [1, 2, -4],
    [3, 5, -4],
    [2, 3, -6],
    [3, 4, -6],
    [4, 5, -6],
    [5, 5, -6],
    [201, 1000, -2],
    [200, 1000, 0],
    [601, 1000, -6],
    [600, 1000, -4],
  ];
  it.each(bands)('%i/%i → %i', (lost, original, value) => {
    expect(casualtyModifier({ lost, original })?.value ?? 0).toBe(value);
  });

  it.each([
    ['2/5', { lost: 2, original: 5 }],
    [' 0 / 3 ', { lost: 0, original: 3 }],
    ['5/5', { lost: 5, original: 5 }],
    ['3/2', 'more lost than the original strength'],
    ['0/0', 'the original strength must be at least 1'],
    ['2/0', 'the original strength must be at least 1'],
    ['-1/4', 'losses cannot be negative'],
    ['abc', 'write it as lost/original, like 2/5'],
    ['2/5/7', 'write it as lost/original, like 2/5'],
    ['1.5/4', 'write it as lost/original, like 2/5'],
    ['', 'write it as lost/original, like 2/5'],
  ])('reads %j as %o', (text, expected) => {
    const read = parseCasualties(text);
    // A refusal is an identifier with its parameters; its English is what a player reads in English.
    expect(isSaid(read) ? sayIn('en', read) : read).toEqual(expected);
  });
});

describe('vehicles, rally and surrender', () => {
  it('pinned has no effect on an armored vehicle, but the code stays pinned', () => {
    const out = moraleCheck({ ...base, unitType: 'armored_vehicle' }, fixedRoller([3, 3, 3]));
    expect(out.steps[0]).toMatchObject({ result: 'pinned', tone: 'neutral', effect: 'Pinned has no effect on an armored vehicle: carry on.' });
  });

  it('pinned does apply to a soft vehicle and to infantry', () => {
    for (const unitType of ['soft_vehicle', 'infantry'] as const) {
      const out = moraleCheck({ ...base, unitType }, fixedRoller([3, 3, 4]));
      expect(out.steps[0]).toMatchObject({ result: 'pinned', tone: 'mixed', effect: 'It cannot move for one turn unless falling back.' });
    }
  });

  it.each([
    [11, 'firm', 'rallied'],
    [10, 'pinned', 'rally_failed'],
    [5, 'retreat', 'rally_failed'],
    [1, 'eliminated', 'rally_failed'],
  ])('a rally with Final %i (table: %s) → %s', (final, table, code) => {
    // +2 for the rally itself: 3d6 = Final − 2.
    const total = final - 2;
    const dice = total >= 3 ? diceFor(total) : [1, 1, 1];
    const change: Partial<MoraleInput> = total >= 3 ? { rally: true } : { rally: true, morale: 'shaken' };
    const out = moraleCheck({ ...base, ...change }, fixedRoller(dice));
    expect(out.steps[0]).toMatchObject({ kind: 'rally', final, table_result: table, result: code });
  });

  it('a rout with a visible enemy within 100 m is a surrender', () => {
    const out = moraleCheck({ ...base, enemyWithin100m: true }, fixedRoller([1, 1, 2]));
    expect(out.steps[0]).toMatchObject({ final: 4, table_result: 'rout', result: 'surrender', tone: 'bad' });
  });

  it('other results are not changed by a nearby enemy', () => {
    expect(moraleCheck({ ...base, enemyWithin100m: true }, fixedRoller([1, 2, 2])).result).toBe('retreat');
    expect(moraleCheck(base, fixedRoller([1, 1, 1])).result).toBe('rout');
    expect(moraleCheck({ ...base, enemyWithin100m: true, morale: 'leery' }, fixedRoller([1, 1, 1])).result).toBe('eliminated');
  });
});
