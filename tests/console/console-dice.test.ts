import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/ledger.js';
import { tmpDb } from '../helpers/tmp.js';

// A --dice list that cannot serve a roll (used up, or a face the die does not have) is answered as
// such, not as "Something went wrong": with --json, one JSON line per line on stdout and no stack.
const ROOT = path.resolve(__dirname, '../..');

function run(db: string, dice: string, lines: string[], json = true) {
  return spawnSync(process.execPath, [path.join(ROOT, 'dist/src/console/main.js'), ...(json ? ['--json'] : []), '--db', db, '--dice', dice], {
    cwd: ROOT,
    input: `${lines.join('\n')}\n`,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, DISCORD_TOKEN: '', LOG_LEVEL: '' },
  });
}

const USED_UP =
  'the --dice list is used up after 2 dice: this roll needs more, so nothing was recorded. Start the console again with more dice after --dice, or without --dice to roll them.';

describe('a --dice list that cannot serve a roll', () => {
  it('used up: says so after how many dice, as a JSON error line; the failed line gives its dice back', () => {
    const db = tmpDb();
    // The /dr takes the 4 and then finds no die: nothing recorded, so the next rally gets the 4.
    const r = run(db, '3,4', ['/rally disorder:2', '/dr', '/rally disorder:2', '/rally disorder:2']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe(`Morale Officer offline console · ledger ${db}\n`);
    const out = r.stdout.split('\n').filter(Boolean);
    expect(out).toHaveLength(4);
    const [first, dr, second, third] = out.map((l) => JSON.parse(l));
    expect(first).toMatchObject({ ok: true, command: 'rally', steps: [{ dice: [3] }] });
    expect(dr).toEqual({ ok: false, command: 'dr', error: USED_UP });
    expect(second).toMatchObject({ ok: true, command: 'rally', steps: [{ dice: [4] }] });
    expect(third).toEqual({ ok: false, command: 'rally', error: USED_UP });
    const ledger = Ledger.open(db);
    expect(ledger.count('console-guild')).toBe(2);
    ledger.close();
  });

  it('a face the die does not have: names the die and the roll it was for; the prompt shows it as text', () => {
    const r = run(tmpDb(), '7', ['/rally disorder:2'], false);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      '  ! die 1 of the --dice list is 7, but this roll needs a d6 (1 to 6): nothing was recorded. Start the console again with a --dice list whose die 1 is a face of a d6.\n',
    );
    expect(r.stderr).not.toMatch(/\n\s+at |went wrong/);
  });
});
