import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConsoleSession } from '../../src/console/session.js';
import { alice, testApp } from '../helpers/app.js';

// The sample replies in docs/commands.md are the console's own output for each
// command line, with the dice given here: a reply that changes changes the docs, or this fails.
const ROOT = path.resolve(__dirname, '../..');
const SAMPLES: { system: string; line: string; dice: number[] }[] = [
  { system: 'Hearts of Tin', line: '/rally disorder:2 quality:militia commander_near:true unit:"1st Foot"', dice: [4] },
  { system: 'Lightning War', line: '/morale morale:leery casualties:2/5 cover:soft', dice: [4, 3, 2] },
  { system: 'ASL', line: '/mc unit:"German 4-6-7" number:1 leader_drm:-1', dice: [5, 3] },
  { system: 'ASL, any DR', line: '/dr category:TH drm:1', dice: [2, 5] },
  { system: 'Wacht am Rhein', line: '/fatigue status unit:"2nd Panzer" status:fatigued attack:6 defense:4 movement:8', dice: [] },
  { system: 'any game', line: '/roll dice expression:4d6kh3', dice: [6, 1, 4, 3] },
];
const stable = (s: string) => s.replace(/roll [0-9a-z]{10} · hash [0-9a-f]{8}/g, 'roll <id> · hash <hash>').replace(/press v1:\S+/g, 'press v1:…');

async function generated(): Promise<string> {
  const out: string[] = [];
  for (const s of SAMPLES) {
    const app = testApp();
    app.dice.push(...s.dice);
    const reply = await new ConsoleSession(app.router, { ...alice, userName: 'Alice' }).run(s.line);
    out.push(`${s.line}   (${s.system})`, stable(reply && 'text' in reply ? reply.text : ''), '');
    app.ledger.close();
  }
  return out.join('\n').trimEnd();
}

describe('docs/commands.md’s sample replies', () => {
  it('are what the console prints for each line, with the dice given', async () => {
    const docs = fs.readFileSync(path.join(ROOT, 'docs/commands.md'), 'utf8');
    const block = /## What a reply looks like, per system\n\n[^\n]*\n\n```\n([\s\S]*?)\n```/.exec(docs)?.[1];
    expect(block, 'docs/commands.md shows the samples').toBeDefined();
    const made = await generated();
    if (process.env.PRINT_SAMPLES) fs.writeFileSync(process.env.PRINT_SAMPLES, made);
    expect(stable(block!)).toBe(made);
  });
});
