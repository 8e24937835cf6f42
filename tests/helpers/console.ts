import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Lines typed into the built console with --json (and the dice fed with --dice), as a club would
 * script a game: one JSON reply per line, each parsed.
 */
export function playConsole(db: string, lines: string[], dice: number[] = []): Record<string, any>[] {
  const args = ['run', '--silent', 'console', '--', '--json', '--db', db, ...(dice.length ? ['--dice', dice.join(',')] : [])];
  const r = spawnSync('npm', args, {
    cwd: ROOT,
    input: `${lines.join('\n')}\n`,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, DISCORD_TOKEN: '', LOG_LEVEL: '' },
  });
  expect(r.status, r.stderr).toBe(0);
  const out = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>);
  expect(out).toHaveLength(lines.length);
  return out;
}
