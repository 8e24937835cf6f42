import { createHash, createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as shim from '../../src/verify/page/crypto-shim.js';
import { pageEd25519 } from '../../src/verify/page/ed25519.js';

// What verify.html uses in place of node:crypto, against node:crypto itself.
describe("verify.html's crypto", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('SHA-256 and HMAC-SHA256 give node:crypto bytes, as hex and as the buffer the dice read', () => {
    for (const text of ['', 'abc', 'é ü 漢字 🎲', 'x'.repeat(10_000)]) {
      expect(shim.createHash('sha256').update('prefix').update(text).digest('hex')).toBe(createHash('sha256').update('prefix').update(text).digest('hex'));
      const mine = shim.createHmac('sha256', 'seed').update(text).digest() as unknown as { readUInt32BE(o: number): number };
      expect(mine.readUInt32BE(0)).toBe(createHmac('sha256', 'seed').update(text).digest().readUInt32BE(0));
    }
    expect(() => shim.createHash('md5')).toThrow('verify.html hashes only SHA-256 (asked for md5)');
  });

  it('Ed25519: WebCrypto, and the fallback where WebCrypto has no Ed25519, agree on good and bad signatures', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const raw = Buffer.from((publicKey.export({ format: 'jwk' }) as { x: string }).x, 'base64url');
    const msg = new TextEncoder().encode('a receipt');
    const sig = new Uint8Array(sign(null, msg, privateKey));
    const bad = sig.slice();
    bad[0] = bad[0]! ^ 1;
    expect(await pageEd25519(raw, msg, sig)).toBe(true);
    expect(await pageEd25519(raw, msg, bad)).toBe(false);
    // A browser without WebCrypto's Ed25519: @noble/curves decides.
    vi.stubGlobal('crypto', { subtle: undefined });
    expect(await pageEd25519(raw, msg, sig)).toBe(true);
    expect(await pageEd25519(raw, msg, bad)).toBe(false);
  });
});
