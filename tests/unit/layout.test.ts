import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The layout the README describes: commands/ holds commands grouped by system, with their helpers
// beside them, and no command imports another (only the lists do: commands/index.ts, the systems'
// descriptors and commands/systems.ts).
const ROOT = path.resolve(__dirname, '../..');
const files = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

describe('layout', () => {
  const all = files(path.join(ROOT, 'commands'));
  const isCommand = (f: string) => /^export default (?!defineSystem)/m.test(fs.readFileSync(f, 'utf8'));
  const isList = (f: string) => ['index.ts', 'systems.ts', 'system.ts'].includes(path.basename(f));
  const commands = new Set(all.filter(isCommand));

  it('no command imports another command', () => {
    const offenders: string[] = [];
    for (const f of all) {
      if (isList(f)) continue;
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
    // yaml reads a rule pack's file, as zod checks it: parsing a pack is the rules' own work. What a
    // rule says is an identifier with parameters (src/i18n/said); the English the ledger records
    // beside it is rendered by src/i18n/speak, never in the reader's language (src/i18n/reader).
    expect(offenders('src/rules', (t) => !/^(src\/rules\/|src\/dice\/|src\/util\/|src\/i18n\/(said|speak)|zod$|yaml$|node:fs$|node:module$)/.test(t))).toEqual(
      [],
    );
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
  it('every system in the one list has its descriptor, and every command of it is offered and says its system', async () => {
    const { COMMANDS } = await import('../../commands/index.js');
    const { BUILT_IN_SYSTEMS } = await import('../../commands/systems.js');
    const { SYSTEMS } = await import('../../src/rules/systems.js');
    for (const s of SYSTEMS) {
      const d = BUILT_IN_SYSTEMS[s];
      expect(d?.id, `no descriptor of ${s} in commands/systems.ts`).toBe(s);
      expect(d.commands.length, `${s} offers no command`).toBeGreaterThan(0);
      for (const c of d.commands) {
        expect(COMMANDS, `/${c.name} of ${s} is not offered`).toContain(c);
        expect(c.system, `/${c.name} is listed under ${s}`).toBe(s);
      }
      expect(Object.keys(d.units.fields), `${s} units need fields`).toEqual(expect.arrayContaining([...d.units.required]));
    }
  });

  it('every command file is offered: a command left out of its descriptor is caught', async () => {
    const { COMMANDS } = await import('../../commands/index.js');
    const root = path.resolve(__dirname, '../..');
    const modules = files(path.join(root, 'commands')).filter((f) => /^export default (?!defineSystem)/m.test(fs.readFileSync(f, 'utf8')));
    expect(modules.length).toBeGreaterThan(20);
    for (const f of modules) {
      const { default: c } = await import(f);
      expect(COMMANDS, `${path.relative(root, f)} is not offered`).toContain(c);
    }
  });

  it('a descriptor with a part left out, or of an id not in the list, does not compile', async () => {
    const { defineSystem } = await import('../../src/core/system.js');
    const { default: wacht } = await import('../../commands/wacht-am-rhein/system.js');
    const { hooks: _hooks, ...withoutHooks } = wacht;
    const { units: _units, ...withoutUnits } = wacht;
    // Each line below is a type error; \`npm run typecheck\` fails if one of them ever compiles.
    // @ts-expect-error: its turn-end hooks (an empty object when it has none) are required.
    expect(() => defineSystem(withoutHooks)).not.toThrow();
    // @ts-expect-error: its units (fields, checks, how a unit reads) are required.
    expect(() => defineSystem(withoutUnits)).not.toThrow();
    // @ts-expect-error: an id must be in the one list of systems.
    expect(() => defineSystem({ ...wacht, id: 'kriegspiel' })).not.toThrow();
    const registry: Record<string, unknown> = { asl: 1 };
    // @ts-expect-error: the registry needs every system of the list.
    const partial: import('../../commands/systems.js').BuiltInSystems = registry;
    expect(partial).toBe(registry);
  });
});
