import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/**
 * Discord signs every interaction it POSTs with the app's Ed25519 key: the signature covers the
 * timestamp header followed by the raw body. A request older (or newer) than this is refused even
 * when signed, so a captured request cannot be replayed later.
 */
export const MAX_SIGNATURE_AGE_S = 5 * 60;

const HEX_KEY = /^[0-9a-f]{64}$/i;
const HEX_SIGNATURE = /^[0-9a-f]{128}$/i;

/** The app's public key (64 hex characters, as the Developer Portal shows it) as a verifying key. */
export function publicKeyFromHex(hex: string): KeyObject {
  if (!HEX_KEY.test(hex)) throw new Error("DISCORD_PUBLIC_KEY must be the app's public key: 64 hex characters");
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(hex, 'hex').toString('base64url') }, format: 'jwk' });
}

/** Whether Discord signed this body at this time: a missing, malformed, stale or wrong signature is false. */
export function signedByDiscord(key: KeyObject, signature: string | undefined, timestamp: string | undefined, body: Buffer, nowMs = Date.now()): boolean {
  return signatureProblem(key, signature, timestamp, body, nowMs) === undefined;
}

/**
 * Why a request is not Discord's (undefined when it is), in words for the log: the headers missing
 * or malformed, a timestamp outside five minutes, or a signature that does not hold under this
 * key — the last is what a wrong DISCORD_PUBLIC_KEY gives on every request.
 */
export function signatureProblem(
  key: KeyObject,
  signature: string | undefined,
  timestamp: string | undefined,
  body: Buffer,
  nowMs = Date.now(),
): string | undefined {
  if (!signature || !timestamp) return 'the X-Signature-Ed25519 or X-Signature-Timestamp header is missing';
  if (!HEX_SIGNATURE.test(signature) || !/^\d{1,12}$/.test(timestamp)) return 'the signature headers are malformed';
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > MAX_SIGNATURE_AGE_S) return 'the signature timestamp is more than five minutes from this clock';
  if (!verify(null, Buffer.concat([Buffer.from(timestamp, 'utf8'), body]), key, Buffer.from(signature, 'hex')))
    return 'the signature does not hold under DISCORD_PUBLIC_KEY: if every request says this, the key is not this application’s';
  return undefined;
}
