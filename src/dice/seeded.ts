import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Roller } from './roller.js';

/**
 * Provably fair dice for a game. The server seed is secret until the game ends; its SHA-256 is
 * published when the game starts. Die `index` (from 0) of the game's roll number `seq` (from 1) is:
 *
 *   for attempt = 0, 1, 2, …:
 *     mac = HMAC-SHA256(key = server seed as UTF-8 hex text,
 *                       message = JSON of [gameId, [player seeds in order], seq, index, attempt])
 *     v   = first 4 bytes of mac as an unsigned big-endian integer
 *     if v < 2^32 − (2^32 mod sides): the die is (v mod sides) + 1; stop
 *
 * Rejecting the top (2^32 mod sides) values leaves every face exactly equally likely.
 */

export const newServerSeed = () => randomBytes(32).toString('hex');

export const commitment = (serverSeed: string) => createHash('sha256').update(serverSeed, 'utf8').digest('hex');

const RANGE = 2 ** 32;

/** Values at or above this are rejected: below it, every face has the same number of values. */
export const rejectionLimit = (sides: number) => RANGE - (RANGE % sides);

export function seededDie(serverSeed: string, gameId: string, playerSeeds: readonly string[], seq: number, index: number, sides: number): number {
  const limit = rejectionLimit(sides);
  for (let attempt = 0; ; attempt++) {
    const message = JSON.stringify([gameId, playerSeeds, seq, index, attempt]);
    const v = createHmac('sha256', serverSeed).update(message, 'utf8').digest().readUInt32BE(0);
    if (v < limit) return (v % sides) + 1;
  }
}

/** The dice of one roll of a game, drawn in order. */
export function seededRoller(serverSeed: string, gameId: string, playerSeeds: readonly string[], seq: number): Roller {
  let index = 0;
  return { roll: (sides) => seededDie(serverSeed, gameId, playerSeeds, seq, index++, sides) };
}
