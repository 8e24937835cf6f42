import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * What the shared verification code asks of node:crypto, for verify.html (esbuild aliases
 * node:crypto to this file when it bundles the page). SHA-256 and HMAC-SHA256 are @noble/hashes
 * (audited, dependency-free): the shared code hashes synchronously, row by row, and WebCrypto's
 * digest is asynchronous only, so the page would otherwise need a second verifier to drift from.
 */
type Bytes = Uint8Array & { readUInt32BE(offset: number): number };

const bytesOf = (data: string | Uint8Array) => (typeof data === 'string' ? utf8ToBytes(data) : data);

function finished(digest: Uint8Array, encoding?: string): string | Bytes {
  if (encoding === 'hex') return bytesToHex(digest);
  const out = digest as Bytes;
  out.readUInt32BE = (offset: number) => new DataView(digest.buffer, digest.byteOffset, digest.byteLength).getUint32(offset);
  return out;
}

function hashing(make: () => { update(b: Uint8Array): unknown; digest(): Uint8Array }) {
  const h = make();
  const api = {
    update(data: string | Uint8Array) {
      h.update(bytesOf(data));
      return api;
    },
    digest: (encoding?: string) => finished(h.digest(), encoding),
  };
  return api;
}

export function createHash(algorithm: string) {
  if (algorithm !== 'sha256') throw new Error(`verify.html hashes only SHA-256 (asked for ${algorithm})`);
  return hashing(() => sha256.create());
}

export function createHmac(algorithm: string, key: string | Uint8Array) {
  if (algorithm !== 'sha256') throw new Error(`verify.html computes only HMAC-SHA256 (asked for ${algorithm})`);
  return hashing(() => hmac.create(sha256, bytesOf(key)));
}

/** Never used by the checks (a new server seed); present because the dice module names it. */
export function randomBytes(n: number) {
  return finished(crypto.getRandomValues(new Uint8Array(n)));
}

export function randomInt(): number {
  throw new Error('verify.html draws no dice');
}
