import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/ledger.js';
import { tmpDb } from '../helpers/tmp.js';

// A game played with --dice is marked scripted on its first row, so that once it ends the verifiers
// say "scripted" instead of "broken"; --dice in a game whose dice are its seed's is refused.
const ROOT = path.resolve(__dirname, '../..');

function run(db: string, lines: string[], dice?: string) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/src/console/main.js'), '--json', '--gm', '--db', db, ...(dice ? ['--dice', dice] : [])], {
    cwd: path.dirname(db),
    input: `${lines.join('\n')}\n`,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, DISCORD_TOKEN: '', LOG_LEVEL: '' },
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);
}

const REFUSED =
  '--dice cannot roll in the game Ligny: its dice come from its seed, and verifiers recompute every one once it ends, so a die typed in would make it verify as broken. Roll in it without --dice, or script a game of its own: start it with --dice (its first row then says its dice are typed in).';

describe('--dice in games', () => {
  it('a game started with --dice says so, and after /game end /verify and npm run verify call it scripted, not broken', () => {
    const db = tmpDb();
    const out = run(db, ['/game start system:hearts-of-tin name:Waterloo', '/rally disorder:2', '/rally disorder:2', '/game end', '/verify', '/export'], '3,4');
    expect(out.map((o) => o.ok)).toEqual([true, true, true, true, true, true]);
    expect(out[0]!.embed.description).toContain("**Scripted dice.** This game's dice are typed in by hand (the offline console's --dice)");
    expect([out[1]!.steps[0].dice, out[2]!.steps[0].dice]).toEqual([[3], [4]]);
    expect(out[4]!.embed).toMatchObject({ title: 'Ledger intact' });
    expect(out[4]!.embed.description).toContain('Also checked: 1 ended game scripted (dice typed in by hand: not checked)');
    const jsonl = out[5]!.attachments.find((a: { name: string }) => a.name.endsWith('.jsonl')).path;
    const verify = spawnSync('npm', ['run', '--silent', 'verify', '--', jsonl], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(verify.status, verify.stdout).toBe(0);
    expect(verify.stdout).toMatch(
      /game [0-9a-z]{10}: scripted: its first row says its dice were typed in by hand \(the offline console's --dice\), not drawn from its seed: none is checked; 2 rolls numbered 1\.\.2/,
    );
    expect(verify.stdout).not.toMatch(/FAILED|BROKEN/);
  });

  it('--dice in a game started without it is refused, naming why and what to do; the game still verifies', () => {
    const db = tmpDb();
    expect(run(db, ['/game start system:hearts-of-tin name:Ligny'])[0]).toMatchObject({ ok: true });
    expect(run(db, ['/rally disorder:2'], '3')).toEqual([{ ok: false, command: 'rally', error: REFUSED }]);
    const ledger = Ledger.open(db);
    expect(ledger.count('console-guild')).toBe(1);
    ledger.close();
    const after = run(db, ['/rally disorder:2', '/game end', '/verify']);
    expect(after[2]!.embed.description).toContain('Also checked: every die of 1 ended game recomputed from its seeds');
  });
});
