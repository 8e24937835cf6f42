import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { commandDefinitions } from '../../src/discord/definitions.js';
import { SYSTEM_MODULES } from '../../commands/systems.js';
import { systemName } from '../../src/rules/systems.js';
import { sayIn } from '../../src/i18n/speak.js';

// docs/commands.md cannot go stale. Every registered command, subcommand and option has
// its heading and its row (in Discord's order, with the description Discord shows), nothing
// documented is missing from the bot, and README's one-line list names every command.
const ROOT = path.resolve(__dirname, '../..');

const read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8');

type Opt = {
  name: string;
  description: string;
  type: number;
  options?: Opt[];
  required?: boolean;
  min_value?: number;
  max_value?: number;
  choices?: { value: string }[];
  autocomplete?: boolean;
};
/** What the bot registers: "/game start" → its options, in order. */
function registered(): Map<string, Opt[]> {
  const out = new Map<string, Opt[]>();
  for (const d of commandDefinitions(COMMANDS) as unknown as Opt[]) {
    const subs = (d.options ?? []).filter((o) => o.type === 1);
    const pick = (opts: Opt[] = []) => opts;
    if (subs.length) {
      out.set(`/${d.name}`, []);
      for (const s of subs) out.set(`/${d.name} ${s.name}`, pick(s.options));
    } else out.set(`/${d.name}`, pick(d.options));
  }
  return out;
}

const KIND: Record<number, string> = { 3: 'text', 4: 'whole number', 5: 'true/false', 6: 'user', 7: 'channel', 8: 'role', 10: 'number', 11: 'attachment' };
const num = (n: number) => (n < 0 ? `−${-n}` : String(n));

/** An option's documented row up to its closing parenthesis, made from what the bot registers. */
function takes(o: Opt): string {
  const parts = [KIND[o.type]!];
  if (o.required) parts.push('required');
  if (o.min_value !== undefined) parts.push(`${num(o.min_value)}–${num(o.max_value!)}`);
  if (o.choices) parts.push(`one of ${o.choices.map((c) => `\`${c.value}\``).join(', ')}`);
  if (o.autocomplete) parts.push('offered as you type');
  return `| \`${o.name}\` | ${o.description.replace(/\|/g, '\\|')} (${parts.join('; ')}`;
}

/** What docs/commands.md documents: each `/command` heading, and the rows of its option table. */
function documented(text: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string | undefined;
  let inTable = false;
  for (const line of text.split('\n')) {
    const heading = /^#{2,3} `(\/[a-z-]+(?: [a-z_-]+)?)`$/.exec(line);
    if (heading) {
      current = heading[1]!;
      expect(out.has(current), `${current} is documented twice`).toBe(false);
      out.set(current, []);
      inTable = false;
    } else if (line === '| option | what it takes |') inTable = true;
    else if (inTable && line.startsWith('|---')) continue;
    else if (inTable && line.startsWith('| ')) out.get(current!)!.push(line);
    else inTable = false;
  }
  return out;
}

/** The unit fields table of /unit add, row by row, made from every built-in system's descriptor. */
function unitFieldRows(): string[] {
  return SYSTEM_MODULES.flatMap((s) => {
    const u = s.units;
    // Each required field given as a marker: a default that follows one of them shows which.
    const given = Object.fromEntries(u.required.map((k) => [k, Symbol(k)]));
    const defaults = u.defaults(given);
    return Object.entries(u.fields).map(([name, spec]) => {
      const required = u.required.includes(name);
      const d = defaults[name];
      const follows = u.required.find((k) => given[k] === d);
      const shown = required ? '—' : follows ? `its \`${follows}\`` : d === undefined || d === null ? 'none' : `\`${String(d)}\``;
      return `| ${systemName(s.id)} | \`${name}\` | ${required ? 'yes' : ''} | ${spec.description}: ${sayIn('en', spec.allowed)} | ${shown} |`;
    });
  });
}

describe('docs/commands.md against the registered commands', () => {
  it('the unit fields table is every system’s fields, as the descriptors declare them', () => {
    const text = read('docs/commands.md');
    const at = text.indexOf('| system | field | required | what it takes | default |');
    const after = text.slice(at).split('\n').slice(2);
    const rows = after.slice(
      0,
      after.findIndex((l) => !l.startsWith('| ')),
    );
    expect(rows).toEqual(unitFieldRows());
  });

  const docs = documented(read('docs/commands.md'));
  const bot = registered();

  it('the same commands and subcommands, each with a heading of its own', () => {
    expect([...docs.keys()].sort()).toEqual([...bot.keys()].sort());
  });

  it.each([...bot.entries()])('%s: every option, in order, with the description Discord shows and what it takes', (key, options) => {
    const rows = docs.get(key) ?? [];
    expect(rows.map((r) => /^\| `([a-z0-9_]+)` \|/.exec(r)?.[1])).toEqual(options.map((o) => o.name));
    // The row is made from the registration: its type, whether required, its range, its choices,
    // whether offered as you type; a note may follow (`; default club`, `: your recent rolls`).
    for (const [i, o] of options.entries()) {
      const made = takes(o);
      expect(rows[i] === `${made}) |` || rows[i]!.startsWith(`${made}; `) || rows[i]!.startsWith(`${made}: `), `${rows[i]}\nmade: ${made})`).toBe(true);
    }
  });

  it('the check can fail: a renamed option and a dropped subcommand are both caught', () => {
    const text = read('docs/commands.md').replace('| `disorder` |', '| `disorders` |').replace('### `/game status`', '### `/game state`');
    const stale = documented(text);
    expect(stale.get('/rally')?.[0]).toMatch(/^\| `disorders`/);
    expect(stale.has('/game status')).toBe(false);
    // A range the code changed (disorder markers went from 0–10 to 0–30) no longer matches its row.
    const disorder = bot.get('/rally')!.find((o) => o.name === 'disorder')!;
    expect(takes(disorder)).toBe('| `disorder` | Disorder markers on the unit (1–30; a roster unit: its own) (whole number; 1–30');
    expect('| `disorder` | Disorder markers on the unit (1–30; a roster unit: its own) (whole number; 1–10) |'.startsWith(takes(disorder))).toBe(false);
  });

  it("README's command list names every command, one line each, and links here for the options", () => {
    const readme = read('README.md');
    for (const name of [...bot.keys()].filter((k) => !k.includes(' '))) expect(readme, name).toMatch(new RegExp(`^- \`${name}[ \`]`, 'm'));
    expect(readme).toContain('(docs/commands.md)');
  });
});

describe('README for a newcomer, the rest in docs/', () => {
  const readme = read('README.md');

  it('is at most 12 KB, and every link to a file of the project points at one that exists', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12 * 1024);
    const links = [...readme.matchAll(/\]\(((?:docs\/|LICENSE)[^)#]*)(#[^)]*)?\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(5);
    for (const l of links) expect(fs.existsSync(path.join(ROOT, l)), l).toBe(true);
    expect(read('LICENSE')).toMatch(/^MIT License/);
    expect(JSON.parse(read('package.json')).license).toBe('MIT');
  });

  it('keeps its two commands: the offline console from a fresh clone, and the tests', () => {
    expect(readme).toContain('npm ci && npm run build && npm run console');
    expect(readme).toMatch(/^npm test\s/m);
  });

  it('the docs say what changed: no production install without the build, no tsx at run time, Node 20 not alone', () => {
    const docs = ['README.md', 'docs/self-hosting.md', 'docs/commands.md'].map(read).join('\n');
    expect(docs).not.toMatch(/npm ci --omit=dev(?! )/);
    expect(docs).not.toContain('Node.js 20 is required');
    expect(docs).not.toContain('npm run console uses tsx');
    expect(docs).toContain('npm prune --omit=dev');
  });
});
