import { describe, expect, it } from 'vitest';
import { brigadeMorale, disorderGained, type DisorderInput } from '../../src/rules/hearts-of-tin/disorder.js';

describe('Hearts of Tin disorder', () => {
  const cases: [DisorderInput, number, string][] = [
    [{ strength: 4, lost: 1, melee: 'none' }, 1, 'exactly 25% (1 of 4)'],
    [{ strength: 5, lost: 1, melee: 'none' }, 0, 'just under 25% (1 of 5)'],
    [{ strength: 8, lost: 2, melee: 'none' }, 1, 'exactly 25% (2 of 8)'],
    [{ strength: 9, lost: 2, melee: 'none' }, 0, 'just under (2 of 9)'],
    // All of it: gone from the field, not disordered (hearts-of-tin.md, State across a game).
    [{ strength: 4, lost: 4, melee: 'none' }, 0, 'all of it'],
    [{ strength: 4, lost: 0, melee: 'none' }, 0, 'no loss, no melee'],
    [{ strength: 6, lost: 0, melee: 'defeated' }, 1, 'defeated in melee'],
    [{ strength: 6, lost: 0, melee: 'pursued' }, 1, 'pursued after winning'],
    [{ strength: 4, lost: 1, melee: 'defeated' }, 2, 'heavy losses and defeated'],
    [{ strength: 4, lost: 1, melee: 'pursued' }, 2, 'heavy losses and pursued'],
  ];
  it.each(cases)('%o → %i marker(s): %s', (input, markers) => {
    const out = disorderGained(input);
    const step = out.steps[0]!;
    expect(step.markers).toBe(markers);
    expect(step.causes).toHaveLength(markers);
    expect(out.result).toBe(markers ? 'disorder' : input.lost >= input.strength ? 'gone' : 'no_disorder');
    expect(step.ref).toBe('Hearts of Tin, New Morale (a)(i)');
    if (markers) expect(step.effect).toContain('Rally order the next time its brigade is activated');
  });

  it('names each cause', () => {
    expect(disorderGained({ strength: 4, lost: 1, melee: 'defeated' }).steps[0]!.causes).toEqual([
      'lost 25% or more of its strength this turn (1 of 4)',
      'defeated in a melee',
    ]);
    expect(disorderGained({ strength: 4, lost: 0, melee: 'pursued' }).steps[0]!.causes).toEqual(['pursued after winning a melee']);
  });
});

describe('Hearts of Tin brigade morale', () => {
  it.each([
    [10, 5, 'shaken'],
    [10, 4, 'steady'],
    [9, 5, 'shaken'],
    [9, 4, 'steady'],
    [1, 1, 'shaken'],
    [1, 0, 'steady'],
    [24, 24, 'shaken'],
  ])('original %i, lost %i → %s', (original, lost, code) => {
    const out = brigadeMorale({ original, lost });
    expect(out.result).toBe(code);
    expect(out.steps[0]!.ref).toBe('Hearts of Tin, New Morale (a)(ii)');
  });

  it('says what shaken means at the end of every turn', () => {
    expect(brigadeMorale({ original: 10, lost: 5 }).steps[0]!.effect).toMatch(/end of every turn each of its units gains one disorder marker/);
  });
});
