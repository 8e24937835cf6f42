import { describe, expect, it } from 'vitest';
import { fixedRoller } from '../../src/dice/roller.js';
import { diceFor, NO_DR_SETTINGS, rollDr, type DrCategory, type DrSettings } from '../../src/rules/asl/dr.js';

// /dr: every row of the notes table, the SAN and booby-trap flags at every level,
// and which categories are drs. Dice pinned (coloured first, then white); notes written out here.

const roll = (category: DrCategory, dice: number[], settings: DrSettings = NO_DR_SETTINGS, drm = 0) =>
  rollDr({ category, dice: dice.length === 1 ? 'dr' : 'DR', drm, settings }, fixedRoller(dice));
const notes = (category: DrCategory, dice: number[], settings?: DrSettings) => roll(category, dice, settings).notes;

describe('the notes table', () => {
  it.each([
    // To Hit: Turret when coloured < white, else Hull; 1,1 Unlikely and Critical Hit; doubles Multiple Hits
    ['TH', [2, 5], ['Turret']],
    ['TH', [5, 2], ['Hull']],
    ['TH', [3, 3], ['Hull', 'Multiple Hits 15–40mm (C3.8)']],
    ['TH', [1, 1], ['Hull', 'Unlikely Hit (C3.6)', 'Critical Hit (C3.7)', 'Multiple Hits 15–40mm (C3.8)']],
    ['TH', [6, 6], ['Hull', 'Multiple Hits 15–40mm (C3.8)']],
    ['TH', [1, 2], ['Turret']],
    // To Kill: only a 6,6 Dud
    ['TK', [6, 6], ['Dud (C7.35)']],
    ['TK', [1, 1], []],
    ['TK', [6, 5], []],
    // IFT: doubles Cower, 1,1 Unlikely Kill as well
    ['IFT', [4, 4], ['Cower if MMC without a leader (A7.9)']],
    ['IFT', [1, 1], ['Cower if MMC without a leader (A7.9)', 'Unlikely Kill vs * (A7.309)']],
    ['IFT', [1, 2], []],
    // MC, Rally and CC at 1,1 and 6,6
    ['MC', [1, 1], ['Heat of Battle (A15.1)']],
    ['MC', [6, 6], ['Casualty MC (A10.31)']],
    ['MC', [3, 3], []],
    ['Rally', [1, 1], ['Heat of Battle (A15.1) or Field Promotion (A18.11)']],
    ['Rally', [6, 6], ['Fate: Casualty Reduction (A10.64)']],
    ['Rally', [2, 2], []],
    ['CC', [1, 1], ['Infiltration (A11.22), Field Promotion (A18.12), Unlikely Kill (A11.501)']],
    ['CC', [6, 6], ['Infiltration (A11.22)']],
    ['CC', [5, 5], []],
    // TC and other: no table notes
    ['TC', [1, 1], []],
    ['other', [6, 6], []],
    // a Sniper Attack dr: VASL's notes on a 1 and a 2 (A14.3), none from 3 up
    [
      'SA',
      [1],
      [
        'Sniper attack: eliminates an SMC, a Dummy stack or a Sniper; stuns and recalls a CE crew; breaks an MMC or a vehicle’s inherent crew; immobilizes an unarmored vehicle (A14.3)',
      ],
    ],
    ['SA', [2], ['Sniper attack: eliminates a Dummy stack; wounds an SMC; stuns a CE crew; pins an MMC, a vehicle’s inherent crew or a Sniper (A14.3)']],
    ['SA', [3], []],
    ['SA', [6], []],
    // any other dr has none
    ['RS', [1], []],
    ['RS', [6], []],
    ['other', [1], []],
    ['other', [2], []],
  ] as const)('%s %j → %j', (category, dice, expected) => {
    expect(notes(category, [...dice])).toEqual(expected);
  });
});

const san = (axis: number, allied: number): DrSettings => ({ ...NO_DR_SETTINGS, san: { axis, allied } });
const traps = (axis: 'none' | 'A' | 'B' | 'C', allied: 'none' | 'A' | 'B' | 'C'): DrSettings => ({ ...NO_DR_SETTINGS, boobyTraps: { axis, allied } });

describe('SAN (A14)', () => {
  it.each([
    ['IFT', [3, 4], san(7, 3), ['Axis SAN']],
    ['IFT', [1, 2], san(7, 3), ['Allied SAN']],
    ['TH', [2, 5], san(7, 7), ['Turret', 'Axis/Allied SAN']],
    ['MC', [3, 4], san(7, 3), ['Axis SAN']],
    ['TC', [3, 4], san(7, 3), ['Axis SAN']],
    ['other', [5, 2], san(7, 0), ['Axis SAN']],
    // TK, CC and Rally never flag a SAN
    ['TK', [3, 4], san(7, 7), []],
    ['CC', [3, 4], san(7, 7), []],
    ['Rally', [3, 4], san(7, 7), []],
    // a SAN of 0 is none; a dr is never a SAN
    ['IFT', [1, 1], san(0, 0), ['Cower if MMC without a leader (A7.9)', 'Unlikely Kill vs * (A7.309)']],
    ['SA', [3], san(3, 3), []],
    ['IFT', [4, 4], san(7, 3), ['Cower if MMC without a leader (A7.9)']],
  ] as const)('%s %j', (category, dice, settings, expected) => {
    expect(notes(category, [...dice], settings)).toEqual(expected);
  });
});

describe('booby traps (B28.9): a TC DR of 12 springs C, 11 B, 11 or more A', () => {
  it.each([
    [[6, 6], traps('C', 'none'), ['Axis booby trap']],
    [[5, 6], traps('C', 'none'), []],
    [[5, 6], traps('B', 'none'), ['Axis booby trap']],
    [[6, 6], traps('none', 'B'), []],
    [[5, 6], traps('none', 'A'), ['Allied booby trap']],
    [[6, 6], traps('none', 'A'), ['Allied booby trap']],
    [[5, 5], traps('A', 'A'), []],
    [[6, 6], traps('A', 'C'), ['Axis/Allied booby trap']],
    [[6, 5], traps('none', 'none'), []],
  ] as const)('%j with %j', (dice, settings, expected) => {
    expect(notes('TC', [...dice], settings)).toEqual(expected);
  });

  it('other categories never spring one', () => {
    expect(notes('IFT', [6, 6], traps('A', 'A'))).toMatchObject(['Cower if MMC without a leader (A7.9)']);
  });
});

describe('the roll', () => {
  it('coloured first, white second, Original, DRM and Final', () => {
    expect(roll('TH', [2, 5], NO_DR_SETTINGS, 2)).toMatchObject({
      category: 'TH',
      dice: 'DR',
      coloured: 2,
      white: 5,
      original: 7,
      drm: 2,
      final: 9,
      notes: ['Turret'],
    });
    expect(roll('SA', [4], NO_DR_SETTINGS, -1)).toMatchObject({ category: 'SA', dice: 'dr', coloured: 4, original: 4, drm: -1, final: 3, notes: [] });
  });

  it('SA and RS are drs whatever is asked; the rest as asked, DR by default', () => {
    expect([diceFor('SA', undefined), diceFor('RS', 'DR'), diceFor('IFT', undefined), diceFor('other', 'dr'), diceFor('TH', 'DR')]).toMatchObject([
      'dr',
      'dr',
      'DR',
      'dr',
      'DR',
    ]);
  });
});
