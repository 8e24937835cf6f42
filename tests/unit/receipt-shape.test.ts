import { describe, expect, it } from 'vitest';
import { nodeEd25519 } from '../../src/ops/signing-key.js';
import { checkReceipt } from '../../src/verify/receipt.js';

const b64url = (b: Buffer) => b.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

describe('a receipt whose signed line holds fields of the wrong shape', () => {
  it('is refused as damaged, never a crash of the verifier (before any key is asked)', async () => {
    for (const json of ['{"key":"a","v":1}', '{"dice":"x","key":"a","v":1}', '{"key":"a","result":{},"v":1}']) {
      const text = `MO1.${b64url(Buffer.from(json))}.${b64url(Buffer.alloc(64))}`;
      const verdict = await checkReceipt(text, [], nodeEd25519);
      expect(verdict.ok, json).toBe(false);
      expect(JSON.stringify(verdict), json).toContain("the MO1 line does not hold a receipt's signed fields (it was changed, or cut)");
    }
  });
});
