import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { createSHA256, type IHasher } from 'hash-wasm';

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

/**
 * The one-shot SHA-256 every row's hash goes through (node:crypto's `hash`): hash-wasm's WebAssembly
 * SHA-256, 2.5 times @noble/hashes' speed on an export's rows, once `loadWasmSha256` has compiled it.
 * One instance serves every call, which is safe because a one-shot hash never interleaves with
 * another; a page whose browser refuses WebAssembly keeps @noble/hashes, the same digest.
 */
let wasmSha256: IHasher | undefined;

export async function loadWasmSha256(): Promise<void> {
  wasmSha256 = await createSHA256().catch(() => undefined);
}

export function hash(algorithm: string, data: string | Uint8Array): string {
  if (algorithm !== 'sha256') throw new Error(`verify.html hashes only SHA-256 (asked for ${algorithm})`);
  if (!wasmSha256) return bytesToHex(sha256(bytesOf(data)));
  wasmSha256.init();
  wasmSha256.update(data);
  return wasmSha256.digest('hex');
}

/** An Ed25519 public key as the shared code makes one (a JWK): its raw 32 bytes, for `verify`. */
export function createPublicKey(o: { key: { kty: string; crv: string; x: string } }) {
  if (o.key.crv !== 'Ed25519') throw new Error('verify.html checks only Ed25519 keys');
  const b64 = o.key.x.replace(/-/g, '+').replace(/_/g, '/');
  return { raw: Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)) };
}

/** Ed25519 verification (Discord's signatures on kept requests), synchronous as node:crypto's is: @noble/curves. */
export function verify(_algorithm: null, data: Uint8Array, key: { raw: Uint8Array }, signature: Uint8Array): boolean {
  try {
    return ed25519.verify(signature, data, key.raw);
  } catch {
    return false;
  }
}
