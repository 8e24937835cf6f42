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
  if (!signature || !timestamp || !HEX_SIGNATURE.test(signature) || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > MAX_SIGNATURE_AGE_S) return false;
  return verify(null, Buffer.concat([Buffer.from(timestamp, 'utf8'), body]), key, Buffer.from(signature, 'hex'));
}
