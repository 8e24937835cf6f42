import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/ledger/chain.js';
import { nodeEd25519 } from '../../src/ops/signing-key.js';
import {
  checkReceipt,
  fingerprintOf,
  fromBase64url,
  readableLines,
  receiptPayload,
  receiptText,
  type ReceiptFields,
  toBase64url,
} from '../../src/verify/receipt.js';

// The receipt format and its checks, field by field and refusal by refusal.
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const PUB = (publicKey.export({ format: 'jwk' }) as { x: string }).x;
const FP = createHash('sha256').update(Buffer.from(PUB, 'base64url')).digest('hex').slice(0, 16);
const signed = (bytes: Uint8Array) => new Uint8Array(sign(null, bytes, privateKey));
const base: ReceiptFields = {
  v: 1,
  roll: 'r0ll0000aa',
  guild: 'g1',
  seq: 12,
  game: 'gm00000001',
  game_name: 'Arnhem',
  turn: 4,
  phase: 'combat',
  player: 'Bob',
  player_id: 'u2',
  command: '/mc unit:"German 4-6-7"',
  dice: [3, 5],
  result: 'passed',
  voided: null,
  hash: 'cd'.repeat(32),
  at: '2026-11-20T10:00:00.000Z',
  signed_at: '2026-11-21T10:00:00.000Z',
  key: FP,
};
const receipt = (f: Partial<ReceiptFields> = {}) => {
  const fields = { ...base, ...f };
  return receiptText(fields, signed(receiptPayload(fields)));
};
const check = (text: string, keys = [{ public_key: PUB }]) => checkReceipt(text, keys, nodeEd25519);
/** A receipt's signed line with other bytes in it, signed all the same. */
const withPayload = (json: string) => {
  const bytes = new TextEncoder().encode(json);
  return `MO1.${toBase64url(bytes)}.${toBase64url(signed(bytes))}`;
};

describe('receipt text', () => {
  it('the readable lines, in a game and outside one', () => {
    expect(readableLines(base)).toEqual([
      'Morale Officer receipt · roll r0ll0000aa · server g1 · position 12',
      'Game: Arnhem (gm00000001) · turn 4 · combat',
      'Player: Bob (u2) · 2026-11-20T10:00:00.000Z',
      'Command: /mc unit:"German 4-6-7"',
      'Dice: 3, 5 · Result: passed',
      `Row hash: ${'cd'.repeat(32)}`,
      `Signed by key ${FP} at 2026-11-21T10:00:00.000Z`,
    ]);
    expect(readableLines({ ...base, game_name: null, turn: null, phase: null })[1]).toBe('Game: gm00000001 (gm00000001)');
    expect(readableLines({ ...base, game: null })[1]).toBe('Outside any game');
    expect(readableLines({ ...base, dice: [], result: null, voided: 'typo' })[4]).toBe('Dice: none · Result: none · VOIDED: typo');
  });

  it('base64url both ways, every padding length; a bad character or length is no base64url', () => {
    for (let n = 0; n < 7; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => 250 - i * 37);
      const text = toBase64url(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64url'));
      expect(fromBase64url(text)).toEqual(bytes);
    }
    for (const bad of ['ab+c', 'ab/c', 'abc=', 'a', 'abcde', 'ab c']) expect(fromBase64url(bad), bad).toBeUndefined();
    // One spelling only: 'QR' would decode to the byte 'QQ' spells (its unused bits are set).
    expect(fromBase64url('QQ')).toEqual(new Uint8Array([65]));
    expect(fromBase64url('QR')).toBeUndefined();
  });

  it("a key's fingerprint is the first 16 hex of SHA-256 over its raw bytes", () => {
    expect(fingerprintOf(PUB)).toBe(FP);
  });
});

describe('checkReceipt', () => {
  // Which keys an export vouches for, and what it must hold of the roll.
  const chainedIn = (guildId: string) => ({ guildId, fingerprint: FP, public_key: PUB, valid_from: '2026-11-01T00:00:00.000Z', row: 'keyrow0001' });
  const roll: { id: string; guildId: string; hash: string; voided: string | null } = { id: base.roll, guildId: 'g1', hash: base.hash, voided: null };

  it("a key chained in another guild vouches for nothing in this one (a forger's own guild)", async () => {
    expect(await checkReceipt(receipt(), [], nodeEd25519, { keys: [chainedIn('forged')], roll })).toEqual({
      ok: false,
      lines: [`receipt REFUSED: it is signed by key ${FP}, which is not a key you trust (trusted: none given)`],
    });
    const v = await checkReceipt(receipt(), [], nodeEd25519, { keys: [chainedIn('g1')], roll });
    expect(v.lines.slice(0, 2)).toEqual([`receipt valid: roll r0ll0000aa signed by key ${FP}`, 'the roll is in the export loaded, with the same row hash']);
  });

  it('with an export loaded: the roll must be in it, in its guild, with the same row hash; a later void is said', async () => {
    const keys = [chainedIn('g1')];
    const lines = async (r: typeof roll | undefined) => (await checkReceipt(receipt(), [], nodeEd25519, { keys, roll: r })).lines.slice(0, 2);
    expect(await lines(undefined)).toEqual([
      'receipt REFUSED: roll r0ll0000aa is not in the export loaded: a receipt of a roll the chain does not hold proves nothing',
    ]);
    expect(await lines({ ...roll, guildId: 'g2' })).toEqual(['receipt REFUSED: roll r0ll0000aa is in guild g2 in the export, not g1 as the receipt says']);
    expect(await lines({ ...roll, hash: 'ef'.repeat(32) })).toEqual([
      `receipt REFUSED: roll r0ll0000aa's row hash in the export is ${'ef'.repeat(32)}, not the ${'cd'.repeat(32)} the receipt was signed over`,
    ]);
    expect(await lines({ ...roll, voided: 'wrong target' })).toEqual([
      `receipt valid: roll r0ll0000aa signed by key ${FP}`,
      'VOIDED since it was signed: wrong target',
    ]);
  });

  it('valid: the verdict line, then what was signed', async () => {
    const v = await check(receipt());
    expect(v).toEqual({
      ok: true,
      fields: base,
      lines: [
        `receipt valid: roll r0ll0000aa signed by key ${FP}`,
        'no export loaded: whether the roll is on record, and any later void, was not checked',
        ...readableLines(base),
      ],
    });
    // Quoted twice and indented, as a reply to a reply.
    const quoted = receipt()
      .split('\n')
      .map((l) => `>> ${l}`)
      .join('\n');
    expect((await check(quoted)).ok).toBe(true);
  });

  it('inside its key’s time of use only: before it began, or from the moment it was retired, refused', async () => {
    const window = (from: string, until: string | null) => [{ public_key: PUB, valid_from: from, valid_until: until }];
    expect((await check(receipt(), window('2026-11-21T10:00:00.000Z', '2026-11-21T10:00:00.001Z'))).ok).toBe(true);
    expect((await check(receipt(), window('2026-11-21T10:00:00.001Z', null))).lines).toEqual([
      `receipt REFUSED: key ${FP} was not in use at 2026-11-21T10:00:00.000Z (in use 2026-11-21T10:00:00.001Z to now)`,
    ]);
    expect((await check(receipt(), window('2026-11-01T00:00:00.000Z', '2026-11-21T10:00:00.000Z'))).lines).toEqual([
      `receipt REFUSED: key ${FP} was not in use at 2026-11-21T10:00:00.000Z (in use 2026-11-01T00:00:00.000Z to 2026-11-21T10:00:00.000Z)`,
    ]);
  });

  it('a damaged, non-canonical or foreign signed line is refused, each with its reason', async () => {
    const damaged = 'receipt REFUSED: the MO1 line is damaged: it must be MO1.<base64url>.<base64url>';
    const notFields = "receipt REFUSED: the MO1 line does not hold a receipt's signed fields (it was changed, or cut)";
    expect((await check('MO1.abc')).lines).toEqual([damaged]);
    expect((await check('MO1.a.bcd')).lines).toEqual([damaged]);
    expect((await check(`MO1.${toBase64url(new Uint8Array([1]))}.a`)).lines).toEqual([damaged]);
    // JSON with a space in it is not the canonical bytes a receipt signs; nor is another version, a key that is not text, or bad UTF-8.
    expect((await check(withPayload(JSON.stringify(base, null, 1)))).lines).toEqual([notFields]);
    expect((await check(withPayload(canonicalJson({ ...base, v: 2 })))).lines).toEqual([notFields]);
    expect((await check(withPayload(canonicalJson({ ...base, key: 7 })))).lines).toEqual([notFields]);
    const badUtf8 = new Uint8Array([0x7b, 0xff, 0x7d]);
    expect((await check(`MO1.${toBase64url(badUtf8)}.${toBase64url(signed(badUtf8))}`)).lines).toEqual([notFields]);
    expect((await check(receipt(), [])).lines).toEqual([`receipt REFUSED: it is signed by key ${FP}, which is not a key you trust (trusted: none given)`]);
  });

  it('any one character of the signed line changed, the last one included, is refused', async () => {
    const text = receipt();
    const mo1 = text.lastIndexOf('MO1.');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (const at of [mo1 + 4, mo1 + 40, text.length - 2, text.length - 1])
      for (const c of alphabet) {
        if (c === text[at]) continue;
        expect((await check(text.slice(0, at) + c + text.slice(at + 1))).ok, `${at}:${c}`).toBe(false);
      }
  });

  it('the signed line alone is enough, and the words of an e-mail around the receipt are not part of it', async () => {
    const text = receipt();
    expect((await check(text.split('\n').at(-1)!)).ok).toBe(true);
    expect((await check(`Hi, my roll:\n\n${text}\n\nCheers, Bob`)).ok).toBe(true);
    // A signature cut short is damaged, not read on into the next words.
    expect((await check(`${text.slice(0, -1)}\nCheers`)).ok).toBe(false);
  });
});
