import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers/tmp.js';

// The attachments the console prints (an export's files, a chart) are where it says, after it exits:
// beside the ledger unless --files names a folder, never in a temporary folder removed at exit.
const ROOT = path.resolve(__dirname, '../..');
type Attachment = { name: string; bytes: number; path: string };

/** The built console, as a user pipes into it; TMPDIR is a folder of the test's, so nothing lands in the shared one. */
function run(dir: string, args: string[]) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/src/console/main.js'), '--json', '--gm', '--db', path.join(dir, 'ledger.db'), ...args], {
    cwd: dir,
    input: '/rally disorder:1 unit:Rifles\n/export\n/stats\n',
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, DISCORD_TOKEN: '', LOG_LEVEL: '', TMPDIR: path.join(dir, 'tmp') },
  });
  expect(r.status, r.stderr).toBe(0);
  const out = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { ok: boolean; attachments?: Attachment[] });
  expect(out.map((o) => o.ok)).toEqual([true, true, true]);
  return out.flatMap((o) => o.attachments ?? []);
}

describe('console attachments', () => {
  it('are kept in console-files/ beside the ledger (owner-only), and every path printed exists after the console exits', () => {
    const dir = tmpDir();
    fs.mkdirSync(path.join(dir, 'tmp'));
    const files = run(dir, []);
    const kept = path.join(dir, 'console-files');
    expect(files.map((f) => f.name.replace(/\d{4}-\d{2}-\d{2}/, 'DATE'))).toEqual(['ledger-DATE.csv', 'ledger-DATE.jsonl', 'verify.html', 'stats.png']);
    for (const f of files) {
      expect(path.dirname(f.path)).toBe(kept);
      expect(fs.statSync(f.path).size).toBe(f.bytes);
      expect((fs.statSync(f.path).mode & 0o777).toString(8)).toBe('600');
    }
    expect((fs.statSync(kept).mode & 0o777).toString(8)).toBe('700');
    expect(fs.readdirSync(path.join(dir, 'tmp'))).toEqual([]);
  });

  it('--files names the folder instead, made if missing', () => {
    const dir = tmpDir();
    fs.mkdirSync(path.join(dir, 'tmp'));
    const files = run(dir, ['--files', 'out/charts']);
    expect(files).toHaveLength(4);
    for (const f of files) {
      expect(path.dirname(f.path)).toBe(path.join(dir, 'out/charts'));
      expect(fs.statSync(f.path).size).toBe(f.bytes);
    }
    expect(fs.existsSync(path.join(dir, 'console-files'))).toBe(false);
  });
});
