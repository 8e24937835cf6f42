import { beforeAll, describe, expect, it } from 'vitest';
import { verifyExport } from '../../src/verify/verify-export.js';
import { attachmentData, type Reply } from '../../src/core/command.js';
import { sealCommitment } from '../../src/ledger/chain.js';
import { alice, command, expectMessage, gm, press, rollWith, subcommand, testApp } from '../helpers/app.js';
import { installThrough, nervePack } from '../helpers/packs.js';
import { lf, packExport, rehash, rowsOf, tamperPacks } from '../helpers/verify-corpus.js';

// Every pack roll re-adjudicated from its dice, its input and the pack row it names. The
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

/** An export with a pack re-roll: in turn 1, a passed will test (it offers none), a failed one, and its re-roll. */
async function rerollExport(): Promise<string> {
  const app = testApp();
  expectMessage(await subcommand(app, gm, 'pack', 'install', { example: 'd20-will-save' }));
  expectMessage(await subcommand(app, alice, 'game', 'start', { system: 'd20-will-test', name: 'Long Night' }));
  expectMessage(await subcommand(app, alice, 'game', 'turn', { number: 1 }));
  await rollWith(app, 'd20-will-test', { will: 0 }, [18]);
  const failed = await rollWith(app, 'd20-will-test', { will: 0 }, [5]);
  app.dice.push(17);
  expectMessage(await press(app, alice, failed.buttons[0]!.custom_id));
  const exported = (await command(app, gm, 'export', {})) as Extract<Reply, { type: 'message' }>;
  app.ledger.close();
  return attachmentData(exported.files!.find((f) => f.name.endsWith('.jsonl'))!).toString();
}

describe("a pack's re-roll in an export", () => {
  let exported: string;
  beforeAll(async () => {
    exported = await rerollExport();
  });
  /** The export with its re-roll row changed, every hash made whole again. */
  const forged = (change: (reroll: any, rolls: any[]) => void) => {
    const all = rowsOf(exported);
    const rolls = all.filter((r) => r.system === 'pack:d20-will-test' && r.kind === 'roll');
    const reroll = all.find((r) => r.kind === 'reroll')!;
    change(reroll, rolls);
    return { report: verifyExport(lf(rehash(all))), id: reroll.id as string, rolls };
  };

  it('holds: a re-roll the failed roll offered, in its turn', () => {
    const report = verifyExport(exported);
    expect(report.ok).toBe(true);
    expect(report.lines).toContain('pack rolls: 3 re-adjudicated from their dice, input and pack row; all hold');
  });

  it('a re-roll moved onto the passed roll, which offered none, is named', () => {
    const { report, id, rolls } = forged((reroll, [passed]) => {
      reroll.parent_id = reroll.input.reroll.of = passed.id;
    });
    expect(report.ok).toBe(false);
    expect(report.lines).toContain(`pack roll ${id}: FAILED: it is recorded as a re-roll of ${rolls[0]!.id}, whose result pass offers no re-roll`);
  });

  it('a re-roll made after its turn was over is named', () => {
    const { report, id, rolls } = forged((reroll) => {
      reroll.turn = 2;
    });
    expect(report.lines).toContain(
      `pack roll ${id}: FAILED: it is recorded as a re-roll of ${rolls[1]!.id}, made in turn 2, after the offer lapsed with turn 1`,
    );
  });

  it('a re-roll taken by another than the roll’s owner is named', () => {
    const { report, id, rolls } = forged((reroll) => {
      reroll.user_id = 'someone-else';
    });
    expect(report.lines).toContain(
      `pack roll ${id}: FAILED: it is recorded as a re-roll of ${rolls[1]!.id}, made by another than the roll's owner, who alone may take it`,
    );
  });

  it('a parent whose outcome cannot be read is named, not thrown', () => {
    const { report, id, rolls } = forged((_reroll, [, failed]) => {
      failed.outcome.steps[0].result = 1;
    });
    expect(report.ok).toBe(false);
    expect(
      report.lines.some((l) =>
        l.startsWith(`pack roll ${id}: FAILED: it is recorded as a re-roll of ${rolls[1]!.id}, whose recorded outcome cannot be read (`),
      ),
    ).toBe(true);
  });

  it('a re-roll of a roll a GM had voided is named', async () => {
    // The void made after the re-roll (allowed), then moved before it by a forger who rehashes the chain.
    const app = testApp();
    expectMessage(await subcommand(app, gm, 'pack', 'install', { example: 'd20-will-save' }));
    const failed = await rollWith(app, 'd20-will-test', { will: 0 }, [5]);
    app.dice.push(17);
    expectMessage(await press(app, alice, failed.buttons[0]!.custom_id));
    expectMessage(await command(app, gm, 'void', { id: failed.record!.roll_id, reason: 'wrong unit' }));
    const exported = (await command(app, gm, 'export', {})) as Extract<Reply, { type: 'message' }>;
    app.ledger.close();
    const all = rowsOf(attachmentData(exported.files!.find((f) => f.name.endsWith('.jsonl'))!).toString());
    const at = (kind: string) => all.findIndex((r) => r.kind === kind);
    const [reroll, voided] = [all[at('reroll')]!, all[at('void')]!];
    [voided.guild_seq, reroll.guild_seq] = [reroll.guild_seq, voided.guild_seq];
    all.splice(at('void'), 1);
    all.splice(at('reroll'), 0, voided);
    const report = verifyExport(lf(rehash(all)));
    expect(report.lines).toContain(
      `pack roll ${reroll.id}: FAILED: it is recorded as a re-roll of ${failed.record!.roll_id}, a voided roll, which offers no re-roll`,
    );
  });

  it('a re-roll naming no roll before it is named', () => {
    const { report, id } = forged((reroll) => {
      reroll.parent_id = reroll.input.reroll.of = 'nothing';
    });
    expect(report.lines).toContain(`pack roll ${id}: FAILED: it is recorded as a re-roll of nothing, which is no pack roll before it on its server's chain`);
  });
});
