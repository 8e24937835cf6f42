import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { embedToText } from '../../src/render/text.js';
import { alice, command, expectMessage, testApp } from '../helpers/app.js';

// README's sample reply is the bot's own output for the command it shows, with
// the dice it shows: it cannot drift from what the bot prints (only the roll id and hash differ).
const ROOT = path.resolve(__dirname, '../..');
const ids = (s: string) => s.replace(/roll [0-9a-z]{10} · hash [0-9a-f]{8}/g, 'roll <id> · hash <hash>');

describe('README’s sample reply', () => {
  it('is what the bot prints for /rally disorder:2 quality:militia commander_near:true unit:"1st Foot" on a 4', async () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const block = /```\n\/rally disorder:2 quality:militia commander_near:true unit:"1st Foot"\n\n([\s\S]*?)\n```/.exec(readme)?.[1];
    expect(block, 'README shows the sample').toBeDefined();
    const app = testApp();
    app.dice.push(4);
    const r = expectMessage(await command(app, alice, 'rally', { disorder: 2, quality: 'militia', commander_near: true, unit: '1st Foot' }));
    const printed = embedToText(r.embed, r.buttons)
      .split('\n')
      // The console prints a button with the line that presses it; README shows the button alone.
      .map((l) => l.replace(/\s+type: press .*$/, ''))
      .join('\n');
    expect(ids(block!)).toBe(ids(printed));
    app.ledger.close();
  });
});
