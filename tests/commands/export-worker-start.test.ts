import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exportLedger } from '../../src/core/export-files.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { removeSpooled } from '../../src/util/spool.js';
import { alice, command, testApp } from '../helpers/app.js';

// An export's worker reads its code from disk when it starts, long after the bot read its own. A
// file of its graph changed in between (a build over a running bot, a working tree edited while
// the bench ran: twice "Something went wrong" from /export in the stall line) leaves it unable to
// load; the GM's export is written all the same, by the code the bot runs.
describe('an export whose worker cannot start', () => {
  it('is written on the main thread, whole, and the failure is logged', async () => {
    const app = testApp();
    for (let i = 0; i < 40; i++) {
      app.dice.push(3);
      expect((await command(app, alice, 'rally', { disorder: 2, unit: `Line ${i}` })).type).toBe('message');
    }
    // The worker as it loads mid-change: its graph no longer exports what it imports.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'morale-officer-worker-'));
    const worker = path.join(dir, 'export-worker.ts');
    fs.writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
    const from = pathToFileURL(path.resolve('src/core/export-files.ts')).href;
    fs.writeFileSync(worker, `import { writeExportAsItWas } from ${JSON.stringify(from)};\nwriteExportAsItWas();\n`);
    try {
      const job = { filter: { guildId: alice.guildId, kinds: 'all' as const }, limit: 1 << 22, stamp: 'start' };
      const result = await exportLedger(sqliteStore(app.ledger), job, { log: app.log, worker: pathToFileURL(worker) });
      if (!result.ok) throw new Error('the export did not fit');
      expect(result.rows).toBe(40);
      const jsonl = fs.readFileSync(result.files.find((f) => f.name.endsWith('.jsonl'))!.path, 'utf8');
      expect(jsonl.trim().split('\n')).toHaveLength(40);
      await Promise.all(result.files.map((f) => removeSpooled(f.path)));
      const warned = app.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'the export worker failed; the export is written on the main thread instead');
      expect(warned).toHaveLength(1);
      expect(JSON.stringify(warned[0].err)).toContain('writeExportAsItWas');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      app.ledger.close();
    }
  });
});
