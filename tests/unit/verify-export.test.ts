import { execFile } from 'node:child_process';
import { forgedHash } from '../helpers/forge.js';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../../src/ledger/chain.js';
import { verifyExport } from '../../src/verify/verify-export.js';
import { tmpDir } from '../helpers/tmp.js';

const ROOT = path.resolve(__dirname, '../..');
const SAMPLE = fs.readFileSync(path.join(ROOT, 'tests/fixtures/sample-export.jsonl'), 'utf8');
const lines = () => SAMPLE.trim().split('\n');
const rows = () => lines().map((l) => JSON.parse(l));
const join = (ls: string[]) => `${ls.join('\n')}\n`;

describe('offline verification of a committed sample export', () => {
  it("the sample holds: its chain, and its finished game's dice recomputed from the revealed seed", () => {
    const r = verifyExport(SAMPLE);
    expect(r.ok).toBe(true);
    expect(r.chains).toHaveLength(1);
    expect(r.chains[0]!.report).toMatchObject({ ok: true, count: 14 });
    expect(r.games).toEqual([{ gameId: rows()[0].game_id, ok: true, checked: 3 }]);
  });

  it('an edited row is named', () => {
    const ls = lines();
    ls[4] = ls[4]!.replace('"user_name":"referee"', '"user_name":"referez"');
    const r = verifyExport(join(ls));
    expect(r.ok).toBe(false);
    expect(r.lines[0]).toContain(`BROKEN at row ${rows()[4].id} (position 5): hash does not match the row contents`);
  });

  it('a deleted row is caught at the row after it', () => {
    const ls = lines();
    ls.splice(6, 1);
    expect(verifyExport(join(ls)).lines[0]).toContain(`BROKEN at row ${rows()[7].id} (position 8)`);
  });

  it('reordered rows are caught', () => {
    const all = rows();
    [all[5].guild_seq, all[6].guild_seq] = [all[6].guild_seq, all[5].guild_seq];
    const r = verifyExport(join(all.map((x) => JSON.stringify(x))));
    expect(r.ok).toBe(false);
  });

  it('an inserted row is caught', () => {
    const all = rows();
    const forged = { ...all[5], id: 'forged0001', result: 'huzzah' };
    const shifted = all.map((x) => (x.guild_seq > 5 ? { ...x, guild_seq: x.guild_seq + 1 } : x));
    shifted.splice(6, 0, { ...forged, guild_seq: 7 });
    expect(verifyExport(join(shifted.map((x) => JSON.stringify(x)))).ok).toBe(false);
  });

  it('a die changed in a game roll fails both the chain and the seed', () => {
    const all = rows();
    const roll = all.find((x) => x.game_seq === 1)!;
    roll.dice = [roll.dice[0] === 6 ? 1 : roll.dice[0] + 1, ...roll.dice.slice(1)];
    const r = verifyExport(join(all.map((x) => JSON.stringify(x))));
    expect(r.chains[0]!.report.ok).toBe(false);
    expect(r.games[0]).toMatchObject({ ok: false, problem: expect.stringContaining(`roll ${roll.id} (game roll 1) has dice`) });
  });

  it('a revealed seed that is not the committed one fails', () => {
    const all = rows();
    const end = all.find((x) => x.result === 'game_ended')!;
    end.input.server_seed = 'f'.repeat(64);
    expect(verifyExport(join(all.map((x) => JSON.stringify(x)))).games[0]).toMatchObject({
      ok: false,
      problem: expect.stringContaining('does not match the commitment'),
    });
  });

  it('lines that are not JSON are named', () => {
    const r = verifyExport(`${SAMPLE}not json\n`);
    expect(r.ok).toBe(false);
    expect(r.lines[0]).toBe('line 15 is not a JSON object');
  });

  it('npm run verify exits 0 on the sample and 1 with a clear report after one byte changes', async () => {
    const dir = tmpDir();
    const good = path.join(dir, 'good.jsonl');
    const bad = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(good, SAMPLE);
    const ls = lines();
    ls[4] = ls[4]!.replace('"user_name":"referee"', '"user_name":"referez"');
    fs.writeFileSync(bad, join(ls));
    const run = (file: string) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/verify/main.ts', file], { cwd: ROOT, encoding: 'utf8' }).then(
        (r) => ({ code: 0, stdout: r.stdout }),
        (e) => ({ code: e.code as number, stdout: e.stdout as string }),
      );
    const ok = await run(good);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('verified: all holds');
    const broken = await run(bad);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`chain BROKEN at row ${rows()[4].id}`);
    expect(broken.stdout).toContain('NOT verified');
  });
});

/** An operator's edit made whole again: every hash after the change recomputed, so the chain holds. */
function rehash(all: Record<string, any>[]): Record<string, any>[] {
  const sorted = [...all].sort((a, b) => a.guild_seq - b.guild_seq);
  let prev = GENESIS_HASH;
  for (const r of sorted) {
    r.prev_hash = prev;
    r.hash = forgedHash(prev, r as never);
    prev = r.hash;
  }
  return sorted;
}
const text = (all: Record<string, any>[]) => join(all.map((x) => JSON.stringify(x)));

describe('the verifier against an operator who edits and re-hashes', () => {
  const gameRolls = (all: Record<string, any>[]) => all.filter((x) => typeof x.game_seq === 'number').sort((a, b) => a.guild_seq - b.guild_seq);

  it('a re-hashed export of the sample still holds (the test rehash is faithful)', () => {
    expect(verifyExport(text(rehash(rows()))).ok).toBe(true);
  });

  it('a gap in the game stream is rejected', () => {
    const all = rows();
    gameRolls(all)[1]!.game_seq = 3;
    gameRolls(all)[2]!.game_seq = 4;
    const r = verifyExport(text(rehash(all)));
    expect(r.chains[0]!.report.ok).toBe(true);
    expect(r.ok).toBe(false);
    expect(r.games[0]!.problem).toMatch(/is game roll 3 where 2 was due/);
  });

  it('a duplicated game roll number is rejected', () => {
    const all = rows();
    gameRolls(all)[2]!.game_seq = 2;
    const r = verifyExport(text(rehash(all)));
    expect(r.ok).toBe(false);
    expect(r.games[0]!.problem).toMatch(/is game roll 2 where 3 was due/);
  });

  it('a roll moved out of the game (an unfavourable one dropped from the stream) is rejected', () => {
    const all = rows();
    const [, second, third] = gameRolls(all);
    second!.game_id = null;
    second!.game_seq = null;
    third!.game_seq = 2;
    const r = verifyExport(text(rehash(all)));
    expect(r.ok).toBe(false);
    // The reader keeps a plain roll's position only (memory bounded by the rows' count, not their size).
    expect(r.games[0]!.problem).toBe(
      `the roll at position ${second!.guild_seq} is a hearts-of-tin roll in the game's channel during the game, but not part of it`,
    );
  });

  it('a pinned head catches a recomputed chain, and passes the honest one', () => {
    const honest = rows();
    const pinned = honest.find((x) => x.guild_seq === 6)!.hash;
    expect(verifyExport(SAMPLE, { head: pinned })).toMatchObject({ ok: true });
    const forged = rows();
    forged.find((x) => x.guild_seq === 3)!.user_name = 'someone else';
    const r = verifyExport(text(rehash(forged)), { head: pinned });
    expect(r.chains[0]!.report.ok).toBe(true);
    expect(r.ok).toBe(false);
    expect(r.lines.join('\n')).toContain(`pinned head ${pinned}: NOT in this export`);
  });

  it('a malformed export gets a clear error, not a crash', () => {
    const all = rows();
    delete all[3].dice;
    const r = verifyExport(text(all));
    expect(r.ok).toBe(false);
    expect(r.lines[0]).toBe('line 4 is not a ledger row: `dice` must be a list of whole numbers');
  });
});
