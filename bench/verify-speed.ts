import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { writeExport } from '../src/core/export-files.js';
import { Ledger } from '../src/ledger/ledger.js';
import { BIG_GUILD, UNLIMITED } from './big-server.js';
import { fmt, type Line, ratioLine, repeated } from './repeat.js';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

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

/** Raw SHA-256 over the file's bytes, one thread, streamed as a checksum tool reads it: the speed a verifier is held to. */
async function rawSha256(file: string): Promise<number> {
  const t = performance.now();
  const h = createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
  h.digest();
  return performance.now() - t;
}

/** `npm run verify` as a player runs it; and its peak memory, from the same verifyFile in a process that reports its own. */
async function inNode(file: string): Promise<{ ms: number; rss: number; holds: boolean }> {
  const t = performance.now();
  const { stdout } = await run(process.execPath, [path.join(ROOT, 'dist/src/verify/main.js'), file], { maxBuffer: 1 << 26, timeout: 1_800_000 });
  const ms = performance.now() - t;
  const probe = await run(process.execPath, [path.join(ROOT, 'bench/verify-rss-child.mjs'), file], { timeout: 1_800_000 });
  const mem = JSON.parse(probe.stdout) as { ok: boolean; rss: number };
  return { ms, rss: mem.rss / 1024, holds: stdout.includes('verified: all holds') && mem.ok };
}

/**
 * The page's own time (reported by its worker), the longest gap of a 20 ms timer on its thread while
 * it ran, and raw SHA-256 over the same file in the same page (WebCrypto, reading the file included).
 */
export async function inChromium(file: string): Promise<{ ms: number; gap: number; rawMs: number; holds: boolean }> {
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
    const gap = await page.evaluate(() => (globalThis as unknown as { gap: number }).gap);
    const rawMs = await page.evaluate(async () => {
      type Page = { document: { querySelector(s: string): { files: Blob[] } } };
      const input = (globalThis as unknown as Page).document.querySelector('#file');
      // In slices: Chromium reads no file of 2 GiB or more into one ArrayBuffer (NotReadableError),
      // and the export passed that size once person fields were committed. The same bytes hashed.
      const whole = input.files[0]!;
      const slice = 256 * 2 ** 20;
      const t = performance.now();
      for (let at = 0; at < whole.size; at += slice) await crypto.subtle.digest('SHA-256', await whole.slice(at, at + slice).arrayBuffer());
      return performance.now() - t;
    });
    return { ms: Number(/Done in (\d+) ms/.exec(status)?.[1]), gap, rawMs, holds: (await page.textContent('#verdict')) === 'Verified: all holds.' };
  } finally {
    await browser.close();
  }
}

/**
 * The verifiers' speed: `npm run verify` and verify.html on the big server's export, each against raw
 * SHA-256 over the same file bytes in its own runtime, in the same trial (ratio = our MB/s over
 * raw MB/s). Both must say the export holds; the page's thread must stay responsive.
 */
export async function verifyLines(ledgerFile: string, rows: number): Promise<Line[]> {
  const file = await exportOf(ledgerFile);
  const mb = fs.statSync(file).size / 1e6;
  const what = `of an export of ${fmt(rows)} rows (${fmt(mb, 0)} MB)`;
  let holds = true;
  const node = await repeated(async () => {
    const raw = await rawSha256(file);
    const ours = await inNode(file);
    holds &&= ours.holds;
    return { ms: ours.ms, raw, rss: ours.rss, ratio: raw / ours.ms };
  });
  const lines: Line[] = [
    ratioLine(
      `npm run verify ${what}`,
      node.med.ratio,
      node.spread,
      {
        ours: `${fmt(mb / (node.med.ms / 1000))} MB/s (${fmt(node.med.ms / 1000, 2)} s; peak memory ${fmt(node.med.rss)} MiB)`,
        baseline: `${fmt(mb / (node.med.raw / 1000))} MB/s raw SHA-256 (node:crypto, one thread)`,
        detail: holds ? undefined : 'the export did NOT verify',
      },
      ['≥', 0.15],
    ),
  ];
  if (!holds) lines[0]!.met = false;
  if (!fs.existsSync(CHROMIUM)) {
    process.stderr.write('*** verify.html line SKIPPED: Chromium is not installed here ***\n');
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    return lines;
  }
  let pageHolds = true;
  const page = await repeated(async () => {
    const p = await inChromium(file);
    pageHolds &&= p.holds;
    return { ms: p.ms, gap: p.gap, raw: p.rawMs, ratio: p.rawMs / p.ms };
  });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  lines.push({
    what: `verify.html ${what}, in Chromium`,
    ours: `${fmt(mb / (page.med.ms / 1000))} MB/s (${fmt(page.med.ms / 1000, 2)} s; longest pause of the page's thread ${fmt(page.med.gap)} ms)`,
    baseline: `${fmt(mb / (page.med.raw / 1000))} MB/s raw SHA-256 in the same page (WebCrypto)`,
    ratio: page.med.ratio,
    spread: page.spread,
    target: '≥ 0.15; both verify; page thread pauses ≤ 200 ms',
    met: pageHolds && page.med.ratio >= 0.15 && page.med.gap <= 200,
    detail: `verify.html ${fmt(page.med.ms / 1000, 2)} s against npm run verify ${fmt(node.med.ms / 1000, 2)} s on the same file`,
  });
  return lines;
}
