import { describe, expect, it } from 'vitest';
import { expectContiguous } from '../helpers/tables.js';
import { fixedRoller } from '../../src/dice/roller.js';
import { RALLY_CHART } from '../../src/rules/hearts-of-tin/rally-chart.js';
import {
  commanderMayRejoin,
  commanderReroll,
  rally,
  rallyDistribution,
  rallyModifiers,
  rerollDistribution,
  type RallyInput,
} from '../../src/rules/hearts-of-tin/rally.js';

const base: RallyInput = { disorder: 1, quality: 'regular', band: false, enemyInSight: true, commanderNear: false };

describe('Hearts of Tin rally chart: every Final from the lowest reachable to the highest', () => {
  // [die, situation, Final, result]. The lowest Final is 1 − 1 (militia) − 9 (ten markers) = −9,
  // the highest 6 + 1 (no enemy) + 1 (elite) = 8. Each band boundary is on both sides.
  const militia10 = { quality: 'militia', disorder: 10 } as const;
  const cases: [number, Partial<RallyInput>, number, string][] = [
    [1, militia10, -9, 'rout'],
    [1, { disorder: 3 }, -1, 'rout'],
    [1, { disorder: 2 }, 0, 'rout'],
    [1, {}, 1, 'retreat'],
    [2, {}, 2, 'retreat'],
    [3, {}, 3, 'retreat'],
    [4, {}, 4, 'rally'],
    [5, {}, 5, 'rally'],
    [6, {}, 6, 'rally'],
    [6, { enemyInSight: false }, 7, 'huzzah'],
    [6, { enemyInSight: false, quality: 'elite' }, 8, 'huzzah'],
  ];
  it.each(cases)('die %i with %o → Final %i, %s', (die, change, final, code) => {
    const out = rally({ ...base, ...change }, fixedRoller([die]));
    const step = out.steps[0]!;
    expect(step.dice).toMatchObject([die]);
    expect(step.original).toBe(die);
    expect(step.final).toBe(final);
    expect(step.result).toBe(code);
    expect(out.result).toBe(code);
    expect(step.ref).toBe('Hearts of Tin, New Morale (a)(iii)');
  });

  it('the chart is contiguous and open-ended at both ends', () => {
    expectContiguous(RALLY_CHART);
  });
});

describe('rally modifiers', () => {
  const table: [string, Partial<RallyInput>, { reason: string; value: number }[]][] = [
    ['none for a regular unit with one marker and an enemy in sight', {}, []],
    ['+1 when no enemy is visible within 24"', { enemyInSight: false }, [{ reason: 'no enemy visible within 24"', value: 1 }]],
    ['+1 elite', { quality: 'elite' }, [{ reason: 'elite', value: 1 }]],
    ['+1 joined by a band', { band: true }, [{ reason: 'joined by a band', value: 1 }]],
    ['elite and a band give one +1, not two', { quality: 'elite', band: true }, [{ reason: 'elite and joined by a band (one +1 only)', value: 1 }]],
    ['−1 militia', { quality: 'militia' }, [{ reason: 'militia', value: -1 }]],
    ['−1 irregular', { quality: 'irregular' }, [{ reason: 'irregular', value: -1 }]],
    [
      'militia with a band: both apply',
      { quality: 'militia', band: true },
      [
        { reason: 'joined by a band', value: 1 },
        { reason: 'militia', value: -1 },
      ],
    ],
    ['−1 for the second marker', { disorder: 2 }, [{ reason: 'each extra disorder marker', value: -1 }]],
    ['−9 for ten markers', { disorder: 10 }, [{ reason: 'each extra disorder marker', value: -9 }]],
    [
      'all at once',
      { disorder: 3, quality: 'irregular', band: true, enemyInSight: false },
      [
        { reason: 'no enemy visible within 24"', value: 1 },
        { reason: 'joined by a band', value: 1 },
        { reason: 'irregular', value: -1 },
        { reason: 'each extra disorder marker', value: -2 },
      ],
    ],
  ];
  it.each(table)('%s', (_name, change, expected) => {
    expect(rallyModifiers({ ...base, ...change })).toMatchObject(expected);
  });

  it('applies the modifiers to the die: 5, militia, 3 markers, no enemy → 5−1−2+1 = 3, retreat', () => {
    const out = rally({ ...base, quality: 'militia', disorder: 3, enemyInSight: false }, fixedRoller([5]));
    expect(out.steps[0]).toMatchObject({ kind: 'rally', dice: [5], original: 5, final: 3, result: 'retreat', tone: 'bad' });
  });

  it('a commander near changes no modifier', () => {
    expect(rallyModifiers({ ...base, commanderNear: true, disorder: 2 })).toEqual(rallyModifiers({ ...base, disorder: 2 }));
  });
});

describe('commander re-roll', () => {
  const near = { ...base, commanderNear: true };
  it.each([
    ['huzzah', false],
    ['rally', false],
    ['retreat', true],
    ['rout', true],
  ])('after %s it is offered: %s', (result, offered) => {
    expect(commanderMayRejoin(near, result as string)).toBe(offered);
    expect(commanderMayRejoin(base, result as string)).toBe(false);
  });

  it('re-rolls once with the same modifiers, and the new result stands', () => {
    const input = { ...near, disorder: 2 };
    const out = commanderReroll(input, 'retreat', fixedRoller([6]));
    expect(out.steps).toHaveLength(1);
    expect(out.steps[0]).toMatchObject({ kind: 'commander_reroll', dice: [6], final: 5, result: 'rally' });
    expect(out.steps[0]!.modifiers).toEqual(rallyModifiers(input));
    expect(out.result).toBe('rally');
  });

  it('a rout on the re-roll loses the commander too', () => {
    const out = commanderReroll({ ...near, disorder: 3 }, 'rout', fixedRoller([2]));
    expect(out.steps[0]).toMatchObject({ final: 0, result: 'rout_commander_lost', tone: 'bad' });
  });

  it('a retreat on the re-roll is a plain retreat', () => {
    expect(commanderReroll(near, 'retreat', fixedRoller([3])).result).toBe('retreat');
  });

  it('is refused after a success, or without a commander near', () => {
    expect(() => commanderReroll(near, 'rally', fixedRoller([3]))).toThrow();
    expect(() => commanderReroll(base, 'retreat', fixedRoller([3]))).toThrow();
  });

  it('rolls exactly one die', () => {
    const dice = fixedRoller([4, 4]);
    commanderReroll(near, 'retreat', dice);
    expect(dice.remaining()).toBe(1);
  });
});

// Word for word (mutation testing found these effects and refusals unchecked).
describe('Hearts of Tin rally effects, word for word', () => {
  const near = { ...base, commanderNear: true };
  // disorder 2: Final = die − 1 (a 1 is a rout, Final 0).
  const two = { ...base, disorder: 2 };
  it('a first-roll rout with a commander near is not final yet; without one it is', () => {
    expect(rally({ ...two, commanderNear: true }, fixedRoller([1])).steps[0]).toMatchObject({
      result: 'rout',
      effect: 'The unit breaks: it leaves the field unless a commander joins it and the re-roll saves it (below).',
    });
    expect(rally(two, fixedRoller([1])).steps[0]).toMatchObject({ result: 'rout', effect: 'The unit breaks and flees the field: remove it.' });
  });

  it('a retreat keeps its disorder and says it must be ordered to rally again', () => {
    expect(rally(two, fixedRoller([3])).steps[0]!.effect).toBe(
      'The disorder stays. The unit must retreat a full move; it may end facing the enemy. It must be ordered to rally again the next time its brigade is activated.',
    );
    // A rally's own effect is the chart's.
    expect(rally(two, fixedRoller([6])).steps[0]!.effect).toBe(
      'All disorder is removed. The unit may fall back up to half a move still facing the enemy, or change facing or formation, or fire.',
    );
  });

  it('a rout on the re-roll: the commander is lost, word for word', () => {
    expect(commanderReroll({ ...near, disorder: 2 }, 'rout', fixedRoller([1])).steps[0]).toMatchObject({
      kind: 'commander_reroll',
      result: 'rout_commander_lost',
      effect: 'The unit breaks and flees the field, and the commander who joined it is lost with it: remove both.',
    });
  });

  it('refusals name the result and the missing commander', () => {
    expect(() => commanderReroll(near, 'rally', fixedRoller([3]))).toThrow(new Error('no commander re-roll after rally'));
    expect(() => commanderReroll(base, 'retreat', fixedRoller([3]))).toThrow(new Error('no commander re-roll after retreat without a commander near'));
  });

  it('the distributions: with and without taking the re-roll, and the re-roll on its own', () => {
    // disorder 2, commander near: rout on a 1 (1/6), retreat on 2–4 (1/2), rally on 5–6 (1/3).
    const input = { ...near, disorder: 2 };
    const f = (d: Map<string, { n: bigint; d: bigint }>) => Object.fromEntries([...d].map(([k, v]) => [k, `${v.n}/${v.d}`]));
    expect(f(rallyDistribution(input))).toMatchObject({ rout: '1/6', retreat: '1/2', rally: '1/3' });
    // Taking the re-roll after each failure (2/3 of the time): rally 1/3 + 2/3·1/3 = 5/9, retreat 2/3·1/2 = 1/3, lost 2/3·1/6 = 1/9.
    expect(f(rallyDistribution(input, true))).toMatchObject({ rally: '5/9', retreat: '1/3', rout_commander_lost: '1/9' });
    expect(f(rerollDistribution(input, 'retreat'))).toMatchObject({ rout_commander_lost: '1/6', retreat: '1/2', rally: '1/3' });
  });
});
