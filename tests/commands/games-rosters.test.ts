import { afterEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/core/command.js';
import { newUnitFields } from '../../src/core/unit-fields.js';
import { systemModule } from '../../commands/systems.js';
import { UserError } from '../../src/core/user-error.js';
import { alice, bob, command, expectError, expectMessage, gm, press, testApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
afterEach(() => app?.ledger.close());

const sub = (actor: Actor, name: string, subcommand: string, options: Record<string, unknown> = {}) =>
  app.router.handle({ type: 'command', name, subcommand, options, actor });
const complete = (actor: Actor, name: string, option: string, value: string, subcommand?: string) =>
  app.router.handle({ type: 'autocomplete', name, subcommand, option, value, actor });
const unitFields = (name: string, actor: Actor = alice) => {
  const game = app.ledger.roster.activeGame(actor.guildId, actor.channelId)!;
  return app.ledger.roster.unitByName(game.id, name)?.fields;
};

/** What /unit add says of a unit of `system` given no fields at all. */
function newUnitRefusal(system: string): string | undefined {
  try {
    newUnitFields(systemModule(system)!.units, {});
  } catch (err) {
    if (err instanceof UserError) return err.message;
    throw err;
  }
  return undefined;
}

describe('/game', () => {
  it('one game per channel; a second start is refused and names the running game', async () => {
    app = testApp();
    expectMessage(await sub(alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Waterloo' }));
    expect(expectError(await sub(bob, 'game', 'start', { system: 'asl', name: 'Other' }))).toBe(
      'A game is already running in this channel: Waterloo (Hearts of Tin). End it with /game end first.',
    );
    // Another channel may run its own.
    expectMessage(await sub({ ...bob, channelId: 'c2' }, 'game', 'start', { system: 'asl', name: 'Other' }));
  });

  it('turn and phase tag every roll of the game; status counts them; only the starter or a GM manages it', async () => {
    app = testApp();
    await sub(alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Waterloo' });
    expect(expectError(await sub(bob, 'game', 'turn', { number: 3 }))).toBe('Only the player who started Waterloo, or a GM, can change it.');
    expectMessage(await sub(gm, 'game', 'turn', { number: 3, phase: 'Rally Phase' }));
    app.dice.push(5, 5, 5, 5);
    const roll = expectMessage(await command(app, bob, 'rally', { disorder: 1 }));
    const row = app.ledger.get('g1', roll.record!.roll_id)!;
    const game = app.ledger.roster.activeGame('g1', 'c1')!;
    expect(row).toMatchObject({ game_id: game.id, turn: 3, phase: 'Rally Phase' });
    // A roll of another system in the channel is not the game's.
    const other = expectMessage(await command(app, bob, 'morale', { morale: 'professional' }));
    expect(app.ledger.get('g1', other.record!.roll_id)!.game_id).toBeNull();
    const status = expectMessage(await sub(bob, 'game', 'status'));
    expect(status.embed.fields).toEqual(
      expect.arrayContaining([
        { name: 'Turn', value: '3 · Rally Phase', inline: true },
        { name: 'Rolls so far', value: '1', inline: true },
        { name: 'Roster', value: '0 units', inline: true },
      ]),
    );
    expect(app.ledger.verify('g1').ok).toBe(true);
  });

  it('end closes it; the next roll is untagged; the ledger has a row per change', async () => {
    app = testApp();
    await sub(alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Waterloo' });
    expect(expectError(await sub(bob, 'game', 'end'))).toContain('Only the player who started Waterloo');
    expectMessage(await sub(alice, 'game', 'end'));
    expect(expectError(await sub(alice, 'game', 'status'))).toContain('No game is running in this channel');
    const kinds = app.ledger.db
      .prepare("SELECT result FROM rolls WHERE kind = 'game' ORDER BY seq")
      .all()
      .map((r: any) => r.result);
    expect(kinds).toEqual(['game_started', 'game_ended']);
  });
});

describe('/unit', () => {
  it('names are unique per game, ignoring case', async () => {
    app = testApp();
    await sub(alice, 'game', 'start', { system: 'wacht-am-rhein', name: 'Bulge' });
    expectMessage(await sub(alice, 'unit', 'add', { name: '1/506 PIR', fields: 'attack:7 defense:5 movement:6' }));
    expect(expectError(await sub(bob, 'unit', 'add', { name: '1/506 pir', fields: 'attack:1 defense:1 movement:1' }))).toBe(
      'There is already a unit named "1/506 pir" in Bulge (names ignore case).',
    );
  });

  it("checks the fields of the game's system", async () => {
    app = testApp();
    await sub(alice, 'game', 'start', { system: 'wacht-am-rhein', name: 'Bulge' });
    expect(expectError(await sub(alice, 'unit', 'add', { name: 'X', fields: 'attack:7 defense:5' }))).toBe(
      'A Wacht am Rhein unit needs movement in `fields`, like fields:"attack:0 defense:0 movement:0".',
    );
    // The article as it is said (not "A ASL unit needs").
    expect(newUnitRefusal('asl')).toBe('An ASL unit needs counter in `fields`, like fields:"counter:German 4-6-7".');
    expect(expectError(await sub(alice, 'unit', 'add', { name: 'X', fields: 'attack:7 defense:5 movement:6 disorder:2' }))).toBe(
      '`fields`: disorder is not a field of a Wacht am Rhein unit (its fields: attack, defense, movement, mode, fatigue).',
    );
  });

  it('offers the channel game’s own fields as you type, then their values; none outside a game', async () => {
    app = testApp();
    expect(await complete(alice, 'unit', 'fields', '', 'add')).toEqual({ type: 'choices', choices: [] });
    await sub(alice, 'game', 'start', { system: 'lightning-war', name: 'Kursk' });
    const offered = await complete(alice, 'unit', 'fields', 'original:5 mor', 'add');
    expect(offered).toEqual({
      type: 'choices',
      choices: ['shaken', 'leery', 'professional', 'resolved', 'fanatic'].map((m) => ({ name: `original:5 morale:${m}`, value: `original:5 morale:${m}` })),
    });
    expectMessage(await sub(alice, 'unit', 'add', { name: 'Recon', fields: 'original:5 morale:leery' }));
    expect(await complete(alice, 'unit', 'fields', 'state:r', 'edit')).toEqual({
      type: 'choices',
      choices: [
        { name: 'state:retreating', value: 'state:retreating' },
        { name: 'state:routing', value: 'state:routing' },
      ],
    });
  });

  it('only the owner or a GM may edit or remove; only a GM may give a unit away', async () => {
    app = testApp();
    await sub(alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Waterloo' });
    await sub(alice, 'unit', 'add', { name: 'Old Guard', fields: 'original:10 quality:elite' });
    expect(expectError(await sub(bob, 'unit', 'edit', { unit: 'old guard', fields: 'disorder:3' }))).toBe(
      'Only Alice, who owns Old Guard, or a GM can change it.',
    );
    expect(expectError(await sub(bob, 'unit', 'remove', { unit: 'Old Guard' }))).toBe('Only Alice, who owns Old Guard, or a GM can remove it.');
    expect(expectError(await sub(alice, 'unit', 'edit', { unit: 'Old Guard', owner: 'bob' }))).toBe('Only a GM can give a unit to another player.');
    expectMessage(await sub(alice, 'unit', 'edit', { unit: 'Old Guard', fields: 'disorder:3' }));
    expectMessage(await sub(gm, 'unit', 'edit', { unit: 'Old Guard', owner: 'bob', fields: 'strength:8' }));
    expect(unitFields('Old Guard')).toMatchObject({ disorder: 3, strength: 8, original: 10 });
    expect(expectError(await sub(gm, 'unit', 'edit', { unit: 'Old Guard', fields: 'strength:11' }))).toBe(
      '`fields`: strength (11) cannot be more than original (10).',
    );
    expectMessage(await sub(bob, 'unit', 'remove', { unit: 'Old Guard' }));
    expect(unitFields('Old Guard')).toBeUndefined();
  });

  it('list pages with buttons past ten units; the buttons are checked against the database', async () => {
    app = testApp();
    await sub(alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Waterloo' });
    for (let i = 1; i <= 12; i++) await sub(alice, 'unit', 'add', { name: `Battalion ${String(i).padStart(2, '0')}`, fields: 'original:10' });
    const first = expectMessage(await sub(bob, 'unit', 'list'));
    expect(first.embed.description!.split('\n')).toHaveLength(10);
    expect(first.embed.footer!.text).toMatch(/^page 1 of 2 · 12 units/);
    expect(first.buttons.map((b) => b.label)).toEqual(['Next ▶']);
    const second = expectMessage(await press(app, bob, first.buttons[0]!.custom_id));
    expect(second.type).toBe('update');
    expect(second.embed.description!.split('\n')).toHaveLength(2);
    expect(second.buttons.map((b) => b.label)).toEqual(['◀ Previous']);
    expect(expectError(await press(app, { ...bob, channelId: 'c9' }, first.buttons[0]!.custom_id))).toBe('That roster is not in this channel.');
    expect(expectError(await press(app, { ...bob, guildId: 'g9' }, first.buttons[0]!.custom_id))).toBe('That roster is not in this channel.');
  });
});

describe('isolation between channels and servers', () => {
  it('a game and its units are never visible or autocompleted elsewhere', async () => {
    app = testApp();
    await sub(alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Waterloo' });
    await sub(alice, 'unit', 'add', { name: 'Old Guard', fields: 'original:10' });
    const elsewhere = [
      { ...alice, channelId: 'c2' },
      { ...alice, guildId: 'g2' },
    ];
    for (const actor of elsewhere) {
      expect(expectError(await sub(actor, 'game', 'status'))).toContain('No game is running in this channel');
      expect(expectError(await sub(actor, 'unit', 'show', { unit: 'Old Guard' }))).toContain('No game is running');
      expect(await complete(actor, 'unit', 'unit', 'Old', 'show')).toEqual({ type: 'choices', choices: [] });
      expect(await complete(actor, 'rally', 'unit', 'Old')).toEqual({ type: 'choices', choices: [] });
    }
    expect(await complete(alice, 'unit', 'unit', 'old', 'show')).toEqual({ type: 'choices', choices: [{ name: 'Old Guard', value: 'Old Guard' }] });
  });
});

describe('roster defaults and write-back', () => {
  it('Hearts of Tin: disorder from the roster, cleared on a rally; the unit removed on a rout', async () => {
    app = testApp();
    await sub(alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Waterloo' });
    await sub(alice, 'unit', 'add', { name: 'Old Guard', fields: 'original:10 quality:elite disorder:2' });
    await sub(alice, 'unit', 'add', { name: 'Landwehr', fields: 'original:10 quality:militia disorder:4' });
    app.dice.push(4);
    const r = expectMessage(await command(app, alice, 'rally', { unit: 'Old Guard' }));
    // 4 + 1 (elite) − 1 (second marker) = 4: rally.
    expect(r.record!.steps[0]).toMatchObject({ final: 4, result: 'rally' });
    expect(unitFields('Old Guard')).toMatchObject({ disorder: 0 });
    expect(expectError(await command(app, alice, 'rally', { unit: 'Old Guard' }))).toBe(
      'Old Guard has no disorder markers: a unit with no disorder does not need to rally.',
    );
    // An explicit option wins over the roster: the roster says elite with no
    // markers; the options say militia with three. 4 − 1 (militia) − 2 (two extra markers) = 1.
    app.dice.push(4);
    const explicit = expectMessage(await command(app, alice, 'rally', { unit: 'Old Guard', disorder: 3, quality: 'militia' }));
    expect(explicit.record!.steps[0]).toMatchObject({
      original: 4,
      modifiers: [
        { reason: 'militia', value: -1 },
        { reason: 'each extra disorder marker', value: -2 },
      ],
      final: 1,
    });
    app.dice.push(1);
    expectMessage(await command(app, alice, 'rally', { unit: 'Landwehr' }));
    expect(unitFields('Landwehr')).toBeUndefined();
    const rows = app.ledger.db.prepare("SELECT result, parent_id FROM rolls WHERE kind = 'unit' AND command = 'rally' ORDER BY seq").all() as any[];
    expect(rows.map((x) => x.result)).toEqual(['unit_updated', 'unit_removed']);
    expect(rows.every((x) => x.parent_id)).toBe(true);
  });

  it('Hearts of Tin: a failed rally with the commander on offer keeps the unit until the re-roll', async () => {
    app = testApp();
    await sub(alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Waterloo' });
    await sub(alice, 'unit', 'add', { name: 'Landwehr', fields: 'original:10 quality:militia disorder:3' });
    app.dice.push(1);
    const first = expectMessage(await command(app, alice, 'rally', { unit: 'Landwehr', commander_near: true }));
    expect(first.record!.result).toBe('rout');
    expect(unitFields('Landwehr')).toBeDefined();
    app.dice.push(6);
    const reroll = expectMessage(await press(app, alice, first.buttons[0]!.custom_id));
    expect(reroll.record!.result).toBe('retreat');
    expect(unitFields('Landwehr')).toMatchObject({ disorder: 3 });
  });

  it('a unit that left the roster is not rolled again as a new one: the roll says so and what to do', async () => {
    app = testApp();
    await sub(alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Waterloo' });
    await sub(alice, 'unit', 'add', { name: '1st Foot', fields: 'original:10 quality:militia disorder:3' });
    app.dice.push(1);
    // A rout with no commander on offer removes the unit at once.
    expect(expectMessage(await command(app, alice, 'rally', { unit: '1st Foot' })).record!.result).toBe('rout');
    expect(unitFields('1st Foot')).toBeUndefined();
    const before = app.ledger.count('g1');
    const refusal = expectError(await command(app, alice, 'rally', { unit: '1st foot', disorder: 1 }));
    expect(refusal).toMatch(
      /^1st Foot left the roster of Waterloo \(\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\): nothing was rolled\. To roll for it anyway, leave `unit` out; to bring it back, \/unit add it again\.$/,
    );
    expect(app.ledger.count('g1')).toBe(before);
    // A name the roster never had stays a plain label.
    app.dice.push(4);
    expect(expectMessage(await command(app, alice, 'rally', { unit: '2nd Foot', disorder: 1 })).record!.result).toBeDefined();
  });

  it('Hearts of Tin: /disorder adds markers and takes the losses; /brigade reads the brigade from the roster', async () => {
    app = testApp();
    await sub(alice, 'game', 'start', { system: 'hearts-of-tin', name: 'Waterloo' });
    await sub(alice, 'unit', 'add', { name: 'A', fields: 'original:8 brigade:Highland' });
    await sub(alice, 'unit', 'add', { name: 'B', fields: 'original:8 brigade:Highland' });
    const d = expectMessage(await command(app, alice, 'disorder', { unit: 'A', lost: 2, melee: 'defeated' }));
    expect(d.record!.steps[0]).toMatchObject({ markers: 2 });
    expect(unitFields('A')).toMatchObject({ strength: 6, disorder: 2 });
    await command(app, alice, 'disorder', { unit: 'B', lost: 6 });
    const b = expectMessage(await command(app, alice, 'brigade', { brigade: 'highland' }));
    expect(b.record!.result).toBe('shaken'); // 8 of 16 lost
    expect(b.embed.description).toContain('from its 2 roster units');
    expect(unitFields('A')).toMatchObject({ brigade_shaken: true });
  });

  it('Lightning War: morale and casualties from the roster; an elimination removes the unit', async () => {
    app = testApp();
    await sub(alice, 'game', 'start', { system: 'lightning-war', name: 'Kursk' });
    await sub(alice, 'unit', 'add', { name: '2nd Platoon', fields: 'morale:leery original:5 casualties:2' });
    app.dice.push(1, 1, 1);
    const r = expectMessage(await command(app, alice, 'morale', { unit: '2nd Platoon' }));
    expect((r.record!.steps[0] as unknown as { modifiers: unknown }).modifiers).toMatchObject([
      { reason: 'leery morale', value: -2 },
      { reason: 'casualties over 20% up to 40% (2/5)', value: -2 },
    ]);
    expect(r.record!.result).toBe('eliminated');
    expect(unitFields('2nd Platoon')).toBeUndefined();
  });

  it('ASL: the counter and status from the roster; battle hardening changes the counter; refusing puts it back', async () => {
    app = testApp();
    await sub(alice, 'game', 'start', { system: 'asl', name: 'Stalingrad' });
    await sub(alice, 'unit', 'add', { name: 'Able', fields: 'counter:ge 467 broken:true' });
    expect(unitFields('Able')).toMatchObject({ counter: 'German 4-6-7', broken: true });
    app.dice.push(3, 3);
    const r = expectMessage(await command(app, alice, 'hob', { unit: 'Able' }));
    // 6 + 1 (broken, from the roster) = 7: battle hardening into a 4-6-8, unbroken.
    expect(r.record!.steps[0]).toMatchObject({ final: 7, result: 'battle_hardening', unit_after: 'German 4-6-8' });
    expect(r.embed.title).toBe('Heat of Battle · Able — Battle Hardening');
    expect(unitFields('Able')).toMatchObject({ counter: 'German 4-6-8', broken: false });
    expectMessage(await press(app, alice, r.buttons[0]!.custom_id));
    // Refusing leaves it exactly as it was, broken included (A15.3).
    expect(unitFields('Able')).toMatchObject({ counter: 'German 4-6-7', broken: true });
    expectMessage(await sub(alice, 'unit', 'edit', { unit: 'Able', fields: 'broken:false' }));
    app.dice.push(5, 5);
    expectMessage(await command(app, alice, 'mc', { unit: 'Able', number: 1 }));
    expect(unitFields('Able')).toMatchObject({ broken: true });
    expect(await complete(alice, 'hob', 'unit', 'Ab')).toEqual({ type: 'choices', choices: [{ name: 'Able', value: 'Able' }] });
    expect(app.ledger.verify('g1').ok).toBe(true);
  });

  it('Wacht am Rhein: /fatigue changes the roster, only by the owner or a GM', async () => {
    app = testApp();
    await sub(alice, 'game', 'start', { system: 'wacht-am-rhein', name: 'Bulge' });
    await sub(alice, 'unit', 'add', { name: 'KG Peiper', fields: 'attack:7 defense:5 movement:6 mode:maneuver_reserve' });
    expect(expectError(await sub(bob, 'fatigue', 'event', { unit: 'KG Peiper', event: 'overkill' }))).toBe(
      'Only Alice, who owns KG Peiper, or a GM can change it. To roll without changing the roster, leave the unit out.',
    );
    expectMessage(await sub(alice, 'fatigue', 'event', { unit: 'KG Peiper', event: 'left_maneuver_reserve' }));
    await sub(alice, 'game', 'turn', { number: 1, phase: 'ENA' });
    const e = expectMessage(await sub(alice, 'fatigue', 'event', { unit: 'KG Peiper', event: 'ena_activated' }));
    expect(e.record!.result).toBe('normal');
    expect(unitFields('KG Peiper')).toMatchObject({ fatigue: 'normal', mr_exemption: true });
    await sub(alice, 'game', 'turn', { number: 2, phase: 'ENA' });
    expect(unitFields('KG Peiper')).toMatchObject({ mr_exemption: false });
    expectMessage(await sub(gm, 'fatigue', 'event', { unit: 'KG Peiper', event: 'ena_activated' }));
    expect(unitFields('KG Peiper')).toMatchObject({ fatigue: 'fatigued' });
    await sub(alice, 'unit', 'edit', { unit: 'KG Peiper', fields: 'mode:strategic' });
    await sub(alice, 'game', 'turn', { number: 2, phase: 'Resting' });
    // Not adjacent to an enemy unless said (the option once had no default).
    const stay = expectMessage(await sub(alice, 'fatigue', 'recover', { unit: 'KG Peiper', moved: false }));
    expect(JSON.stringify(stay.embed)).toContain('it is not in Tactical mode');
  });

  it('Wacht am Rhein: an untracked unit is computed from its options', async () => {
    app = testApp();
    const s = expectMessage(await sub(alice, 'fatigue', 'status', { status: 'resting', attack: 5, defense: 3, movement: 7 }));
    expect(JSON.stringify(s.embed)).toContain('**3-2-4** (halved, rounded up, from 5-3-7)');
    expect(expectError(await sub(alice, 'fatigue', 'status', { status: 'resting' }))).toBe('An untracked unit needs `attack`, `defense` and `movement`.');
    expect(expectError(await sub(alice, 'fatigue', 'recover', { status: 'resting', adjacent_enemy: false, moved: false }))).toContain('`tactical` is required');
  });
});
