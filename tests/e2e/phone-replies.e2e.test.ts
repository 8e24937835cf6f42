import fs from 'node:fs';
import path from 'node:path';
import type { APIEmbed } from 'discord.js';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { replyPage } from '../helpers/discord-look.js';
import { tour } from '../helpers/tour.js';
import { haveChromium, sharedChromium } from '../helpers/verify-page.js';

// Every reply of the tour (each command's example, a whole game, its review),
// drawn as Discord's phone app draws it at 400 px in real Chromium, in English, German and French,
// read in one glance: the outcome in a title of at most three lines, nothing wider than the phone
// (no code block to scroll sideways, no word split inside a three-column field, every button's
// label whole). PHONE_SHOTS=<folder> keeps a screenshot of each.
if (!haveChromium) console.warn('\n*** Chromium is not installed here: the phone-width reply tests are SKIPPED (CI installs Debian chromium). ***\n');

const browser = sharedChromium();

type Shown = { embed?: APIEmbed; buttons?: { label?: string }[]; private?: { embed: APIEmbed }; notify?: { embed: APIEmbed } };

/** What a page measures of a drawn reply: each way it fails a phone (run in the page, so written as its script). */
const MEASURE = `(() => {
  const problems = [];
  const doc = document.scrollingElement;
  if (doc.scrollWidth > 400) problems.push('the reply is ' + doc.scrollWidth + ' px wide');
  const title = document.querySelector('.title');
  if (title && title.offsetHeight > 3 * 22 + 2) problems.push('the title runs to ' + Math.round(title.offsetHeight / 22) + ' lines');
  for (const pre of document.querySelectorAll('pre'))
    if (pre.scrollWidth > pre.clientWidth) problems.push('a code block needs ' + pre.scrollWidth + ' px of ' + pre.clientWidth + ': ' + pre.textContent.split('\\n')[0]);
  for (const v of document.querySelectorAll('.field.inline .value, .field.inline .name'))
    if (v.scrollWidth > v.clientWidth + 1) problems.push('a word is too wide for its column: ' + v.textContent);
  for (const b of document.querySelectorAll('.button')) if (b.scrollWidth > b.clientWidth) problems.push("a button's label is cut: " + b.textContent);
  return problems;
})()`;

async function draw(page: Page, shown: Shown, embed: APIEmbed | undefined, shot?: string): Promise<string[]> {
  await page.setContent(replyPage({ embed, buttons: embed === shown.embed ? shown.buttons : [] }));
  if (shot) await page.screenshot({ path: shot, fullPage: true });
  return page.evaluate<string[]>(MEASURE);
}

describe.runIf(haveChromium)('every reply at phone width', () => {
  it.each(['en', 'de', 'fr'])(
    'in %s: the outcome in a short title, nothing wider than the phone',
    async (locale) => {
      const page = await browser().newPage({ viewport: { width: 400, height: 800 } });
      const shots = process.env.PHONE_SHOTS ? path.resolve(process.env.PHONE_SHOTS, locale) : undefined;
      if (shots) fs.mkdirSync(shots, { recursive: true });
      const problems: Record<string, string[]> = {};
      let drawn = 0;
      for (const [i, { line, out }] of (await tour(locale)).entries()) {
        if (!out || 'quit' in out || !out.json.ok) continue;
        const shown = out.json as Shown;
        for (const [j, embed] of [shown.embed, shown.private?.embed, shown.notify?.embed].filter(Boolean).entries()) {
          const found = await draw(page, shown, embed, shots && path.join(shots, `${String(i).padStart(2, '0')}-${j}.png`));
          drawn++;
          if (found.length) problems[`${line} (${j})`] = found;
        }
      }
      await page.close();
      // Every command's example and the whole game drew something (refusals are text, not embeds).
      expect(drawn).toBeGreaterThan(35);
      expect(problems).toEqual({});
    },
    180_000,
  );
});
