import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadOrCreateKeys, nodeEd25519, rotateKeys } from '../../src/ops/signing-key.js';
import { checkReceipt, fingerprintOf, type TrustedKey } from '../../src/verify/receipt.js';
import { verifyExport } from '../../src/verify/verify-export.js';
import { alice, command, expectError, expectMessage, gm, testApp, type TestApp } from '../helpers/app.js';
import { tmpDir } from '../helpers/tmp.js';

// Signed receipts for play by e-mail and VASL chat, checked against a trusted key alone.
const sub = (app: TestApp, actor: typeof alice, name: string, subcommand: string, options: Record<string, unknown>) =>
  app.router.handle({ type: 'command', name, subcommand, options, actor });
/** The receipt block out of /roll receipt's reply. */
async function receiptOf(app: TestApp, id: string, actor = alice): Promise<string> {
  const reply = expectMessage(await sub(app, actor, 'roll', 'receipt', { id }));
  expect(reply.type === 'message' && reply.ephemeral).toBe(true);
  return /```\n([\s\S]*?)\n```/.exec(reply.embed.description!)![1]!;
}
const trust = (app: TestApp): TrustedKey[] => [{ public_key: app.signer.publicKey }];
const rally = async (app: TestApp, dice: number[], options: Record<string, unknown> = {}) => {
  app.dice.push(...dice);
  return expectMessage(await command(app, alice, 'rally', { disorder: 2, quality: 'militia', unit: '1st Foot', ...options })).record!.roll_id;
};

describe('/roll receipt', () => {
  it('a few readable lines and the MO1 line; valid against the bot key, with exactly what was rolled', async () => {
    const app = testApp();
    const id = await rally(app, [4]);
    const text = await receiptOf(app, id);
    const lines = text.split('\n');
    expect(lines).toHaveLength(8);
    expect(lines[0]).toBe(`Morale Officer receipt · roll ${id} · server g1 · position 1`);
    expect(lines[1]).toBe('Outside any game');
    expect(lines[2]).toMatch(/^Player: Alice \(alice\) · 20\d\d-/);
    // The options as recorded (canonical JSON: sorted), defaults included.
    expect(lines[3]).toBe('Command: /rally band:false commander_near:false disorder:2 enemy_in_sight:true quality:militia unit:"1st Foot"');
    expect(lines[4]).toBe('Dice: 4 · Result: retreat');
    expect(lines[5]).toBe(`Row hash: ${app.ledger.get('g1', id)!.hash}`);
    expect(lines[6]).toMatch(new RegExp(`^Signed by key ${app.signer.fingerprint} at 20`));
    expect(lines[7]).toMatch(/^MO1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const verdict = await checkReceipt(text, trust(app), nodeEd25519);
    expect(verdict.ok).toBe(true);
    expect(verdict.ok && verdict.fields).toMatchObject({ roll: id, dice: [4], result: 'retreat', voided: null, player_id: 'alice' });
    // Wrapped and quoted as a mail client does, it still holds; so does the signed line alone.
    const quoted = text
      .split('\n')
      .map((l) => `> ${l.length > 60 ? `${l.slice(0, 60)}\n> ${l.slice(60)}` : l}`)
      .join('\n');
    expect((await checkReceipt(`Here is my rally:\n${quoted}\n`, trust(app), nodeEd25519)).ok).toBe(true);
    expect((await checkReceipt(lines[7]!, trust(app), nodeEd25519)).ok).toBe(true);
  });

  it('one character changed, in the readable lines or the signed line, or another key: refused, saying why', async () => {
    const app = testApp();
    const id = await rally(app, [4]);
    const text = await receiptOf(app, id);
    const readable = await checkReceipt(text.replace('Dice: 4', 'Dice: 5'), trust(app), nodeEd25519);
    expect(readable).toMatchObject({ ok: false });
    expect(readable.lines[0]).toMatch(
      /^receipt REFUSED: its readable lines were changed: they no longer say what the signed line says\. What was signed:\n.*\nDice: 4 · Result: retreat\n/s,
    );
    const sig = text.slice(0, -3) + (text.at(-3) === 'A' ? 'B' : 'A') + text.slice(-2);
    expect((await checkReceipt(sig, trust(app), nodeEd25519)).lines[0]).toBe(
      `receipt REFUSED: its signature does not hold under key ${app.signer.fingerprint}: the signed line was changed after it was signed, or forged`,
    );
    const mo1 = text.lastIndexOf('MO1.') + 10;
    const payload = text.slice(0, mo1) + (text[mo1] === 'x' ? 'y' : 'x') + text.slice(mo1 + 1);
    expect((await checkReceipt(payload, trust(app), nodeEd25519)).lines[0]).toMatch(
      /^receipt REFUSED: (the MO1 line does not hold|its signature does not hold)/,
    );
    // A receipt of another bot (its own key), checked against this bot's key.
    const other = testApp();
    const forged = await receiptOf(other, await rally(other, [4]));
    expect((await checkReceipt(forged, trust(app), nodeEd25519)).lines[0]).toBe(
      `receipt REFUSED: it is signed by key ${other.signer.fingerprint}, which is not a key you trust (trusted: ${app.signer.fingerprint})`,
    );
    expect((await checkReceipt('no receipt here', trust(app), nodeEd25519)).lines[0]).toBe(
      'receipt REFUSED: there is no MO1 line: paste the whole receipt, its last line included',
    );
  });

  it('a receipt whose first line is dropped or rewritten, then its dice changed, is refused, printing only what was signed; the signed line alone, or the receipt whole, holds', async () => {
    const app = testApp();
    const id = await rally(app, [4]);
    const text = await receiptOf(app, id);
    const lines = text.split('\n');
    const lie = (from: string[]) => from.map((l) => (l.startsWith('Dice: ') ? 'Dice: 6 · Result: rally' : l)).join('\n');
    const dropped = lie(lines.slice(1));
    const rewritten = lie([lines[0]!.replace('position 1', 'position 7'), ...lines.slice(1)]);
    const prefixed = lie([`Receipt: ${lines[0]}`, ...lines.slice(1)]);
    for (const pasted of [dropped, rewritten, prefixed]) {
      const verdict = await checkReceipt(`Hi Bob, my rally:\n${pasted}`, trust(app), nodeEd25519);
      expect(verdict.ok, pasted).toBe(false);
      expect(verdict.lines).toEqual([
        `receipt REFUSED: its readable lines were changed: they no longer say what the signed line says. What was signed:\n${lines.slice(0, 7).join('\n')}\n(paste the receipt whole, from its first line, or its MO1 line alone)`,
      ]);
    }
    // What holds: the signed line alone (its content printed, decoded from it), the receipt whole with an e-mail's words around it.
    const alone = await checkReceipt(lines[7]!, trust(app), nodeEd25519);
    expect(alone.ok && alone.lines.slice(-7)).toEqual(lines.slice(0, 7));
    expect((await checkReceipt(`Hi Bob, my rally:\n\n${text}\n\nCheers`, trust(app), nodeEd25519)).ok).toBe(true);
    // A receipt made before this rule, pasted whole, still holds under its key.
    const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, '../fixtures', name), 'utf8');
    const old = await checkReceipt(fixture('sample-receipt.txt'), [{ public_key: fixture('sample-receipt.key').trim() }], nodeEd25519);
    expect(old.ok).toBe(true);
  });

  it('a sealed roll has a receipt only after its reveal, for a GM too; a voided one says voided', async () => {
    const app = testApp();
    const sealed = await rally(app, [6], { sealed: true });
    for (const who of [alice, gm])
      expect(expectError(await sub(app, who, 'roll', 'receipt', { id: sealed }))).toBe(
        `Roll ${sealed} is sealed: its receipt exists only after its reveal (/reveal id:${sealed}).`,
      );
    expectMessage(await command(app, alice, 'reveal', { id: sealed }));
    const revealed = await checkReceipt(await receiptOf(app, sealed), trust(app), nodeEd25519);
    expect(revealed.ok && revealed.fields).toMatchObject({ dice: [6], result: 'rally' });
    const plain = await rally(app, [1]);
    expectMessage(await command(app, gm, 'void', { id: plain, reason: 'wrong unit' }));
    const text = await receiptOf(app, plain);
    expect(text.split('\n')[4]).toBe('Dice: 1 · Result: rout · VOIDED: wrong unit');
    expect((await checkReceipt(text, trust(app), nodeEd25519)).ok).toBe(true);
  });

  it('after a rotation the old key keeps only its public half; a receipt verifies against the key its guild’s chain records, never an export’s loose key line; /verify key:true shows the key', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'keys.json');
    const first = loadOrCreateKeys(file, '2026-11-01T00:00:00.000Z');
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    const rotated = rotateKeys(file, '2026-11-15T00:00:00.000Z');
    expect(rotated.signer.fingerprint).not.toBe(first.signer.fingerprint);
    expect(rotated.records).toEqual([
      { ...first.records[0], valid_until: '2026-11-15T00:00:00.000Z' },
      { fingerprint: rotated.signer.fingerprint, public_key: rotated.signer.publicKey, valid_from: '2026-11-15T00:00:00.000Z', valid_until: null },
    ]);
    expect(fingerprintOf(first.signer.publicKey)).toBe(first.signer.fingerprint);
    // Rotation is revocation: the retired key's private half is gone from the file.
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { keys: { fingerprint: string; private_key?: string }[] };
    expect(stored.keys.map((k) => [k.fingerprint, k.private_key !== undefined])).toEqual([
      [first.signer.fingerprint, false],
      [rotated.signer.fingerprint, true],
    ]);
    // The bot's own key: /verify key:true, public, with the public half and its fingerprint.
    const app = testApp();
    const shown = expectMessage(await command(app, alice, 'verify', { key: true }));
    expect(shown.type === 'message' && shown.ephemeral).toBe(false);
    expect(shown.embed.description).toContain(`Key in use: \`${app.signer.fingerprint}\``);
    expect(shown.embed.description).toContain(`Public key: \`${app.signer.publicKey}\``);
    // The first receipt puts the key on the guild's chain; an export of it is the key's proof.
    const id = await rally(app, [4]);
    const receipt = await receiptOf(app, id);
    const exported = await command(app, gm, 'export', {});
    if (exported.type !== 'message') throw new Error(JSON.stringify(exported));
    const jsonl = exported.files!.find((f) => f.name.endsWith('.jsonl'))!;
    const report = verifyExport(fs.readFileSync((jsonl as { path: string }).path, 'utf8'), { receiptRoll: id });
    expect(report.ok).toBe(true);
    expect(report.keys.chained).toEqual([
      { guildId: 'g1', fingerprint: app.signer.fingerprint, public_key: app.signer.publicKey, valid_from: expect.any(String), row: expect.any(String) },
    ]);
    expect(report.lines).toContain(
      `receipt key ${app.signer.fingerprint}: ${app.signer.publicKey}, on the chain of guild g1 since ${report.keys.chained[0]!.valid_from} (row ${report.keys.chained[0]!.row})`,
    );
    const evidence = { keys: report.keys.chained, roll: report.receiptRoll };
    expect((await checkReceipt(receipt, [], nodeEd25519, evidence)).lines.slice(0, 2)).toEqual([
      `receipt valid: roll ${id} signed by key ${app.signer.fingerprint}`,
      'the roll is in the export loaded, with the same row hash',
    ]);
    // The loose key lines alone trust nothing.
    expect((await checkReceipt(receipt, [], nodeEd25519, { keys: [], roll: report.receiptRoll })).ok).toBe(false);
  });
});
