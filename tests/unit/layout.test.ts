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

  // Who may import whom: the rules know nothing of Discord, SQL or the bot;
  // render draws what it is given; core runs the pipeline for any system; SQL lives in src/ledger.
  const imports = (f: string) =>
    [...fs.readFileSync(f, 'utf8').matchAll(/^import .* from '([^']+)';$/gm)].map(([, spec]) =>
      spec!.startsWith('.') ? path.relative(ROOT, path.resolve(path.dirname(f), spec!)) : spec!,
    );
  const offenders = (dir: string, bad: (target: string, from: string) => boolean) =>
    files(path.join(ROOT, dir)).flatMap((f) =>
      imports(f)
        .filter((t) => bad(t, f))
        .map((t) => `${path.relative(ROOT, f)} → ${t}`),
    );

  it('the rules import only rules, dice, utilities, zod and the YAML parser: no Discord, no SQL, no bot', () => {
    // yaml reads a rule pack's file, as zod checks it: parsing a pack is the rules' own work.
    expect(offenders('src/rules', (t) => !/^(src\/rules\/|src\/dice\/|src\/util\/|zod$|yaml$|node:fs$|node:module$)/.test(t))).toEqual([]);
  });

  it('render imports nothing of core, the ledger store or the transports (so core and render never import each other)', () => {
    expect(offenders('src/render', (t) => /^(src\/core|src\/discord|src\/console|src\/ledger\/(store|ledger|postgres))/.test(t))).toEqual([]);
  });

  it('core runs the pipeline for every system: it imports no system of the rules', () => {
    expect(offenders('src/core', (t) => /^src\/rules\/(asl|hearts-of-tin|lightning-war|wacht-am-rhein)\//.test(t))).toEqual([]);
  });

  it('only src/ledger holds SQL', () => {
    const sql = /\b(SELECT .* FROM|INSERT INTO|UPDATE \w+ SET|DELETE FROM|BEGIN IMMEDIATE)\b/;
    const outside = [...files(path.join(ROOT, 'src')), ...files(path.join(ROOT, 'commands'))].filter(
      (f) => !f.startsWith(path.join(ROOT, 'src/ledger')) && sql.test(fs.readFileSync(f, 'utf8')),
    );
    expect(outside.map((f) => path.relative(ROOT, f))).toEqual([]);
  });
});

describe('a built-in system is never half added', () => {
  it('every system has its commands in the one list (the other per-system tables are Record<SystemId, …>: a missing entry does not compile)', async () => {
    const { COMMANDS } = await import('../../commands/index.js');
    const { SYSTEMS } = await import('../../src/rules/systems.js');
    for (const s of SYSTEMS)
      expect(
        COMMANDS.some((c) => c.system === s),
        `no command of ${s} in commands/index.ts`,
      ).toBe(true);
  });
});
