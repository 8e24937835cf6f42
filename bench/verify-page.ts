import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { writeExport } from '../src/core/export-files.js';
import { Ledger } from '../src/ledger/ledger.js';
import { BIG_GUILD, UNLIMITED } from './big-server.js';
import { fmt, type Line, repeated } from './repeat.js';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = path.resolve(import.meta.dirname, '..');

/** The big server's whole export, as /export writes it (in this thread: nothing else runs). */
async function exportOf(ledgerFile: string): Promise<string> {
  const ledger = Ledger.open(ledgerFile);
  try {
    const result = await writeExport(ledger.history, { filter: { guildId: BIG_GUILD, kinds: 'all' }, limit: UNLIMITED, stamp: 'bench' });
    if (!result.ok) throw new Error('the bench export passed its limit');
    return result.files.find((f) => f.name.endsWith('.jsonl'))!.path;
  } finally {
    ledger.close();
  }
}

/** The page's own time (reported by its worker), and the longest gap of a 20 ms timer on its thread while it ran. */
async function inChromium(file: string): Promise<{ ms: number; gap: number; verdict: string | null }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(path.join(ROOT, 'dist/verify.html')).href);
    await page.evaluate(() => {
      const w = globalThis as unknown as { gap: number; last: number };
      w.gap = 0;
      w.last = performance.now();
      setInterval(() => {
        const t = performance.now();
        w.gap = Math.max(w.gap, t - w.last);
        w.last = t;
      }, 20);
    });
    await page.setInputFiles('#file', file);
    await page.click('#check');
    await page.waitForSelector('body[data-done="true"]', { timeout: 1_800_000 });
    const status = (await page.textContent('#status')) ?? '';
    return {
      ms: Number(/Done in (\d+) ms/.exec(status)?.[1]),
      gap: await page.evaluate(() => (globalThis as unknown as { gap: number }).gap),
      verdict: await page.textContent('#verdict'),
    };
  } finally {
    await browser.close();
  }
}

/**
 * verify.html on the big server's export, against `npm run verify` (the built Node verifier) on the
 * same file: both must say it holds; the page's thread must stay responsive while its worker reads.
 */
export async function verifyPageLine(ledgerFile: string, rows: number): Promise<Line[]> {
  if (!fs.existsSync(CHROMIUM)) {
    process.stderr.write('*** verify.html line SKIPPED: Chromium is not installed here ***\n');
    return [];
  }
  const file = await exportOf(ledgerFile);
  const mb = fs.statSync(file).size / 2 ** 20;
  let bothHold = true;
  const { med, spread } = await repeated(async () => {
    const t = performance.now();
    const node = await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist/src/verify/main.js'), file], { maxBuffer: 1 << 26, timeout: 1_800_000 });
    const nodeMs = performance.now() - t;
    const page = await inChromium(file);
    bothHold &&= node.stdout.includes('verified: all holds') && page.verdict === 'Verified: all holds.';
    return { ms: page.ms, gap: page.gap, nodeMs, ratio: page.ms / nodeMs };
  });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  return [
    {
      what: `verify.html on an export of ${fmt(rows)} rows (${fmt(mb, 0)} MB), in Chromium`,
      ours: `${fmt(med.ms / 1000, 1)} s; longest pause of the page's thread ${fmt(med.gap, 0)} ms`,
      baseline: `${fmt(med.nodeMs / 1000, 1)} s npm run verify on the same file`,
      ratio: med.ratio,
      spread,
      target: 'both verify; page thread pauses ≤ 200 ms',
      met: bothHold && med.gap <= 200,
    },
  ];
}
