import { randomInt } from 'node:crypto';

/** Where every die comes from. Rules take a Roller so tests can pin the dice. */
export interface Roller {
  /** One die: an integer from 1 to `sides`. */
  roll(sides: number): number;
}

/**
 * Production dice outside a game: the operating system's CSPRNG, uniform by construction (no
 * modulo bias). The one place dice come from local randomness; a beacon game's roll takes a
 * BeaconRoller (seeded.ts), which this is not.
 */
export const cryptoRoller: Roller = {
  roll: (sides) => randomInt(1, sides + 1),
};

export class DiceExhaustedError extends Error {}

/**
 * Test dice: hands out the given faces in order and refuses to invent more, so a test states every
 * die its outcome depends on.
 */
export function fixedRoller(faces: readonly number[]): Roller & { remaining(): number } {
  let i = 0;
  return {
    roll(sides) {
      if (i >= faces.length) throw new DiceExhaustedError(`fixed roller ran out after ${faces.length} dice`);
      const face = faces[i++]!;
      if (!Number.isInteger(face) || face < 1 || face > sides) {
        throw new RangeError(`fixed die ${face} is not a face of a d${sides}`);
      }
      return face;
    },
    remaining: () => faces.length - i,
  };
}

/** Records every die a roller hands out, for the ledger's `dice` column. */
export function recordingRoller(inner: Roller): Roller & { faces: number[] } {
  const faces: number[] = [];
  return {
    faces,
    roll(sides) {
      const face = inner.roll(sides);
      faces.push(face);
      return face;
    },
  };
}
