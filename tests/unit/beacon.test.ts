import { bls12_381 } from '@noble/curves/bls12-381.js';
import { describe, expect, it } from 'vitest';
import { boundRound, QUICKNET, roundAt, roundTime, snowflakeAt, snowflakeTime } from '../../src/beacon/chain.js';
import { chainOf, parseChainInfo } from '../../src/beacon/chain-config.js';
import { invalidRounds, randomnessOf, verifyRound } from '../../src/beacon/verify-round.js';
import { beaconDie } from '../../src/dice/seeded.js';
import { chainInfoJson, testChain } from '../helpers/beacon-relay.js';
import { tmpDir } from '../helpers/tmp.js';
import fs from 'node:fs';
import path from 'node:path';
import { publicChainName } from '../../src/beacon/chain.js';

// quicknet's round 42, as drand's relays publish it (a real round of the League of Entropy).
const R42 = { round: 42, signature: '95a9f9f5b231b7714de1553105d8ffdf3dcda24cfdb1e689319bccf79a9c8ce430a91b811fbfaf763900bc998b5d686a' };
const R42_RANDOMNESS = '8ada64bae5c6c0f5540a6a13af56e663240edfbd2c76ac6a8f27671eb7259ce3';

const flip = (hex: string, bit: number) => {
  const i = Math.floor(bit / 4);
  return hex.slice(0, i) + (parseInt(hex[i]!, 16) ^ (1 << (bit % 4))).toString(16) + hex.slice(i + 1);
};

describe('a real quicknet round', () => {
  it('verifies under the pinned key, and its randomness is SHA-256 of its signature', () => {
    expect(verifyRound(QUICKNET, R42)).toBe(true);
    expect(randomnessOf(R42.signature)).toBe(R42_RANDOMNESS);
  });

  it('is refused with one bit flipped, under another round number, or malformed', () => {
    for (const bit of [0, 7, 100, 383]) expect(verifyRound(QUICKNET, { ...R42, signature: flip(R42.signature, bit) }), `bit ${bit}`).toBe(false);
    expect(verifyRound(QUICKNET, { ...R42, round: 43 })).toBe(false);
    expect(verifyRound(QUICKNET, { ...R42, signature: R42.signature.slice(2) })).toBe(false);
    expect(verifyRound(QUICKNET, { ...R42, signature: R42.signature.toUpperCase() })).toBe(false);
    expect(verifyRound(QUICKNET, { ...R42, round: 0 })).toBe(false);
  });

  it('is refused under another chain key', () => {
    const { chain } = testChain();
    expect(verifyRound(chain, R42)).toBe(false);
  });
});

describe('many rounds at once (two pairings)', () => {
  const { chain, sign } = testChain();
  const rounds = Array.from({ length: 40 }, (_, i) => sign(1000 + i));

  it('holds for good rounds, and names each bad one', () => {
    expect(invalidRounds(chain, rounds)).toEqual([]);
    const bad = [
      { ...rounds[3]!, round: 5000 },
      { round: 1039, signature: rounds[0]!.signature },
    ];
    expect(invalidRounds(chain, [...rounds, ...bad])).toEqual(bad);
  });

  it('cannot be fooled by two wrong signatures whose sum is right', () => {
    // σ₁ + σ₂ is what the true pair sums to, but neither is its round's signature.
    const [a, b] = [sign(7), sign(8)];
    const G1 = bls12_381.G1.Point;
    const delta = G1.BASE.multiply(12345n);
    const a2 = { round: 7, signature: G1.fromHex(a.signature).add(delta).toHex(true) };
    const b2 = { round: 8, signature: G1.fromHex(b.signature).subtract(delta).toHex(true) };
    expect(invalidRounds(chain, [a2, b2])).toEqual([a2, b2]);
  });
});

describe('rounds and times', () => {
  it('round 1 at genesis, one more each period', () => {
    expect(roundAt(QUICKNET, 1692803367_000)).toBe(1);
    expect(roundAt(QUICKNET, 1692803369_999)).toBe(1);
    expect(roundAt(QUICKNET, 1692803370_000)).toBe(2);
    expect(roundTime(QUICKNET, 42)).toBe((1692803367 + 41 * 3) * 1000);
  });

  it('a roll binds to the round two after its interaction was made', () => {
    const id = snowflakeAt(1692803370_500, 5);
    expect(snowflakeTime(id)).toBe(1692803370_500);
    expect(boundRound(QUICKNET, id)).toBe(4);
    // A real interaction id of 2026 (Discord snowflake): its time, and the round it binds to.
    expect(snowflakeTime('1445000000000000000')).toBe(1764585246801);
    expect(boundRound(QUICKNET, '1445000000000000000')).toBe(23_927_296);
  });
});

describe('a chain-info file', () => {
  it('is read as drand publishes it', () => {
    const { chain } = testChain();
    expect(parseChainInfo(chainInfoJson(chain), 'test.json')).toEqual(chain);
  });

  it('is refused naming what is wrong', () => {
    const { chain } = testChain();
    expect(() => parseChainInfo('{', 'x.json')).toThrow('x.json is not JSON');
    expect(() => parseChainInfo(chainInfoJson({ ...chain, scheme: 'pedersen-bls-chained' }), 'x.json')).toThrow(
      'x.json: schemeID: only bls-unchained-g1-rfc9380 chains are supported',
    );
    expect(() => parseChainInfo(chainInfoJson({ ...chain, public_key: 'abc' }), 'x.json')).toThrow('x.json: public_key: 192 lowercase hex digits');
  });

  it("as BEACON_CHAIN, is refused when it borrows quicknet's hash or key with a field of its own; a private chain of its own is private", () => {
    const { chain } = testChain();
    const file = (c: typeof chain) => {
      const f = path.join(tmpDir(), 'chain.json');
      fs.writeFileSync(f, chainInfoJson(c));
      return f;
    };
    const borrowedHash = file({ ...chain, hash: QUICKNET.hash });
    expect(() => chainOf(borrowedHash)).toThrow(
      `BEACON_CHAIN ${borrowedHash}: its chain hash, period, scheme are drand quicknet's but not its public key, genesis time: use BEACON_CHAIN=quicknet for drand quicknet, or a chain of your own whose hash and key are its own`,
    );
    const borrowedKey = file({ ...chain, public_key: QUICKNET.public_key });
    expect(() => chainOf(borrowedKey)).toThrow(`its public key, period, scheme are drand quicknet's but not its chain hash, genesis time`);
    expect(chainOf(file(QUICKNET))).toEqual(QUICKNET);
    expect(publicChainName(chainOf(file(QUICKNET))!)).toBe('drand quicknet');
    expect(publicChainName(chainOf(file(chain))!)).toBeUndefined();
    expect(chainOf('quicknet')).toBe(QUICKNET);
  });
});

describe('a beacon die', () => {
  it('is the HMAC of the game, interaction, round, randomness, index and attempt under the server seed', () => {
    // Worked by hand with openssl (docs/ledger-and-fairness.md shows the command).
    const draw = { interactionId: '1445000000000000000', round: 42, randomness: R42_RANDOMNESS };
    expect([0, 1, 2, 3].map((i) => beaconDie('ab'.repeat(32), 'g1', draw, i, 6))).toEqual(EXPECTED_DICE);
  });
});

const EXPECTED_DICE = [2, 2, 1, 3];
