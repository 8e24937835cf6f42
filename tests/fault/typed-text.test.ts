import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { isGroup, type Actor, type AnyCommand, type Reply } from '../../src/core/command.js';
import type { OptionMap } from '../../src/core/options.js';
import type { Request } from '../../src/core/router.js';
import { cryptoRoller } from '../../src/dice/roller.js';
import { SYSTEMS } from '../../src/rules/systems.js';
import { alice, fieldsText, testApp, type TestApp } from '../helpers/app.js';
import { installThrough } from '../helpers/packs.js';

// Two classes of bug closed as classes:
// - a lookup keyed by typed text that reads inherited keys: `unit:constructor` crashed /mc, /hob and
//   /odds (the ASL unit words), as `phase:constructor` had crashed /game turn (Wacht am Rhein);
// - typed text shown as markdown: a game phase put a masked link and bold text into every
//   /game status and /roll show.
// Every text option of every command, in a game of every system, gets every name Object.prototype
// has, then markdown; each reply must be a clear answer, and no reply may carry the markdown live.

const targets: { name: string; subcommand?: string; options: OptionMap }[] = COMMANDS.flatMap((c: AnyCommand) =>
  isGroup(c)
    ? Object.entries(c.subcommands).map(([s, sub]) => ({ name: c.name, subcommand: s, options: sub.options as OptionMap }))
    : [{ name: c.name, options: c.options as OptionMap }],
);

type Slash = { type: number; required?: boolean; choices?: { value: unknown }[]; min_value?: number; autocomplete?: boolean };
const slash = (options: OptionMap, name: string) => options[name]!.toSlash(name) as Slash;

/** Free text a player types: string options without a fixed list of choices. */
const textOptions = (options: OptionMap) =>
  Object.keys(options).filter((n) => {
    const d = slash(options, n);
    return d.type === ApplicationCommandOptionType.String && !d.choices?.length;
  });

/** A value for each required option that the command takes (so the typed text, not a missing option, is what is tried). */
function requiredValues(options: OptionMap, except: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of Object.keys(options)) {
    const d = slash(options, n);
    if (!d.required || n === except) continue;
    if (d.choices?.length) out[n] = d.choices[0]!.value;
    else if (d.type === ApplicationCommandOptionType.Integer || d.type === ApplicationCommandOptionType.Number) out[n] = Math.max(1, d.min_value ?? 1);
    else if (d.type === ApplicationCommandOptionType.Boolean) out[n] = false;
    else out[n] = 'Guard';
  }
  return out;
}

const INHERITED = Object.getOwnPropertyNames(Object.prototype);
/** Markdown that fits every text option (the shortest takes 20 characters), and more of it, which a refusal quotes. */
const MARKDOWNS = [
  '**Bold** `coded`',
  '```\n**Bold** ```',
  '**Bold** _slant_ `coded` [masked](https://e.x)',
  '**Bold** _slant_ ~~gone~~ ||spoiled|| `coded` [masked](https://e.x) Heading',
];
/** That markdown as it would render live anywhere in a reply: not escaped by a backslash before it. */
const LIVE = ['**Bold**', '_slant_', '~~gone~~', '||spoiled||', '`coded`', '[masked](https://e.x)'].map(
  (t) => new RegExp(`(?<!\\\\)${t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
);

const gm: Actor = { ...alice, userId: 'gm', userName: '**Boss** [me](https://evil.example)', isGm: true };

/**
 * Every piece of a reply Discord renders as markdown: an error's text, an embed's title,
 * description and fields; code blocks are literal and left out. An embed's author and footer, and
 * autocomplete choices and button labels, are plain text in Discord: they show typed text as typed.
 */
function shown(reply: Reply): string {
  if (reply.type === 'error') return reply.message;
  if (reply.type === 'choices') return '';
  const e = reply.embed;
  const parts = [e.title, e.description, ...(e.fields ?? []).flatMap((f) => [f.name, f.value])];
  if (reply.type === 'message' && reply.private)
    parts.push(shown({ type: 'message', ephemeral: true, embed: reply.private.embed, buttons: reply.private.buttons }));
  return (
    parts
      .filter(Boolean)
      .join('\n')
      .replace(/```[\s\S]*?```/g, '<code block>')
      // An inline code span shows its text as typed too (an escaped backtick opens none).
      .replace(/(?<!\\)`[^`\n]*`/g, '<code>')
  );
}

/** A unit of each system's roster, and a roll that names it. */
const UNITS: Record<string, { fields: Record<string, unknown>; roll: string; sub?: string; options: Record<string, unknown> }> = {
  asl: { fields: { counter: 'German 4-6-7' }, roll: 'mc', options: {} },
  // A brigade is typed text too, shown on every roster line of its units.
  'hearts-of-tin': { fields: { original: 4, disorder: 1, brigade: '**Bold** `coded` Brigade' }, roll: 'rally', options: {} },
  'lightning-war': { fields: { morale: 'professional', original: 5 }, roll: 'morale', options: {} },
  'wacht-am-rhein': { fields: { attack: 4, defense: 4, movement: 4 }, roll: 'fatigue', sub: 'status', options: {} },
};

async function gameApp(system: string): Promise<TestApp> {
  const app = testApp(undefined, { roller: cryptoRoller });
  // The game's name is typed text too: it comes back in many replies and refusals.
  const r = await app.router.handle({ type: 'command', name: 'game', subcommand: 'start', options: { system, name: '**Bold** `coded` G' }, actor: gm });
  expect(r.type, JSON.stringify(r)).toBe('message');
  return app;
}

const request = (t: (typeof targets)[number], options: Record<string, unknown>): Request =>
  ({ type: 'command', name: t.name, ...(t.subcommand ? { subcommand: t.subcommand } : {}), options, actor: gm }) as Request;

describe('typed text, as a class', () => {
  it.each(SYSTEMS)(
    'every name Object.prototype has, in every text option of every command (a %s game): a clear answer, never "Something went wrong"',
    async (system) => {
      const app = await gameApp(system);
      const failures: string[] = [];
      for (const t of targets) {
        for (const option of textOptions(t.options)) {
          for (const word of INHERITED) {
            const reply = await app.router.handle(request(t, { ...requiredValues(t.options, option), [option]: word }));
            if (reply.type === 'error' && reply.ref) failures.push(`/${t.name}${t.subcommand ? ` ${t.subcommand}` : ''} ${option}:${word}: ${reply.message}`);
            if (slash(t.options, option).autocomplete) {
              const choices = await app.router.handle({ type: 'autocomplete', name: t.name, subcommand: t.subcommand, option, value: word, actor: gm });
              if (choices.type !== 'choices') failures.push(`autocomplete /${t.name} ${option}:${word}: ${JSON.stringify(choices)}`);
            }
          }
        }
        // Typed option names too (the console reads them from text).
        for (const word of INHERITED) {
          const reply = await app.router.handle(request(t, { ...requiredValues(t.options, ''), [word]: 'x' }));
          if (reply.type !== 'error' || reply.ref) failures.push(`/${t.name} ${word}:x (an option name): ${JSON.stringify(reply)}`);
        }
      }
      expect(failures).toEqual([]);
      app.ledger.close();
    },
    120_000,
  );

  it.each(SYSTEMS)(
    'markdown in every text option and in the player’s name (a %s game) is shown as typed, never rendered, in every reply and every later view',
    async (system) => {
      const app = await gameApp(system);
      const leaks: string[] = [];
      const check = (what: string, reply: Reply) => {
        const text = shown(reply);
        for (const live of LIVE) if (live.test(text)) leaks.push(`${what}: shows ${live.source} live in ${JSON.stringify(text.slice(0, 300))}`);
      };
      for (const t of targets) {
        for (const option of textOptions(t.options)) {
          for (const markdown of MARKDOWNS)
            check(
              `/${t.name}${t.subcommand ? ` ${t.subcommand}` : ''} ${option}`,
              await app.router.handle(request(t, { ...requiredValues(t.options, option), [option]: markdown })),
            );
        }
      }
      // A roster unit named in markdown, and a roll on it: its name comes back in results and views.
      const unitName = '**Bold** `coded` Guard';
      const unit = UNITS[system]!;
      check(
        '/unit add',
        await app.router.handle({ type: 'command', name: 'unit', subcommand: 'add', options: { name: unitName, fields: fieldsText(unit.fields) }, actor: gm }),
      );
      const rolled = await app.router.handle({
        type: 'command',
        name: unit.roll,
        ...(unit.sub ? { subcommand: unit.sub } : {}),
        options: { ...unit.options, unit: unitName },
        actor: gm,
      } as Request);
      expect(rolled.type, JSON.stringify(rolled)).not.toBe('error');
      check(`/${unit.roll} on the unit`, rolled);
      check('/unit show', await app.router.handle({ type: 'command', name: 'unit', subcommand: 'show', options: { unit: unitName }, actor: gm }));
      // What was stored comes back in the views: the game, the roster, the history, each roll in full.
      check('/game status', await app.router.handle({ type: 'command', name: 'game', subcommand: 'status', options: {}, actor: gm }));
      check('/unit list', await app.router.handle({ type: 'command', name: 'unit', subcommand: 'list', options: {}, actor: gm }));
      check('/history', await app.router.handle({ type: 'command', name: 'history', options: { scope: 'server' }, actor: gm }));
      check('/stats', await app.router.handle({ type: 'command', name: 'stats', options: { scope: 'server', by: 'user' }, actor: gm }));
      const ids = (app.ledger.db.prepare("SELECT id FROM rolls WHERE kind IN ('roll', 'reroll', 'check', 'game', 'unit')").all() as { id: string }[]).map(
        (r) => r.id,
      );
      for (const id of ids)
        check(`/roll show ${id}`, await app.router.handle({ type: 'command', name: 'roll', subcommand: 'show', options: { id }, actor: gm }));
      expect(leaks).toEqual([]);
      expect(ids.length).toBeGreaterThan(3);
      app.ledger.close();
    },
    120_000,
  );
});

/**
 * A rule pack whose names are the placeholders GRIT (an integer option and the unit field it is
 * taken from), MOOD (a choice option), CALM (one of its choices), CHECK (the first test) and PANIC
 * (a result, and the follow-up test it leads to): each is swapped for a name Object.prototype has.
 */
const namedPack = (id: string) => ({
  pack: id,
  version: 1,
  name: 'Named',
  description: 'Names in every keyed place',
  unit_fields: [{ name: 'GRIT', type: 'integer', min: 0, max: 5, default: 1 }],
  options: [
    { name: 'GRIT', type: 'integer', min: 0, max: 5, default: 3, from_unit: 'GRIT' },
    { name: 'MOOD', type: 'choice', choices: ['CALM', 'wild'], default: 'CALM' },
  ],
  modifiers: [
    { label: 'grit', per: 'GRIT', value: 1, to: 'target' },
    { label: 'calm', when: { MOOD: 'CALM' }, value: 1, to: 'target', tests: ['CHECK'] },
  ],
  tests: {
    CHECK: {
      dice: '2d6',
      target: 'GRIT',
      compare: 'at_most',
      specials: [{ faces: [6, 6], result: 'PANIC' }],
      results: {
        pass: { label: 'Holds', tone: 'good', effect: 'Holds.' },
        fail: { label: 'Shaken', tone: 'bad', effect: 'Loses grit.', unit: { add: { GRIT: -1 } } },
        // biome-ignore lint/suspicious/noThenProperty: a rule pack's own field, never awaited
        PANIC: { label: 'Panic', tone: 'bad', effect: 'Panics.', then: 'PANIC' },
      },
    },
    PANIC: {
      dice: '1d6',
      bands: [
        { to: 3, label: 'Routs', tone: 'bad', effect: 'Gone.', unit: { remove: true } },
        { from: 4, result: 'PANIC', label: 'Steadies', tone: 'neutral', effect: 'Stays.', unit: { set: { GRIT: 2 } } },
      ],
    },
  },
});

type Place = { place: string; pack: (word: string, id: string) => unknown; sound?: boolean };

const renamed = (placeholder: string) => (word: string, id: string) =>
  JSON.parse(
    JSON.stringify(namedPack(id))
      .replaceAll(`"${placeholder}"`, JSON.stringify(word))
      .replaceAll(/"(GRIT|MOOD|CALM|CHECK|PANIC)"/g, (_, p: string) => JSON.stringify(p.toLowerCase())),
  );
/** The sound pack with one reference pointed at the word, which names nothing there. */
const dangling = (change: (p: any, word: string) => void) => (word: string, id: string) => {
  const p = renamed('')(word, id) as any;
  change(p, word);
  return p;
};

/** Every place a pack's author names something the bot then looks up: as a name of its own, and as a reference to nothing. */
const PLACES: Place[] = [
  { place: 'an option and the unit field it is taken from', pack: renamed('GRIT'), sound: true },
  { place: 'a choice option', pack: renamed('MOOD'), sound: true },
  { place: 'a choice', pack: renamed('CALM'), sound: true },
  { place: 'the first test', pack: renamed('CHECK'), sound: true },
  { place: 'a result, a band and a follow-up test', pack: renamed('PANIC'), sound: true },
  // Beside the links the pack needs, so that nothing but the word is wrong.
  { place: 'then', pack: dangling((p, w) => Reflect.set(p.tests.check.results.fail, 'then', w)) },
  { place: 'a special’s result', pack: dangling((p, w) => p.tests.check.specials.push({ faces: [1, 1], result: w })) },
  { place: 'a when key', pack: dangling((p, w) => (p.modifiers[1].when = { [w]: 'calm' })) },
  { place: 'per', pack: dangling((p, w) => (p.modifiers[0].per = w)) },
  { place: 'target', pack: dangling((p, w) => (p.tests.check.target = w)) },
  { place: 'from_unit', pack: dangling((p, w) => (p.options[0].from_unit = w)) },
  { place: 'a unit change’s field', pack: dangling((p, w) => (p.tests.check.results.fail.unit = { add: { [w]: 1 } })) },
  { place: 'a modifier’s tests', pack: dangling((p, w) => (p.modifiers[1].tests = [w])) },
];

describe('a rule pack’s names, as a class', () => {
  it('every name Object.prototype has, in every place a pack names something: refused naming its path, or installed and rolled (with a unit too); never "Something went wrong"', async () => {
    const app = testApp(undefined, { roller: cryptoRoller });
    const failures: string[] = [];
    const installedAs: string[] = [];
    let n = 0;
    for (const word of INHERITED)
      for (const { place, pack, sound } of PLACES) {
        const id = `named-${n++}`;
        const what = `${word} as ${place}`;
        const installed = await installThrough(app.router, pack(word, id), gm);
        if (installed.type === 'error') {
          if (installed.ref || !installed.message.startsWith('The pack was not installed')) failures.push(`${what}: install: ${installed.message}`);
          // A name JavaScript gives no meaning of its own is a name like any other.
          if (sound && word === 'constructor') failures.push(`${what}: refused: ${installed.message}`);
          continue;
        }
        if (!sound) failures.push(`${what}: installed, though it names nothing`);
        installedAs.push(what);
        const actor = { ...gm, channelId: `c-${id}` };
        const field = place.startsWith('an option') ? word : 'grit';
        const asks: Request[] = [
          { type: 'command', name: id, options: {}, actor },
          { type: 'command', name: id, options: { odds_only: true }, actor },
          { type: 'command', name: id, options: { [word]: 'x' }, actor },
          { type: 'command', name: 'game', subcommand: 'start', options: { system: id, name: 'G' }, actor },
          { type: 'command', name: 'unit', subcommand: 'add', options: { name: 'U', fields: `${field}:4` }, actor },
          ...Array.from({ length: 6 }, (): Request => ({ type: 'command', name: id, options: { unit: 'U' }, actor })),
        ];
        for (const [i, ask] of asks.entries()) {
          const reply = await app.router.handle(ask);
          const said = `${what}: ${JSON.stringify(ask)}: ${reply.type === 'error' ? reply.message : ''}`;
          if (reply.type === 'error' && reply.ref) failures.push(said);
          // The roll, its odds, the game, the unit and its first roll are answered (a later one may find the unit routed).
          else if (reply.type === 'error' && i !== 2 && i < 6) failures.push(`${said} (refused)`);
        }
      }
    expect(failures).toEqual([]);
    // `constructor` is a name like any other; `__proto__` is refused as a name, but a choice may be it.
    expect(installedAs.sort()).toEqual([...PLACES.filter((p) => p.sound).map((p) => `constructor as ${p.place}`), '__proto__ as a choice'].sort());
    app.ledger.close();
  }, 240_000);
});
