import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { snowflakeAt } from '../../src/beacon/chain.js';
import { exportLedger } from '../../src/core/export-files.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { RangeWalk, verifyExport } from '../../src/verify/verify-export.js';
import { alice, testApp } from '../helpers/app.js';
import { fakeDiscordKey } from '../helpers/beacon-game.js';

// Discord's signed requests behind rows. A verifier holds only those it checks (rows of a
// game), never one per plain roll, so its memory does not grow with an HTTP bot's export; and a
// request's body, which holds its reply token, never reaches the log, even when its command fails.
describe('signed requests', () => {
  it('a verifier holds the evidence of game rows, not of plain rolls', async () => {
    const app = testApp();
    const key = fakeDiscordKey();
    let n = 0;
    const signed = (name: string, options: Record<string, unknown>, subcommand?: string) => {
      const req = { name, options, actor: alice, interactionId: snowflakeAt(Date.now(), ++n), ...(subcommand ? { subcommand } : {}) };
      return app.router.handle({ type: 'command', ...req, evidence: key.sign(req, Date.now()) });
    };
    for (let i = 0; i < 30; i++) {
      app.dice.push(3, 4);
      expect((await signed('dr', {})).type).toBe('message');
    }
    expect((await signed('game', { system: 'hearts-of-tin', name: 'Ligny' }, 'start')).type).toBe('message');
    const result = await exportLedger(sqliteStore(app.ledger), {
      filter: { guildId: alice.guildId, kinds: 'all' },
      limit: 1 << 22,
      stamp: 'held',
      now: Date.now() + 16 * 60_000,
    });
    if (!result.ok) throw new Error('the export did not fit');
    const text = fs.readFileSync(result.files.find((f) => f.name.endsWith('.jsonl'))!.path);
    expect(text.toString().match(/^\{"evidence"/gm)).toHaveLength(31);
    const walk = new RangeWalk();
    walk.push(text);
    expect(walk.finish().evidence.size).toBe(1);
    expect(verifyExport(text).lines.join('\n')).toContain(`1 row signed by Discord under application key ${key.publicHex}`);
    app.ledger.close();
  });

  it("a failing command's log line names the request without its signed body", async () => {
    const app = testApp();
    const req = { name: 'dr', options: {}, actor: alice, interactionId: snowflakeAt(Date.now(), 1) };
    const evidence = fakeDiscordKey().sign(req, Date.now());
    // No die pinned: the roll fails, and the failure is logged with the request.
    const failed = await app.router.handle({ type: 'command', ...req, evidence });
    expect(failed.type).toBe('error');
    const logged = app.logs.join('\n');
    expect(logged).toContain('handler failed');
    expect(logged).not.toContain(evidence.body.slice(0, 40));
    expect(logged).not.toContain('token-of-');
    app.ledger.close();
  });
});
