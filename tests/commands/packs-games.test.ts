import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRouter } from '../../src/app.js';
import { Ledger } from '../../src/ledger/ledger.js';
import { createLogger } from '../../src/log.js';
import { alice, bob, command, expectError, expectMessage, gm, rollWith, rosterFields, subcommand, testApp, type TestApp } from '../helpers/app.js';
import { installThrough, nervePack } from '../helpers/packs.js';
import { tmpDb } from '../helpers/tmp.js';

/** A rule pack as a game's system: its roster units carry the pack's fields, and its rolls read and change them. */

let app: TestApp;
beforeEach(async () => {
  app = testApp();
  expectMessage(await installThrough(app.router, nervePack()));
});
afterEach(() => app.ledger.close());

describe('/game start with a rule pack', () => {
  it('starts a game of an installed pack, offered as you type beside the built-in systems', async () => {
    const r = expectMessage(await subcommand(app, alice, 'game', 'start', { system: 'nerve-test', name: 'Hill 112' }));
    expect(r.embed.description).toContain('Rolls of nerve-test (rule pack) in this channel now belong to this game.');
    expect(app.ledger.roster.activeGame('g1', 'c1')).toMatchObject({ system: 'pack:nerve-test', name: 'Hill 112' });
    const offered = await app.router.handle({ type: 'autocomplete', name: 'game', subcommand: 'start', option: 'system', value: 'ne', actor: alice });
    expect(offered).toEqual({ type: 'choices', choices: [{ name: 'Nerve test (rule pack)', value: 'nerve-test' }] });
  });

  it('refuses a system that is neither built in nor installed, listing both', async () => {
    expect(expectError(await subcommand(app, alice, 'game', 'start', { system: 'warhammer', name: 'X' }))).toBe(
      '`system` "warhammer" is not a rule system here: one of asl, hearts-of-tin, lightning-war, wacht-am-rhein, nerve-test.',
    );
  });
});

describe('a pack game’s roster and rolls', () => {
  beforeEach(async () => {
    expectMessage(await subcommand(app, alice, 'game', 'start', { system: 'nerve-test', name: 'Hill 112' }));
  });

  it('/unit add takes the pack’s fields in one option, defaults filled, and refuses what the pack does not have', async () => {
    const added = expectMessage(await subcommand(app, alice, 'unit', 'add', { name: '1st Squad', fields: 'nerve:8' }));
    expect(added.embed.fields?.[0]?.value).toBe('nerve 8 · pins 0');
    expect(rosterFields(app, '1st Squad')).toEqual({ nerve: 8, pins: 0 });
    expect(expectError(await subcommand(app, alice, 'unit', 'add', { name: 'B', fields: 'pins:1' }))).toBe(
      'A /nerve-test unit needs nerve in `fields`, like fields:"nerve:2".',
    );
    expect(expectError(await subcommand(app, alice, 'unit', 'add', { name: 'B', fields: 'nerve:13' }))).toBe(
      '`fields`: nerve must be a whole number from 2 to 12 (you gave "13").',
    );
    expect(expectError(await subcommand(app, alice, 'unit', 'add', { name: 'B', fields: 'nerve:7 grit:2' }))).toBe(
      '`fields`: grit is not a field of a /nerve-test unit (its fields: nerve, pins).',
    );
    // A built-in system's field is refused the same way: one reader for every system's units.
    expect(expectError(await subcommand(app, alice, 'unit', 'edit', { unit: '1st Squad', fields: 'quality:elite' }))).toBe(
      '`fields`: quality is not a field of a /nerve-test unit (its fields: nerve, pins).',
    );
    // A GM mends a unit's field by hand, as in any game.
    expectMessage(await subcommand(app, alice, 'unit', 'edit', { unit: '1st Squad', fields: 'pins:2' }));
    expect(rosterFields(app, '1st Squad')).toEqual({ nerve: 8, pins: 2 });
  });

  it('a roll naming the unit reads its fields, joins the game, and writes the result back in the same unit of work', async () => {
    expectMessage(await subcommand(app, alice, 'unit', 'add', { name: '1st Squad', fields: 'nerve:8 pins:1' }));
    // Target 8 − 1 pin = 7; 4 + 4 = 8 fails: one more pin.
    const r = await rollWith(app, 'nerve-test', { unit: '1st Squad' }, [4, 4]);
    expect(r.embed.title).toBe('Nerve test · 1st Squad — Goes to ground');
    expect(r.embed.description).toBe('nerve 8 · pins 1 · leader none · in cover no\nfrom the unit: nerve, pins\n1st Squad: pins 1 → 2');
    expect(rosterFields(app, '1st Squad')).toEqual({ nerve: 8, pins: 2 });
    const game = app.ledger.roster.activeGame('g1', 'c1')!;
    const [roll] = app.ledger.history.page({ guildId: 'g1', command: 'nerve-test' }, 5, 0).rows;
    expect(roll).toMatchObject({ game_id: game.id, unit: '1st Squad', result: 'fail' });
    expect(roll!.input).toMatchObject({ options: { nerve: 8, pins: 1 }, from_unit: ['nerve', 'pins'] });
    expect((roll!.outcome as { steps: { sides: number[] }[] }).steps[0]!.sides).toEqual([6, 6]);
  });

  it('an option given wins over the unit’s field, and the reply says so', async () => {
    expectMessage(await subcommand(app, alice, 'unit', 'add', { name: '1st Squad', fields: 'nerve:8 pins:3' }));
    const r = await rollWith(app, 'nerve-test', { unit: '1st Squad', pins: 0 }, [4, 4]);
    expect(r.embed.description).toBe("nerve 8 · pins 0 · leader none · in cover no\nfrom the unit: nerve\ngiven over the unit's value: pins");
    expect(r.embed.title).toBe('Nerve test · 1st Squad — Holds');
  });

  it('a rout removes the unit; only its owner or a GM may roll it', async () => {
    expectMessage(await subcommand(app, alice, 'unit', 'add', { name: '1st Squad', fields: 'nerve:8' }));
    expect(expectError(await command(app, bob, 'nerve-test', { unit: '1st Squad' }))).toMatch(/^Only Alice, who owns 1st Squad, or a GM can/);
    await rollWith(app, 'nerve-test', { unit: '1st Squad' }, [6, 6, 2]);
    expect(rosterFields(app, '1st Squad')).toBeUndefined();
  });
});

describe('a pack game verified', () => {
  it('its dice recomputed from the revealed seed at its end (the pack’s own dice sizes), and every pack roll re-adjudicated', async () => {
    const ledger = Ledger.open(tmpDb());
    // The bot's own dice: a game's seeded stream, nothing pinned.
    const router = createRouter({ ledger, log: createLogger({ level: 'silent' }) });
    const d10 = { ...nervePack(), pack: 'd10-nerve' };
    d10.tests.panic.dice = '1d10';
    d10.tests.panic.bands = [
      { from: 7, label: 'Holds on', tone: 'neutral', effect: 'Stays.' },
      { from: 3, to: 6, label: 'Falls back', tone: 'bad', effect: 'Back.' },
      { to: 2, label: 'Routs', tone: 'bad', effect: 'Gone.', unit: { remove: true } },
    ] as never;
    expectMessage(await installThrough(router, d10));
    expectMessage(await router.handle({ type: 'command', name: 'game', subcommand: 'start', options: { system: 'd10-nerve', name: 'Seeded' }, actor: alice }));
    for (let i = 0; i < 40; i++) expectMessage(await router.handle({ type: 'command', name: 'd10-nerve', options: { nerve: 7 }, actor: alice }));
    // Two sealed rolls: nothing of their result shown; one revealed by its roller, the other by the game's end.
    const sealed = [];
    for (let i = 0; i < 2; i++)
      sealed.push(expectMessage(await router.handle({ type: 'command', name: 'd10-nerve', options: { nerve: 7, sealed: true }, actor: alice })));
    expect(sealed[0]!.embed.title).toBe('Sealed roll · /d10-nerve');
    expect(sealed[0]!.embed.description).toMatch(/^Sealed roll `\w+` by <@alice>: the result is recorded/);
    expect(JSON.stringify(sealed[0]!.embed)).not.toMatch(/Holds|Goes to ground|Panic|Routs|Falls back|Steady/);
    const revealed = expectMessage(await router.handle({ type: 'command', name: 'reveal', options: { id: sealed[0]!.record!.roll_id }, actor: alice }));
    expect(revealed.embed.title).toMatch(/^Nerve test — /);
    expectMessage(await router.handle({ type: 'command', name: 'game', subcommand: 'end', options: { reveal_sealed: true }, actor: gm }));
    const verified = expectMessage(await router.handle({ type: 'command', name: 'verify', options: {}, actor: gm }));
    ledger.close();
    expect(verified.embed.title).toBe('Ledger intact');
    expect(verified.embed.description).toMatch(/every die of 1 ended game recomputed from its seeds, 42 rule pack rolls ruled again from their pack/);
  });
});
