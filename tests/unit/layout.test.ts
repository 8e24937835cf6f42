import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The layout the README describes: commands/ holds commands grouped by system, with their helpers
// beside them, and no command imports another (only commands/index.ts lists them).
const ROOT = path.resolve(__dirname, '../..');
const files = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

describe('layout', () => {
  const all = files(path.join(ROOT, 'commands'));
  const isCommand = (f: string) => /^export default /m.test(fs.readFileSync(f, 'utf8'));
  const commands = new Set(all.filter(isCommand));

  it('no command imports another command', () => {
    const offenders: string[] = [];
    for (const f of all) {
      if (f.endsWith(path.join('commands', 'index.ts'))) continue;
      for (const [, spec] of fs.readFileSync(f, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const target = path.resolve(path.dirname(f), spec!.replace(/\.js$/, '.ts'));
        if (commands.has(target)) offenders.push(`${path.relative(ROOT, f)} → ${path.relative(ROOT, target)}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('commands are grouped by system (or roster, review) beside their helpers', () => {
    const top = [...commands].filter((f) => path.dirname(f) === path.join(ROOT, 'commands')).map((f) => path.basename(f));
    // Only the cross-system commands stay at the top.
    expect(top.sort()).toEqual(['help.ts', 'odds.ts']);
  });
});
