import { ed25519 } from '@noble/curves/ed25519.js';
import type { Ed25519Verify } from '../receipt.js';

/**
 * Ed25519 in the page: WebCrypto where the browser has it (Chromium 137+, Firefox 129+, Safari 17+),
 * else @noble/curves (audited, dependency-free) — the small vetted fallback.
 */
export const pageEd25519: Ed25519Verify = async (publicKey, message, signature) => {
  const subtle = globalThis.crypto?.subtle;
  if (subtle) {
    try {
      const key = await subtle.importKey('raw', publicKey as never, { name: 'Ed25519' }, false, ['verify']);
      return await subtle.verify({ name: 'Ed25519' }, key, signature as never, message as never);
    } catch {
      // No Ed25519 in this browser's WebCrypto: the fallback below.
    }
  }
  return ed25519.verify(signature, message, publicKey);
};
