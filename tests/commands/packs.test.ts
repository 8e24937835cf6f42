import fs from 'node:fs';
import { parse } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { alice, command, expectError, expectMessage, gm, rollWith, subcommand, testApp, type TestApp } from '../helpers/app.js';
import { loaded, nervePack } from '../helpers/packs.js';
import { packExport, rowsOf, tamperPacks } from '../helpers/verify-corpus.js';
import { verifyInBot } from '../helpers/verify-in-bot.js';

/** Rule packs through the router, as a GM installs one and players roll it. */

let app: TestApp;
beforeEach(() => {
  app = testApp();
});
afterEach(() => app.ledger.close());

const install = (options: Record<string, unknown>, files?: Record<string, { name: string; size: number; text: string }>) =>
  app.router.handle({ type: 'command', name: 'pack', subcommand: 'install', options, actor: gm, ...(files ? { files } : {}) });
const attach = (text: string) => install({ file: 'f1' }, { f1: { name: 'pack.yaml', size: Buffer.byteLength(text), text } });
const rows = (command: string) => app.ledger.history.page({ guildId: 'g1', command, kinds: 'all' }, 50, 0).rows;

describe('/pack install', () => {
  it('installs a shipped example: the reply lists its command and options, and a pack row holds its canonical JSON and hash', async () => {
    const r = expectMessage(await install({ example: 'bolt-action-order' }));
    expect(r.embed.title).toBe('Pack installed');
    expect(r.embed.description).toContain('`/bolt-action-order [morale:] [pins:] [officer:] [unit:] [sealed:] [note:] [odds_only:]`');
    const [row] = rows('pack');
    expect(row).toMatchObject({ kind: 'pack', system: 'unknown', result: 'pack_installed' });
    const input = row!.input as { action: string; pack: { pack: string; version: number }; sha256: string };
    expect([input.action, input.pack.pack, input.pack.version, input.sha256]).toEqual([
      'install',
      'bolt-action-order',
      1,
      expect.stringMatching(/^[0-9a-f]{64}$/),
    ]);
  });

  it('installs an attached file; a bad one is refused with every problem, each naming its path, and nothing recorded', async () => {
    expectMessage(await attach(JSON.stringify(nervePack())));
    const bad = nervePack() as any;
    bad.pack = 'nerve-two';
    bad.options[2].choices = [];
    bad.tests.panic.bands[1].from = 4;
    const message = expectError(await attach(JSON.stringify(bad)));
    expect(message).toBe('The pack was not installed:\n• options[2].choices: at least 1 entry (you gave 0)');
    bad.options[2].choices = ['none'];
    bad.modifiers = bad.modifiers.filter((m: { when?: object }) => !m.when);
    expect(expectError(await attach(JSON.stringify(bad)))).toBe('The pack was not installed:\n• tests.panic.bands: 3 is a reachable total in no band');
    expect(rows('pack')).toHaveLength(1);
  });

  it('is for GMs; a second install of an id needs a higher version; the built-in commands are not for taking', async () => {
    expect(
      expectError(await app.router.handle({ type: 'command', name: 'pack', subcommand: 'install', options: { example: 'warhammer-break' }, actor: alice })),
    ).toMatch(/^Only a GM/);
    expectMessage(await attach(JSON.stringify(nervePack())));
    // The same file again records nothing (and, in Discord, registers its command again).
    const again = expectMessage(await attach(JSON.stringify(nervePack())));
    expect([again.embed.title, again.embed.description?.split('\n')[2]]).toEqual([
      'Pack already installed',
      'This exact pack is installed already: nothing new was recorded. Its command works here (no Discord connection to register it with).',
    ]);
    expect(rows('pack')).toHaveLength(1);
    expect(expectError(await attach(JSON.stringify({ ...nervePack(), name: 'Nerve test, changed' })))).toBe(
      '/nerve-test is installed at version 1: a changed pack needs a higher version (you gave 1).',
    );
    expectMessage(await attach(JSON.stringify({ ...nervePack(), version: 2 })));
    expect(expectError(await attach(JSON.stringify({ ...nervePack(), pack: 'rally' })))).toBe(
      'The pack was not installed:\n• pack: "rally" is a command the bot already has',
    );
    expect(expectError(await install({}))).toBe('Give one of file: (a pack file you attach) or example: (a pack the bot ships).');
  });
});

describe('rolling an installed pack', () => {
  beforeEach(async () => {
    expectMessage(await attach(JSON.stringify(nervePack())));
  });

  it('rolls with its options, shows the outcome in the title, and records the pack row it used with the odds', async () => {
    const r = await rollWith(app, 'nerve-test', { nerve: 7, pins: 2 }, [3, 2]);
    expect(r.embed.title).toBe('Nerve test — Holds');
    expect(r.embed.description).toBe('nerve 7 · pins 2 · leader none · in cover no');
    expect(r.embed.fields?.find((f) => f.name === 'Target')?.value).toBe('7 then `−2` each pin marker → **5**\npasses on a final ≤ 5');
    const [roll] = rows('nerve-test');
    const [packRow] = rows('pack');
    expect(roll).toMatchObject({ kind: 'roll', system: 'pack:nerve-test', result: 'pass', dice: [3, 2] });
    expect(roll!.input).toEqual({
      pack: { id: 'nerve-test', version: 1, row: packRow!.id, sha256: (packRow!.input as { sha256: string }).sha256 },
      options: { nerve: 7, pins: 2, leader: 'none', in_cover: false },
    });
    // Totals 2 to 5 are 10 of 36, less double 1 (Steady): 9/36.
    expect((roll!.outcome as { odds: { exactly: string } }).odds.exactly).toBe('1/4');
  });

  it('the dice report counts the first test’s dice under the pack’s command', async () => {
    await rollWith(app, 'nerve-test', { nerve: 7 }, [3, 2]);
    await rollWith(app, 'nerve-test', { nerve: 7 }, [6, 6, 1]);
    expect(rows('nerve-test').map((r) => (r.outcome as { tally: unknown }).tally)).toEqual([
      { shape: '2d6', total: 12 },
      { shape: '2d6', total: 5 },
    ]);
    const stats = expectMessage(await command(app, alice, 'stats', { command: 'nerve-test' }));
    expect(JSON.stringify(stats.embed)).toMatch(/2d6/);
    expect(JSON.stringify(stats.embed)).toMatch(/\b2 rolls\b/);
  });

  it('a double 6 rolls the follow-up in the same roll', async () => {
    const r = await rollWith(app, 'nerve-test', { nerve: 7 }, [6, 6, 1]);
    expect(r.embed.title).toBe('Nerve test — Panic · Routs');
    expect(rows('nerve-test')[0]).toMatchObject({ result: 'panic → routs', dice: [6, 6, 1] });
  });

  it('odds_only shows every result’s exact chance and records nothing', async () => {
    const r = expectMessage(await command(app, alice, 'nerve-test', { nerve: 7, odds_only: true }));
    expect(r.embed.description).toBe(
      [
        'nerve 7 · pins 0 · leader none · in cover no',
        '',
        '**Steady** — 1/36 (2.8%)',
        '**Holds** — 5/9 (55.6%)',
        '**Goes to ground** — 7/18 (38.9%)',
        '**Panic → Holds on** — 1/108 (0.9%)',
        '**Panic → Falls back** — 1/108 (0.9%)',
        '**Panic → Routs** — 1/108 (0.9%)',
        '',
        '*Nothing was rolled or recorded.*',
      ].join('\n'),
    );
    expect(rows('nerve-test')).toHaveLength(0);
  });

  it('refuses a required option left out, naming it, and a value outside its range', async () => {
    expect(expectError(await command(app, alice, 'nerve-test', {}))).toBe('/nerve-test: nerve is needed: give it, or name a unit that has nerve.');
    expect(expectError(await command(app, alice, 'nerve-test', { nerve: 13 }))).toMatch(/nerve/);
  });

  it('/help lists the server’s packs with the commands', async () => {
    const help = expectMessage(await command(app, alice, 'help', {}));
    // In a field of their own: the built-in commands fill the description.
    expect(help.embed.fields).toContainEqual({
      name: 'Rule packs of this server',
      value:
        '**/nerve-test** *(rule pack, version 1)* — A unit under fire tests its nerve\n`/nerve-test [nerve:] [pins:] [leader:] [in_cover:] [unit:] [sealed:] [note:] [odds_only:]`',
    });
  });

  it('is a command of its own server only', async () => {
    expect(expectError(await command(app, { ...alice, guildId: 'g2' }, 'nerve-test', { nerve: 7 }))).toMatch(/^There is no \/nerve-test command/);
  });

  it('escapes every text the pack’s author wrote', async () => {
    const p = { ...nervePack(), pack: 'marked', name: '**Loud** _nerve_' };
    p.tests.check.results.pass.label = '@everyone [click](https://x.invalid)';
    expectMessage(await attach(JSON.stringify(p)));
    const r = await rollWith(app, 'marked', { nerve: 7 }, [3, 2]);
    // An embed's title never pings; a masked link needs its [ escaped only.
    expect(r.embed.title).toBe('\\*\\*Loud\\*\\* \\_nerve\\_ — @everyone \\[click](https://x.invalid)');
  });
});

describe('/pack list, show and remove', () => {
  it('lists, gives the file back, and removes the command while its rolls stay on record', async () => {
    expectMessage(await attach(JSON.stringify(nervePack())));
    await rollWith(app, 'nerve-test', { nerve: 7 }, [3, 2]);
    expect(expectMessage(await subcommand(app, alice, 'pack', 'list')).embed.description).toMatch(
      /^`\/nerve-test \[nerve:\] \[pins:\] \[leader:\] \[in_cover:\] \[unit:\] \[sealed:\] \[note:\] \[odds_only:\]` — Nerve test \(version 1/,
    );
    const shown = expectMessage(await subcommand(app, alice, 'pack', 'show', { pack: 'nerve-test' }));
    const file = shown.type === 'message' ? shown.files?.[0] : undefined;
    expect(file?.name).toBe('nerve-test.yaml');
    expect(parse(String((file as { data: Buffer }).data))).toEqual({ ...loaded() });
    expect(expectError(await subcommand(app, alice, 'pack', 'remove', { pack: 'nerve-test' }))).toMatch(/^Only a GM/);
    expectMessage(await subcommand(app, gm, 'pack', 'remove', { pack: 'nerve-test' }));
    expect(expectError(await command(app, alice, 'nerve-test', { nerve: 7 }))).toMatch(/^There is no \/nerve-test command/);
    expect(rows('nerve-test')).toHaveLength(1);
    expect(expectError(await subcommand(app, gm, 'pack', 'remove', { pack: 'nerve-test' }))).toBe(
      'No pack "nerve-test" is installed here. /pack list shows the installed ones.',
    );
  });
});

it('every shipped example installs', async () => {
  for (const f of fs.readdirSync('packs')) expectMessage(await install({ example: f.replace(/\.yaml$/, '') }));
});

describe('/verify in the bot re-adjudicates pack rolls', () => {
  /** The export's ledger rows (not its key or evidence lines). */
  const chained = (text: string) => rowsOf(text).filter((r) => 'hash' in r);

  it('all hold; an edited result is named with what its dice give', async () => {
    const text = await packExport();
    expect(await verifyInBot(chained(text))).toMatch(/^Ledger intact\n.*, 2 rule pack rolls ruled again from their pack/);
    let id = '';
    const forged = tamperPacks(text, (_p, pass) => {
      id = pass.id;
      pass.result = pass.outcome.result = pass.outcome.steps[0].result = 'fail';
    });
    expect(await verifyInBot(chained(forged))).toContain(
      `• pack roll ${id}: FAILED: recorded fail, but its dice and input give pass under pack nerve-test version 1`,
    );
  });
});
