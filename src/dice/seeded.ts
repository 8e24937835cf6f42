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

/** One die: the first attempt whose HMAC's top 4 bytes fall below the rejection limit. */
function hmacDie(serverSeed: string, sides: number, message: (attempt: number) => string): number {
  const limit = rejectionLimit(sides);
  for (let attempt = 0; ; attempt++) {
    const v = createHmac('sha256', serverSeed).update(message(attempt), 'utf8').digest().readUInt32BE(0);
    if (v < limit) return (v % sides) + 1;
  }
}

export function seededDie(serverSeed: string, gameId: string, playerSeeds: readonly string[], seq: number, index: number, sides: number): number {
  return hmacDie(serverSeed, sides, (attempt) => JSON.stringify([gameId, playerSeeds, seq, index, attempt]));
}

/**
 * The dice scheme of games started since per-player dice were introduced: the k-th game roll of
 * each player (from 1) is fixed at game start by the server seed, the game, the player seeds and
 * the player's user id, so rolls by other accounts (a sock puppet's throwaway rolls) never move a
 * player's dice. The message is JSON of ["player-v1", gameId, [player seeds], userId, k, index,
 * attempt]; the rest as above.
 */
export const PLAYER_SCHEME = 'player-v1';

export function playerDie(serverSeed: string, gameId: string, playerSeeds: readonly string[], userId: string, k: number, index: number, sides: number): number {
  return hmacDie(serverSeed, sides, (attempt) => JSON.stringify([PLAYER_SCHEME, gameId, playerSeeds, userId, k, index, attempt]));
}

/**
 * The per-player scheme of games started since person fields are committed: as player-v1, with the
 * player's key in the server in place of their Discord id. The key is the id of their salt
 * (people.ts): random, naming no one, and on the chain in every row they made, so their dice are
 * recomputed after they are erased too. The message is JSON of ["player-v2", gameId, [player seeds],
 * key, k, index, attempt]; the rest as above.
 */
export const PLAYER_KEY_SCHEME = 'player-v2';

export function keyedPlayerDie(
  serverSeed: string,
  gameId: string,
  playerSeeds: readonly string[],
  key: string,
  k: number,
  index: number,
  sides: number,
): number {
  return hmacDie(serverSeed, sides, (attempt) => JSON.stringify([PLAYER_KEY_SCHEME, gameId, playerSeeds, key, k, index, attempt]));
}

/** The schemes that number each player's rolls apart (k), whatever keys their dice. */
export const isPerPlayer = (scheme: string | null | undefined) => scheme === PLAYER_SCHEME || scheme === PLAYER_KEY_SCHEME;

/**
 * The dice scheme of a beacon game: a roll binds to a drand round published after the
 * request, so nobody (the operator included) knows a die before it is rolled. The message is JSON
 * of ["beacon-v1", gameId, interactionId, round, randomness hex, index, attempt]; the rest as above.
 */
export const BEACON_SCHEME = 'beacon-v1';

/** A roll's beacon: the interaction it answers, the round it bound to, and that round's randomness. */
export type BeaconDraw = { interactionId: string; round: number; randomness: string };

/**
 * A beacon game roll's round as its row keeps it: the draw, and the signature that proves the
 * randomness; `game`: the game it was bound in (a roll whose game ended meanwhile rolls nothing).
 */
export type RollBeacon = BeaconDraw & { signature: string; game?: string | undefined };

export function beaconDie(serverSeed: string, gameId: string, b: BeaconDraw, index: number, sides: number): number {
  return hmacDie(serverSeed, sides, (attempt) => JSON.stringify([BEACON_SCHEME, gameId, b.interactionId, b.round, b.randomness, index, attempt]));
}

/**
 * The dice of a beacon game's roll: drawn from its round and the game's seed, nothing else. The
 * class is nominal (its private field): no other roller, the bot's local dice or a test's fixed
 * ones, can be given where a beacon game's dice are asked for; the compiler refuses it.
 */
export class BeaconRoller implements Roller {
  #index = 0;

  private constructor(
    private readonly serverSeed: string,
    private readonly gameId: string,
    readonly draw: BeaconDraw,
  ) {}

  /** The dice of the roll this round's draw answers, in the game whose seed this is. */
  static of(serverSeed: string, gameId: string, draw: BeaconDraw): BeaconRoller {
    return new BeaconRoller(serverSeed, gameId, draw);
  }

  roll(sides: number): number {
    return beaconDie(this.serverSeed, this.gameId, this.draw, this.#index++, sides);
  }
}

/** Which die a game roll draws: its number in the game, the roller's own number of it (and key, player-v2), and its beacon. */
export type GameDraw = { seq: number; userId: string; k: number; playerKey?: string | undefined; beacon?: BeaconDraw | undefined };

/** The dice of one roll of a game under its scheme (a game without one keeps the position scheme). */
export function gameRoller(scheme: string | null, serverSeed: string, gameId: string, playerSeeds: readonly string[], draw: GameDraw): Roller {
  if (scheme === BEACON_SCHEME) {
    if (!draw.beacon) throw new Error('a beacon game rolls only with its round');
    return BeaconRoller.of(serverSeed, gameId, draw.beacon);
  }
  if (scheme === PLAYER_SCHEME) {
    let index = 0;
    return { roll: (sides) => playerDie(serverSeed, gameId, playerSeeds, draw.userId, draw.k, index++, sides) };
  }
  if (scheme === PLAYER_KEY_SCHEME) {
    const key = draw.playerKey;
    if (!key) throw new Error('a player-v2 game rolls only with the player’s key');
    let index = 0;
    return { roll: (sides) => keyedPlayerDie(serverSeed, gameId, playerSeeds, key, draw.k, index++, sides) };
  }
  return seededRoller(serverSeed, gameId, playerSeeds, draw.seq);
}

/** The dice of one roll of a game, drawn in order (the position scheme). */
export function seededRoller(serverSeed: string, gameId: string, playerSeeds: readonly string[], seq: number): Roller {
  let index = 0;
  return { roll: (sides) => seededDie(serverSeed, gameId, playerSeeds, seq, index++, sides) };
}
