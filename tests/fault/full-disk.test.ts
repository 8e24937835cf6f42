import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/app.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { sqliteStore } from '../../src/ledger/store.js';
import { createLogger } from '../../src/log.js';
import { Metrics } from '../../src/ops/metrics.js';
import { startOpsServer } from '../../src/ops/ops-http.js';
import { readiness } from '../../src/ops/readiness.js';
import { alice, expectError, expectMessage, queueRoller } from '../helpers/app.js';

// On a full disk /readyz said 200 and "writable": true while every roll was refused: its
// probe opened and closed a write transaction, which writes no page. It now checks the room on the
// ledger's disk against a margin (and takes the write lock). A real, small disk: a tmpfs of 96 MiB.
const disk = fs.mkdtempSync(path.join(os.tmpdir(), 'morale-officer-disk-'));
const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', disk]).status === 0;
if (!mounted) console.warn('\n*** No tmpfs can be mounted here (not root): the full-disk tests are SKIPPED. ***\n');
afterAll(() => {
  if (mounted) spawnSync('umount', ['-l', disk]);
  fs.rmSync(disk, { recursive: true, force: true });
});

/** Fills the disk with a file until `leave` bytes are free (0: until the disk refuses). */
function fill(file: string, leave: number) {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(1024 * 1024, 1);
  try {
    for (;;) {
      const s = fs.statfsSync(path.dirname(file));
      const free = s.bavail * s.bsize;
      if (free <= leave) break;
      fs.writeSync(fd, chunk, 0, Math.min(chunk.length, free - leave));
    }
  } catch {
    // ENOSPC: full.
  } finally {
    fs.closeSync(fd);
  }
}

describe.skipIf(!mounted)('readiness on a filling disk (a real tmpfs)', () => {
  it('503 with the reason once room runs under the margin, before rolls fail; a full disk refuses rolls and stays 503; freed, ready again', async () => {
    const file = path.join(disk, 'ledger.db');
    const store = sqliteStore(Ledger.open(file));
    const dice = queueRoller();
    const router = createRouter({ ledger: store, log: createLogger({ level: 'silent' }), roller: dice, gameRoller: () => dice });
    const ops = await startOpsServer({
      port: 0,
      ops: { metrics: new Metrics(), readiness: () => readiness('gateway', () => true, store) },
      log: createLogger({ level: 'silent' }),
    });
    const readyz = async () => {
      const r = await fetch(`http://127.0.0.1:${ops.port()}/readyz`);
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    };
    expect(await readyz()).toEqual({ status: 200, body: { ready: true, mode: 'gateway', serving: true, writable: true } });

    const filler = path.join(disk, 'filler');
    fill(filler, 16 * 1024 * 1024);
    const low = await readyz();
    expect(low.status).toBe(503);
    expect(low.body).toMatchObject({ ready: false, serving: true, writable: false });
    expect(low.body.reason).toMatch(
      /^the ledger is not writable: the disk holding the ledger has 1[0-6]\.\d MiB free, under the 64\.0 MiB it keeps for writes: free some space$/,
    );
    // Rolls still land under the margin: readiness warns first.
    dice.push(4, 3);
    expect(
      expectMessage(await router.handle({ type: 'command', name: 'dr', options: { category: 'IFT', note: 'x'.repeat(150) }, actor: alice })).record,
    ).toBeDefined();

    fs.rmSync(filler);
    fill(filler, 0);
    let refused: string | undefined;
    for (let i = 0; i < 50 && !refused; i++) {
      dice.clear();
      dice.push(4, 3);
      const r = await router.handle({ type: 'command', name: 'dr', options: { category: 'IFT', note: 'y'.repeat(190) }, actor: alice });
      if (r.type === 'error') refused = expectError(r);
    }
    expect(refused).toMatch(/could not be recorded/);
    expect((await readyz()).status).toBe(503);

    fs.rmSync(filler);
    expect(await readyz()).toEqual({ status: 200, body: { ready: true, mode: 'gateway', serving: true, writable: true } });
    expect(await store.verifyInChunks('g1')).toMatchObject({ ok: true });
    await ops.stop();
    await store.close();
  }, 120_000);
});
