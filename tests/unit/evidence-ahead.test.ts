import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { interactionEvidence, workOutEvidence } from '../../src/core/evidence.js';
import { evidenceDigest, signedFacts } from '../../src/verify/evidence.js';

const ID = '1445000000000000001';
const body = Buffer.from(JSON.stringify({ id: ID, type: 2, token: 'tok', data: { name: 'rally', options: [{ name: 'disorder', type: 4, value: 1 }] } }));
const request = () => ({ key: 'ab'.repeat(32), timestamp: '1796400000', signature: 'cd'.repeat(64), body: body.toString('base64') });

describe("a bound roll's evidence, worked out while it waits for its round", () => {
  it('is what its row would work out itself: the commitment, the deflated bytes and the signed facts', () => {
    const e = request();
    workOutEvidence(ID, e);
    const written = interactionEvidence(ID, e)!.written!;
    expect(written.commits).toEqual({ interaction: ID, sha256: evidenceDigest(e.timestamp, body) });
    expect(inflateRawSync(written.deflated)).toEqual(body);
    expect(written.facts).toEqual(signedFacts(body));
  });

  it('goes only with that request object and that interaction: anything else works its own out', () => {
    const e = request();
    workOutEvidence(ID, e);
    expect(interactionEvidence(ID, request())!.written).toBeUndefined();
    expect(interactionEvidence('1445000000000000002', e)!.written).toBeUndefined();
  });
});
