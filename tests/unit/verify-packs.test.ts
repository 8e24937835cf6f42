import { beforeAll, describe, expect, it } from 'vitest';
import { verifyExport } from '../../src/verify/verify-export.js';
import { attachmentData, type Reply } from '../../src/core/command.js';
import { sealCommitment } from '../../src/ledger/chain.js';
import { alice, command, expectMessage, gm, testApp } from '../helpers/app.js';
import { installThrough, nervePack } from '../helpers/packs.js';
import { lf, packExport, rehash, rowsOf, tamperPacks } from '../helpers/verify-corpus.js';

// Issue 42: every pack roll re-adjudicated from its dice, its input and the pack row it names. The
// whole corpus goes through the CLI and verify.html in tests/e2e/verify-differential.e2e.test.ts;
// here the same checks in-process, each forgery with the sentence that names it.

let text: string;
beforeAll(async () => {
  text = await packExport();
});

describe('pack rolls in an export', () => {
  it('hold, each re-adjudicated', () => {
    const report = verifyExport(text);
    expect(report.ok).toBe(true);
    expect(report.lines).toContain('pack rolls: 2 re-adjudicated from their dice, input and pack row; all hold');
  });

  it('a result edited under unchanged dice is named, with what the dice give', () => {
    let id = '';
    const report = verifyExport(
      tamperPacks(text, (_p, pass) => {
        id = pass.id;
        pass.result = pass.outcome.result = pass.outcome.steps[0].result = 'fail';
      }),
    );
    expect(report.ok).toBe(false);
    expect(report.lines).toContain(`pack roll ${id}: FAILED: recorded fail, but its dice and input give pass under pack nerve-test version 1`);
  });

  it('a follow-up edited: the panic table’s die changed, its result left', () => {
    const report = verifyExport(tamperPacks(text, (_p, _pass, panic) => (panic.dice = [6, 6, 5])));
    expect(report.lines.some((l) => l.endsWith('recorded panic → routs, but its dice and input give panic → holds_on under pack nerve-test version 1'))).toBe(
      true,
    );
  });

  it('a pack row of another server is not the roll’s, whatever its id', () => {
    // The pack row moved to a forged guild's own chain: the roll names its id, but not on its server.
    const report = verifyExport(tamperPacks(text, (p) => (p.guild_id = 'forged-guild')));
    expect(report.lines.filter((l) => l.includes("is not on its server's chain"))).toHaveLength(2);
  });

  it('a pack row edited, or a roll pointed elsewhere, is named', () => {
    expect(
      verifyExport(tamperPacks(text, (p) => (p.input.pack.version = 2))).lines.some((l) => l.endsWith('its pack does not hash to the SHA-256 it records')),
    ).toBe(true);
    expect(
      verifyExport(tamperPacks(text, (_p, pass) => (pass.input.pack.row = 'nosuchrow0'))).lines.some((l) =>
        l.endsWith("the pack row it names (nosuchrow0) is not on its server's chain"),
      ),
    ).toBe(true);
  });
});

describe('a sealed pack roll', () => {
  it('is re-adjudicated from what its reveal publishes; a payload re-sealed by a forger is named', async () => {
    const app = testApp();
    await installThrough(app.router, nervePack());
    app.dice.push(3, 3);
    const sealed = expectMessage(await command(app, alice, 'nerve-test', { nerve: 7, sealed: true }));
    expectMessage(await command(app, alice, 'reveal', { id: sealed.record!.roll_id }));
    const exported = (await command(app, gm, 'export', {})) as Extract<Reply, { type: 'message' }>;
    app.ledger.close();
    const text = attachmentData(exported.files!.find((f) => f.name.endsWith('.jsonl'))!).toString();
    expect(verifyExport(text).lines).toContain('pack rolls: 1 re-adjudicated from their dice, input and pack row; all hold');
    // The forger edits the published payload, seals it again under the same salt, and rehashes the chain.
    const all = rowsOf(text);
    const roll = all.find((r) => r.id === sealed.record!.roll_id)!;
    const reveal = all.find((r) => r.kind === 'reveal')!;
    const payload = { ...reveal.input.payload, result: 'fail', outcome: { ...reveal.input.payload.outcome, result: 'fail' } };
    payload.outcome.steps = [{ ...payload.outcome.steps[0], result: 'fail' }];
    reveal.input.payload = payload;
    roll.outcome.commitment = sealCommitment(reveal.input.salt, payload);
    const report = verifyExport(lf(rehash(all)));
    expect(report.lines).toContain(`pack roll ${roll.id}: FAILED: recorded fail, but its dice and input give pass under pack nerve-test version 1`);
  });
});
