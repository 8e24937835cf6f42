import { describe, expect, it } from 'vitest';
import { brigadeLosses, brigadeMorale, disorderGained, type DisorderInput } from '../../src/rules/hearts-of-tin/disorder.js';

describe('Hearts of Tin disorder', () => {
  const cases: [DisorderInput, number, string][] = [
    [{ strength: 4, lost: 1, melee: 'none' }, 1, 'exactly 25% (1 of 4)'],
    [{ strength: 5, lost: 1, melee: 'none' }, 0, 'just under 25% (1 of 5)'],
    [{ strength: 8, lost: 2, melee: 'none' }, 1, 'exactly 25% (2 of 8)'],
    [{ strength: 9, lost: 2, melee: 'none' }, 0, 'just under (2 of 9)'],
    // All of it: gone from the field, not disordered.
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
    expect(disorderGained({ strength: 4, lost: 1, melee: 'defeated' }).steps[0]!.causes).toMatchObject([
      'lost 25% or more of its strength this turn (1 of 4)',
      'defeated in a melee',
    ]);
    expect(disorderGained({ strength: 4, lost: 0, melee: 'pursued' }).steps[0]!.causes).toMatchObject(['pursued after winning a melee']);
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

// Whole outcomes, text included (mutation testing found the wording and the roster
// branches unchecked).
describe('Hearts of Tin disorder, whole outcomes', () => {
  const REF = 'Hearts of Tin, New Morale (a)(i)';
  const RALLY = 'It must be given a Rally order the next time its brigade is activated.';

  it('gone: every bit of strength lost this turn, earlier reports included', () => {
    expect(disorderGained({ strength: 6, lost: 2, lostEarlier: 4, melee: 'defeated' })).toMatchObject({
      system: 'hearts-of-tin',
      result: 'gone',
      tone: 'bad',
      steps: [
        {
          kind: 'disorder',
          result: 'gone',
          markers: 0,
          causes: [],
          label: 'Gone',
          effect: 'It has lost all 6 of its strength this turn: it is gone from the field, not disordered. Remove it.',
          tone: 'bad',
          ref: REF,
        },
      ],
    });
    // One short of all of it is not gone.
    expect(disorderGained({ strength: 6, lost: 1, lostEarlier: 4, melee: 'none' }).result).toBe('disorder');
  });

  it('losses reported in parts add up to the 25%, and the cause says which parts', () => {
    expect(disorderGained({ strength: 8, lost: 1, lostEarlier: 1, melee: 'none' })).toMatchObject({
      system: 'hearts-of-tin',
      result: 'disorder',
      tone: 'bad',
      steps: [
        {
          kind: 'disorder',
          result: 'disorder',
          markers: 1,
          causes: ['lost 25% or more of its strength this turn (2 of 8: 1 earlier this turn and 1 now)'],
          label: 'Gains 1 disorder marker',
          effect: `Add the marker to any it already has. ${RALLY}`,
          tone: 'bad',
          ref: REF,
        },
      ],
    });
  });

  it("the losses' marker once a turn: a second report past 25% says it was given, and gives none", () => {
    expect(disorderGained({ strength: 8, lost: 1, lostEarlier: 2, markedForLosses: true, melee: 'none' }).steps[0]).toMatchObject({
      kind: 'disorder',
      result: 'no_disorder',
      markers: 0,
      causes: [],
      label: 'No disorder',
      effect:
        "No cause of disorder applies this turn. It has lost 3 of 8: 2 earlier this turn and 1 now, but the marker for this turn's losses was already given.",
      tone: 'good',
      ref: REF,
    });
    // The melee still counts.
    expect(disorderGained({ strength: 8, lost: 2, markedForLosses: true, melee: 'pursued' }).steps[0]!.effect).toBe(
      `Add the marker to any it already has. ${RALLY} It has lost 2 of 8, but the marker for this turn's losses was already given.`,
    );
  });

  it('a roster unit: the reply says how many markers it has now, at most 10', () => {
    expect(disorderGained({ strength: 4, lost: 1, melee: 'defeated', markersBefore: 3 }).steps[0]).toMatchObject({
      label: 'Gains 2 disorder markers',
      effect: `Markers added on the roster: it now has 5. ${RALLY}`,
    });
    expect(disorderGained({ strength: 4, lost: 0, melee: 'defeated', markersBefore: 9 }).steps[0]!.effect).toBe(
      `Marker added on the roster: it now has 10. ${RALLY}`,
    );
    expect(disorderGained({ strength: 4, lost: 1, melee: 'defeated', markersBefore: 9 }).steps[0]!.effect).toBe(
      `Markers added on the roster: it now has 10. ${RALLY}`,
    );
    expect(disorderGained({ strength: 4, lost: 0, melee: 'none', markersBefore: 0 }).steps[0]!.effect).toBe('No cause of disorder applies this turn.');
  });
});

describe('Hearts of Tin brigade morale, whole outcomes and losses', () => {
  it('shaken and steady, word for word', () => {
    expect(brigadeMorale({ original: 10, lost: 5 })).toMatchObject({
      system: 'hearts-of-tin',
      result: 'shaken',
      tone: 'bad',
      steps: [
        {
          kind: 'brigade',
          result: 'shaken',
          label: 'Shaken',
          effect: 'It has lost 5 of 10, half or more. At the end of every turn each of its units gains one disorder marker. Shaken does not wear off.',
          tone: 'bad',
          ref: 'Hearts of Tin, New Morale (a)(ii)',
        },
      ],
    });
    expect(brigadeMorale({ original: 10, lost: 4 }).steps[0]).toMatchObject({
      label: 'Steady',
      tone: 'good',
      effect: 'It has lost 4 of 10, less than half: not shaken.',
    });
  });

  it('brigadeLosses: a removed unit lost all it had; others what they are down', () => {
    expect(brigadeLosses([])).toMatchObject({ original: 0, lost: 0, gone: 0 });
    expect(
      brigadeLosses([
        { original: 6, strength: 4, removed: false },
        { original: 5, strength: 5, removed: false },
        { original: 4, strength: 3, removed: true },
      ]),
    ).toMatchObject({ original: 15, lost: 6, gone: 1 });
  });
});
