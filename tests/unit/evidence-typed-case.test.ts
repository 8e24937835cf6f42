import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { snowflakeAt } from '../../src/beacon/chain.js';
import { exportLedger } from '../../src/core/export-files.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { verifyExport } from '../../src/verify/verify-export.js';
import { alice, testApp } from '../helpers/app.js';
import { fakeDiscordKey } from '../helpers/beacon-game.js';

// A player types a roster unit's name in another case, or with spaces around it: the signed request
// holds it as typed, and an honest row must still verify (the verifier folds no case, so the row keeps
// what was typed, or names it as the bot's filling).
describe('a unit named as the player typed it', () => {
  it('verifies in a game with signed requests, whatever case and spacing the player typed', async () => {
    const app = testApp();
    const key = fakeDiscordKey();
    let n = 0;
    const signed = async (name: string, options: Record<string, unknown>, subcommand?: string) => {
      const req = { name, options, actor: alice, interactionId: snowflakeAt(Date.now(), ++n), ...(subcommand ? { subcommand } : {}) };
      return app.router.handle({ type: 'command', ...req, evidence: key.sign(req, Date.now()) });
    };
    expect((await signed('game', { system: 'hearts-of-tin', name: 'Ligny' }, 'start')).type).toBe('message');
    expect((await signed('unit', { name: '1st Foot', fields: 'disorder:1 quality:regular original:4 strength:4' }, 'add')).type).toBe('message');
    app.dice.push(4);
    expect((await signed('rally', { unit: '1st foot' })).type).toBe('message');
    app.dice.push(5);
    expect((await signed('rally', { unit: '  1ST FOOT ', disorder: 2 })).type).toBe('message');
    const result = await exportLedger(sqliteStore(app.ledger), {
      filter: { guildId: alice.guildId, kinds: 'all' },
      limit: 1 << 22,
      stamp: 'case',
      now: Date.now() + 16 * 60_000,
    });
    if (!result.ok) throw new Error('the export did not fit');
    const report = verifyExport(fs.readFileSync(result.files.find((f) => f.name.endsWith('.jsonl'))!.path));
    expect(report.lines.join('\n')).not.toContain('FAILED');
    expect(report.lines.join('\n')).toMatch(/: 2 rolls numbered 1\.\.2; 6 rows signed by Discord under application key/);
    expect(report.ok).toBe(true);
    app.ledger.close();
  });
});
