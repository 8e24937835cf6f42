import { pippenger } from '@noble/curves/abstract/curve.js';
import { bls12_381 } from '@noble/curves/bls12-381.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, randomBytes } from '@noble/hashes/utils.js';
import type { BeaconChain } from './chain.js';

/**
 * Checking drand rounds of an unchained G1 chain (quicknet's scheme): round R's signature is a BLS
 * signature on G1 of SHA-256(R as 8 big-endian bytes), hashed to the curve as RFC 9380 says with
 * the scheme's domain tag; its randomness is SHA-256 of the signature. Pure over bytes, so Node and
 * verify.html run the same code.
 */

const short = bls12_381.shortSignatures;
const G1 = bls12_381.G1.Point;
const G2 = bls12_381.G2.Point;

/** A published round: its number and signature (hex); the randomness follows from the signature. */
export type BeaconRound = { round: number; signature: string };

/** What a round signs: SHA-256 of its number as 8 big-endian bytes. */
export function roundMessage(round: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(round));
  return sha256(bytes);
}

/** A round's randomness (hex): SHA-256 of its signature's bytes. */
export const randomnessOf = (signature: string): string => bytesToHex(sha256(hexToBytes(signature)));

const isHex = (s: unknown, bytes: number): s is string => typeof s === 'string' && s.length === bytes * 2 && /^[0-9a-f]+$/.test(s);

/** The signature as a G1 point, or undefined when it is not one (wrong length, off the curve). */
function signaturePoint(signature: unknown) {
  if (!isHex(signature, 48)) return undefined;
  try {
    return short.Signature.fromHex(signature);
  } catch {
    return undefined;
  }
}

const keys = new Map<string, ReturnType<typeof G2.fromHex>>();
const keyOf = (chain: BeaconChain) => {
  let k = keys.get(chain.public_key);
  if (!k) {
    k = G2.fromHex(chain.public_key);
    keys.set(chain.public_key, k);
  }
  return k;
};

/** Whether one round's signature holds under the chain's key. */
export function verifyRound(chain: BeaconChain, r: BeaconRound): boolean {
  const sig = signaturePoint(r.signature);
  if (!sig || !Number.isSafeInteger(r.round) || r.round < 1) return false;
  try {
    // The key as the point kept by keyOf: from bytes, it would be decoded and checked again each round.
    return short.verify(sig, short.hash(roundMessage(r.round)), keyOf(chain));
  } catch {
    return false;
  }
}

let warmed = false;

/**
 * One check of a point that signs no round (the group's generator), once a process: run while the
 * first bound round is still to come, so that its own check is not also this arithmetic's first run,
 * which V8 compiles as it goes (~110 ms cold against ~20 ms after).
 */
export function warmUp(chain: BeaconChain): void {
  if (warmed) return;
  warmed = true;
  verifyRound(chain, { round: 1, signature: G1.BASE.toHex() });
}

/** Partial sums of a batch, as hex points: Σ cᵢ·σᵢ and Σ cᵢ·H(mᵢ), with the rounds that are no signature at all. */
export type BatchSums = { sig: string; msg: string; malformed: number[] };

const isWellFormed = (r: BeaconRound) => Number.isSafeInteger(r.round) && r.round >= 1;

/**
 * A batch's two sums with fresh random 64-bit weights cᵢ (so no set of wrong signatures can cancel
 * out: a forger would have to guess the cᵢ). Sums of several batches add up to the sums of all.
 */
export function batchSums(rounds: readonly BeaconRound[]): BatchSums {
  const malformed: number[] = [];
  const sigs = [];
  const hashes = [];
  for (let i = 0; i < rounds.length; i++) {
    const sig = signaturePoint(rounds[i]!.signature);
    if (!sig || !isWellFormed(rounds[i]!)) {
      malformed.push(i);
      continue;
    }
    sigs.push(sig);
    hashes.push(short.hash(roundMessage(rounds[i]!.round)));
  }
  if (!sigs.length) return { sig: G1.ZERO.toHex(), msg: G1.ZERO.toHex(), malformed };
  const weights = sigs.map(() => BigInt(`0x${bytesToHex(randomBytes(8))}`) | 1n);
  return { sig: pippenger(G1, sigs, weights).toHex(), msg: pippenger(G1, hashes, weights).toHex(), malformed };
}

/** Whether summed batches hold: e(Σ cᵢ·σᵢ, g₂) = e(Σ cᵢ·H(mᵢ), pk), two pairings. */
export function sumsHold(chain: BeaconChain, parts: readonly Pick<BatchSums, 'sig' | 'msg'>[]): boolean {
  const sig = parts.reduce((a, p) => a.add(G1.fromHex(p.sig)), G1.ZERO);
  const msg = parts.reduce((a, p) => a.add(G1.fromHex(p.msg)), G1.ZERO);
  const paired = bls12_381.pairingBatch([
    { g1: sig, g2: G2.BASE },
    { g1: msg.negate(), g2: keyOf(chain) },
  ]);
  return bls12_381.fields.Fp12.eql(paired, bls12_381.fields.Fp12.ONE);
}

/** Each distinct round once (the same round named by many rolls is one check). */
export function distinctRounds(rounds: readonly BeaconRound[]): BeaconRound[] {
  const distinct = new Map<string, BeaconRound>();
  for (const r of rounds) distinct.set(`${r.round}:${r.signature}`, r);
  return [...distinct.values()];
}

/**
 * Many rounds under one key with two pairings, in this thread; when the batch fails, the rounds are
 * checked one by one to name the bad ones. Returns the rounds that do not hold.
 */
export function invalidRounds(chain: BeaconChain, rounds: readonly BeaconRound[]): BeaconRound[] {
  const list = distinctRounds(rounds);
  const sums = batchSums(list);
  const malformed = sums.malformed.map((i) => list[i]!);
  if (list.length - malformed.length === 0 || sumsHold(chain, [sums])) return malformed;
  return list.filter((r) => malformed.includes(r) || !verifyRound(chain, r));
}
