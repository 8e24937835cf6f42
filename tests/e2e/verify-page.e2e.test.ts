import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateKeys, nodeEd25519 } from '../../src/ops/signing-key.js';
import { checkReceipt, receiptPayload, receiptText, type ReceiptFields } from '../../src/verify/receipt.js';
import { verifyExport } from '../../src/verify/verify-export.js';
import { exportFixtures } from '../helpers/export-fixtures.js';
import { tmpDir } from '../helpers/tmp.js';
import { APP, checkOnPage, haveChromium, launchChromium, PAGE, type PageCheck } from '../helpers/verify-page.js';
import { alice, command, gm, testApp } from '../helpers/app.js';
import { attachmentData } from '../../src/core/command.js';

// verify.html (dist/verify.html, as `npm run build` makes it) in real Chromium (Debian's
// package, installed by .ci/run), opened from file://, on the same fixtures as the Node verifier:
// the same verdict and the same lines, row named for row named; and not one network request.
if (!haveChromium) console.warn('\n*** Chromium is not installed here: the verify.html tests are SKIPPED (CI installs Debian chromium). ***\n');

let browser: Browser;
const requests: string[] = [];
beforeAll(async () => {
  if (haveChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => browser?.close());

/** A fresh page on verify.html, in a browser of this language, that records every request other than the page itself. */
async function open(locale = 'en-US', options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ ...options, locale });
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url !== PAGE && !url.startsWith('blob:')) requests.push(url);
    return url === PAGE || url.startsWith('blob:') ? route.continue() : route.abort();
  });
  const page = await context.newPage();
  await page.goto(PAGE);
  return page;
}

const check = (page: Page, o: PageCheck) => checkOnPage(page, o, 60_000);

/** A roll made through the router, its receipt as /roll receipt shows it, and the server's export written to `file`. */
async function rolledExport(file: string) {
  const app = testApp();
  app.dice.push(4);
  const rolled = await command(app, alice, 'rally', { disorder: 1, unit: 'Rifles' });
  const id = rolled.type === 'message' ? rolled.record!.roll_id : '';
  const shown = await app.router.handle({ type: 'command', name: 'roll', subcommand: 'receipt', options: { id }, actor: alice });
  const receipt = /```\n([\s\S]*?)\n```/.exec(shown.type === 'message' ? shown.embed.description! : '')![1]!;
  const exported = await command(app, gm, 'export', {});
  const jsonl = exported.type === 'message' ? exported.files!.find((f) => f.name.endsWith('.jsonl'))! : undefined;
  fs.writeFileSync(file, attachmentData(jsonl!));
  return { app, id, receipt };
}

describe.skipIf(!haveChromium)('verify.html in Chromium', () => {
  it('speaks the browser’s language (German, French; English otherwise); the report’s lines stay those of npm run verify', async () => {
    const file = path.join(tmpDir(), 'export.jsonl');
    const [fixture] = await exportFixtures();
    fs.writeFileSync(file, fixture!.text);
    const node = verifyExport(fixture!.text, fixture!.head ? { head: fixture!.head } : {});
    for (const [locale, heading, verdict] of [
      ['de-AT', 'Morale Officer · prüfe ein Spiel, das du erhalten hast', node.ok ? 'Geprüft: alles hält.' : 'NICHT bestätigt: siehe den Bericht.'],
      ['fr-CA', 'Morale Officer · vérifie une partie qu’on t’a envoyée', node.ok ? 'Vérifié\u202f: tout tient.' : 'NON vérifié\u202f: vois le rapport.'],
      ['ja', 'Morale Officer · check a game you were sent', node.ok ? 'Verified: all holds.' : 'NOT verified: see the report.'],
    ] as const) {
      const page = await open(locale);
      expect(await page.textContent('h1')).toBe(heading);
      expect(await page.getAttribute('html', 'lang')).toBe(locale.slice(0, 2) === 'ja' ? 'en' : locale.slice(0, 2));
      const got = await check(page, { file, ...(fixture!.head ? { head: fixture!.head } : {}) });
      expect(got.verdict).toBe(verdict);
      expect(got.report.slice(0, -1)).toEqual(node.lines);
      await page.context().close();
    }
  });

  it('is one self-contained file: no external script, style or link, and a policy that allows no request', () => {
    const html = fs.readFileSync(path.join(APP, 'dist/verify.html'), 'utf8');
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; worker-src blob:;`,
    );
    // No address at all but the SVG namespace and hash-wasm's licence notice (a comment esbuild keeps).
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.w3\.org|www\.npmjs\.com\/package\/hash-wasm\))/);
  });

  it('gives exactly the Node verifier report on every fixture, and makes no network request', async () => {
    const dir = tmpDir();
    for (const f of await exportFixtures()) {
      const file = path.join(dir, `${f.name.replace(/\W+/g, '-')}.jsonl`);
      fs.writeFileSync(file, f.text);
      const node = verifyExport(f.text, f.head ? { head: f.head } : {});
      const page = await open();
      const got = await check(page, { file, ...(f.head ? { head: f.head } : {}) });
      expect(got.report, f.name).toEqual([...node.lines, node.ok ? 'verified: all holds' : 'NOT verified: see above']);
      expect(got.report.join('\n'), f.name).toContain(f.says);
      expect(got.verdict, f.name).toBe(f.ok ? 'Verified: all holds.' : 'NOT verified: see the report.');
      await page.context().close();
    }
    // The check can fail: a request the page tried would reach the route and be recorded; its
    // policy stops one before it is made.
    const probe = await open();
    expect(
      await probe.evaluate(() =>
        fetch('http://127.0.0.1:9/probe').then(
          () => 'fetched',
          () => 'refused',
        ),
      ),
    ).toBe('refused');
    await probe.context().close();
    expect(requests).toEqual([]);
  }, 120_000);

  it('checks a receipt as npm run verify does: valid, one character changed, signed by another key', async () => {
    const dir = tmpDir();
    const bot = loadOrCreateKeys(path.join(dir, 'bot.json'));
    const other = loadOrCreateKeys(path.join(dir, 'other.json'));
    const fields: ReceiptFields = {
      v: 1,
      roll: 'abc123defg',
      guild: '900000000000000001',
      seq: 7,
      game: 'g0g0g0g0g0',
      game_name: 'Arnhem',
      turn: 3,
      phase: 'rally',
      player: 'Alice',
      player_id: '300000000000000001',
      command: '/rally disorder:2',
      dice: [4],
      result: 'retreat',
      voided: null,
      hash: 'ab'.repeat(32),
      at: '2026-12-01T10:00:00.000Z',
      signed_at: '2026-12-01T10:05:00.000Z',
      key: bot.signer.fingerprint,
    };
    const valid = receiptText(fields, bot.signer.sign(receiptPayload(fields)));
    const forged = receiptText({ ...fields, key: other.signer.fingerprint }, other.signer.sign(receiptPayload({ ...fields, key: other.signer.fingerprint })));
    const cases = [valid, valid.replace('Dice: 4', 'Dice: 6'), forged];
    for (const receipt of cases) {
      const node = await checkReceipt(receipt, [{ public_key: bot.signer.publicKey }], nodeEd25519);
      const page = await open();
      const got = await check(page, { receipt, key: bot.signer.publicKey });
      expect(got.receipt).toEqual(node.lines.join('\n').split('\n'));
      await page.context().close();
    }
    expect((await checkReceipt(cases[0]!, [{ public_key: bot.signer.publicKey }], nodeEd25519)).ok).toBe(true);
    expect(requests).toEqual([]);
  }, 120_000);

  it('with no key pasted, a receipt is checked against the key its guild’s chain records in the loaded export, and its roll found there', async () => {
    const file = path.join(tmpDir(), 'export.jsonl');
    const { app, id, receipt } = await rolledExport(file);
    const page = await open();
    const got = await check(page, { file, receipt });
    expect(got.verdict).toBe('Verified: all holds.');
    expect(got.receipt.slice(0, 2)).toEqual([
      `receipt valid: roll ${id} signed by key ${app.signer.fingerprint}`,
      'the roll is in the export loaded, with the same row hash',
    ]);
    await page.context().close();
    // Without the export and without a key, nothing to trust: it says so.
    const bare = await open();
    expect((await check(bare, { receipt })).receipt).toEqual([
      "receipt NOT CHECKED: paste the bot's public key (/verify key:true), or load an export of its server",
    ]);
    await bare.context().close();
    app.ledger.close();
    expect(requests).toEqual([]);
  }, 120_000);

  it('at phone width (400 px) nothing reaches past the screen: hashes, keys, the file’s name and the receipt’s lines wrap', async () => {
    // A name with no break in it (no space, no hyphen), as long as a hash.
    const file = path.join(tmpDir(), `export_${'0123456789abcdef'.repeat(4)}.jsonl`);
    const { app, id, receipt } = await rolledExport(file);
    const page = await open('en-US', { viewport: { width: 400, height: 800 } });
    // A string: the tests' types have no DOM.
    const width = () => page.evaluate<number>('document.documentElement.scrollWidth');
    expect(await width()).toBeLessThanOrEqual(400);

    const verified = await check(page, { file });
    expect(verified.verdict).toBe('Verified: all holds.');
    expect(await page.textContent('#chosen')).toContain(path.basename(file));
    expect(await page.textContent('#heads')).toMatch(/ [0-9a-f]{64} /);
    expect(await width()).toBeLessThanOrEqual(400);

    const withReceipt = await check(page, { receipt });
    expect(withReceipt.receipt.slice(0, 2)).toEqual([
      `receipt valid: roll ${id} signed by key ${app.signer.fingerprint}`,
      'the roll is in the export loaded, with the same row hash',
    ]);
    expect(await width()).toBeLessThanOrEqual(400);
    await page.context().close();
    app.ledger.close();
    expect(requests).toEqual([]);
  }, 120_000);

  it('gives the chosen file’s size in a unit that fits, its number written as the browser writes numbers', async () => {
    // 999,500 bytes round to 1000 kB: shown as 1 MB. Canadian French puts a no-break space before its unit
    // (France's is a narrow one): the numbers follow the browser's own locale, not only its language.
    const sizes = [512, 49_152, 999_500, 1_500_000];
    for (const [locale, shown] of [
      ['en-US', ['512 bytes', '49 kB', '1 MB', '1.5 MB']],
      ['de-AT', ['512 Byte', '49 kB', '1 MB', '1,5 MB']],
      ['fr-CA', ['512\u00a0octets', '49\u00a0ko', '1\u00a0Mo', '1,5\u00a0Mo']],
    ] as const) {
      const page = await open(locale);
      for (const [i, size] of sizes.entries()) {
        await page.setInputFiles('#file', { name: 'export.jsonl', mimeType: 'application/jsonl', buffer: Buffer.alloc(size, 0x20) });
        expect(await page.textContent('#chosen'), `${locale}, ${size} bytes`).toBe(`export.jsonl (${shown[i]})`);
      }
      await page.context().close();
    }
  });
});
