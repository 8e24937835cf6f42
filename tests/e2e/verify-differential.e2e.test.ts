import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers/tmp.js';
import { type CorpusEntry, verifyCorpus } from '../helpers/verify-corpus.js';
import { beaconCorpus } from '../helpers/verify-corpus-beacon.js';
import { evidenceCorpus } from '../helpers/verify-corpus-evidence.js';
import { pinningCorpus } from '../helpers/verify-corpus-pinning.js';

/** Every crafted export: the first corpus, then the signed requests', the pinned chains' and keys', the beacon's. */
const wholeCorpus = async (): Promise<CorpusEntry[]> => [
  ...(await verifyCorpus()),
  ...(await evidenceCorpus()),
  ...(await pinningCorpus()),
  ...(await beaconCorpus()),
];
import { APP, checkOnPage, haveChromium, PAGE, sharedChromium, type PageCheck } from '../helpers/verify-page.js';

// One verifier, doors that cannot disagree. `npm run verify` (the built CLI, its file
// read in ranges by worker threads when large) and verify.html (real Chromium, its Web Workers)
// read every crafted export of the corpus, and must give the same report, byte for byte, and the
// verdict written by hand in the corpus.
if (!haveChromium) console.warn('\n*** Chromium is not installed here: the verifier differential test is SKIPPED (CI installs Debian chromium). ***\n');

const browser = sharedChromium();

/** The CLI's report: its lines, then its verdict; then the receipt's lines. */
async function cli(file: string, o: { head?: string; receipt?: string; key?: string; discordKey?: string }) {
  const args = [path.join(APP, 'dist/src/verify/main.js'), file];
  if (o.head) args.push('--head', o.head);
  if (o.discordKey) args.push('--discord-key', o.discordKey);
  if (o.receipt) args.push('--receipt', o.receipt);
  if (o.key) args.push('--key', o.key);
  const out = await promisify(execFile)(process.execPath, args, { cwd: APP, maxBuffer: 1 << 26 }).catch((err: { stdout: string; code: number }) => err);
  const lines = (out as { stdout: string }).stdout.trimEnd().split('\n');
  const cut = lines.findIndex((l) => l === 'verified: all holds' || l === 'NOT verified: see above');
  return { report: lines.slice(0, cut + 1), receipt: lines.slice(cut + 1) };
}

async function page(file: string, o: PageCheck & { discordKey?: string }) {
  const context = await browser().newContext();
  const p = await context.newPage();
  await p.goto(PAGE);
  if (o.discordKey) await p.fill('#discord-key', o.discordKey);
  const got = await checkOnPage(p, { file, ...o });
  await context.close();
  return { report: got.report, receipt: o.receipt ? got.receipt : [] };
}

describe.skipIf(!haveChromium)('one verifier: the CLI and the page over the same crafted exports', () => {
  it('every entry of the corpus: the same report, byte for byte, and the verdict written by hand', async () => {
    const dir = tmpDir();
    for (const entry of await wholeCorpus()) {
      const file = path.join(dir, `${entry.name.replace(/\W+/g, '-')}.jsonl`);
      fs.writeFileSync(file, entry.bytes);
      let receiptFile: string | undefined;
      if (entry.receipt) {
        receiptFile = path.join(dir, `${path.basename(file)}.receipt.txt`);
        fs.writeFileSync(receiptFile, entry.receipt);
      }
      const fromCli = await cli(file, { head: entry.head, receipt: receiptFile, key: entry.key, discordKey: entry.discordKey });
      const fromPage = await page(file, { head: entry.head, receipt: entry.receipt, key: entry.key, discordKey: entry.discordKey });
      expect(fromPage.report, entry.name).toEqual(fromCli.report);
      expect(fromPage.receipt, entry.name).toEqual(fromCli.receipt);
      expect(fromCli.report.at(-1), entry.name).toBe(entry.ok ? 'verified: all holds' : 'NOT verified: see above');
      expect(fromCli.report.join('\n'), entry.name).toContain(entry.says);
      if (entry.receiptOk !== undefined)
        expect(fromCli.receipt[0]?.startsWith(entry.receiptOk ? 'receipt valid' : 'receipt REFUSED'), `${entry.name}: ${fromCli.receipt[0]}`).toBe(true);
    }
  }, 600_000);
});
