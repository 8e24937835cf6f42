import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/**
 * verify.html as the browser tests open it: Debian's Chromium (installed by .ci/run), the page
 * `npm run build` made (or the one in MORALE_APP_DIR, the production install's), and a check run
 * as a player runs it: fill the fields, press Check, read what the page says.
 */
export const APP = process.env.MORALE_APP_DIR ? path.resolve(process.env.MORALE_APP_DIR) : path.resolve(import.meta.dirname, '../..');
export const PAGE = pathToFileURL(path.join(APP, 'dist/verify.html')).href;
const CHROMIUM = '/usr/bin/chromium';
export const haveChromium = fs.existsSync(CHROMIUM);

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });

/** One Chromium for a test file: launched before its tests (when installed), closed after; `browser()` reads it. */
export function sharedChromium(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (haveChromium) browser = await launchChromium();
  }, 120_000);
  afterAll(async () => browser?.close());
  return () => browser!;
}

export type PageCheck = { file?: string; head?: string; receipt?: string; key?: string };

export async function checkOnPage(page: Page, o: PageCheck, timeout = 120_000) {
  if (o.file) await page.setInputFiles('#file', o.file);
  if (o.head) await page.fill('#head', o.head);
  if (o.receipt) await page.fill('#receipt', o.receipt);
  if (o.key) await page.fill('#key', o.key);
  await page.click('#check');
  await page.waitForSelector('body[data-done="true"]', { timeout });
  return {
    report: ((await page.textContent('#report')) ?? '').split('\n'),
    receipt: ((await page.textContent('#receipt-report')) ?? '').split('\n'),
    verdict: await page.textContent('#verdict'),
  };
}
