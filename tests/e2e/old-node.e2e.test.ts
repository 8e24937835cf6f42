import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NODE_ENGINES, nodeTooOld } from '../../src/ops/supported-node.js';

// Every program a user starts, on a Node below the engines range: one clear line naming the Node
// needed, exit 78, before the SQLite addon's own ABI error can show. The machine's own Node (20
// here and in CI) is the old one; a machine without one says so loudly and skips.
const ROOT = path.resolve(__dirname, '../..');
const APP = process.env.MORALE_APP_DIR ? path.resolve(process.env.MORALE_APP_DIR) : ROOT;
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

const oldNode = [process.env.OLD_NODE, '/usr/bin/node', '/usr/local/bin/node', '/bin/node'].find((bin) => {
  if (!bin || !fs.existsSync(bin)) return false;
  const v = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  return /^v\d/.test(v) && nodeTooOld(v) !== undefined;
});
if (!oldNode) console.warn('SKIPPED: no Node below the engines range on this machine (set OLD_NODE to one)');

/** Each npm script that runs a built program, and the bin entry: every door a user has. */
const entries: [string, string][] = [
  ...Object.entries(pkg.scripts as Record<string, string>)
    .filter(([, line]) => /^node dist\//.test(line))
    .map(([name, line]): [string, string] => [`npm run ${name}`, line.split(/\s+/)[1]!]),
  ['the morale-officer bin', pkg.bin['morale-officer']],
];

describe('a Node below the engines range', () => {
  it('the guard holds the same bound as package.json, and reads versions as numbers', () => {
    expect(NODE_ENGINES).toBe(pkg.engines.node);
    for (const v of ['22.12.0', 'v22.12.0', '22.13.0', '23.0.0', '24.22.3', '26.12.1', '100.0.0']) expect(nodeTooOld(v), v).toBeUndefined();
    for (const v of ['v20.20.2', '22.11.9', '22.9.0', '18.20.0', '9.99.99', '0.0.1'])
      expect(nodeTooOld(v), v).toMatch(/^Morale Officer needs Node\.js 22\.12\.0 or later \(22, 24 or 26\); this is Node\.js /);
  });

  it('covers every program the package offers', () => {
    expect(entries.map(([name]) => name).sort()).toEqual(
      [
        'npm run backup',
        'npm run console',
        'npm run deploy-commands',
        'npm run health',
        'npm run keys',
        'npm run migrate-ledger',
        'npm run setup',
        'npm run start',
        'npm run verify',
        'the morale-officer bin',
      ].sort(),
    );
  });

  it.skipIf(!oldNode).each(entries)('%s prints one line naming the Node needed and exits 78', (_name, file) => {
    const r = spawnSync(oldNode!, [file, '--help'], { cwd: APP, encoding: 'utf8', input: '', env: { ...process.env, DATABASE_PATH: '/nonexistent/x.db' } });
    const version = spawnSync(oldNode!, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '');
    expect(r.status, r.stderr).toBe(78);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `Morale Officer needs Node.js 22.12.0 or later (22, 24 or 26); this is Node.js ${version} (${oldNode}). Put a newer node first on PATH (and run npm ci again if node_modules was installed under this one).\n`,
    );
  });
});
