import { afterEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/core/command.js';
import { ConsoleSession } from '../../src/console/session.js';
import { alice, appWithGame, bob, command, expectError, expectMessage, gm, rosterFields, subcommand, testApp, type TestApp } from '../helpers/app.js';

// The state a game carries, item by item, through the router with rosters.
let app: TestApp;
afterEach(() => app?.ledger.close());

const sub = (actor: Actor, name: string, subcommandName: string, options: Record<string, unknown> = {}) =>
  subcommand(app, actor, name, subcommandName, options);
const fields = (name: string) => rosterFields(app, name);
async function game(system: string, units: Record<string, Record<string, unknown>> = {}, owner: Actor = alice) {
  app = await appWithGame(system, units, owner);
}

describe('Hearts of Tin across turns', () => {
  it('1. /brigade counts a routed unit with all its strength lost: 18 of 36 is shaken', async () => {
    await game('hearts-of-tin', { A: { original: 12, brigade: 'Picton' }, B: { original: 12, brigade: 'Picton' }, C: { original: 12, brigade: 'Picton' } });
    await sub(alice, 'unit', 'edit', { unit: 'A', fields: 'strength:6' });
    expectMessage(await sub(alice, 'unit', 'remove', { unit: 'C' }));
    const r = expectMessage(await command(app, alice, 'brigade', { brigade: 'Picton' }));
    expect(r.record).toMatchObject({ result: 'shaken' });
    expect(r.embed.description).toContain('original strength 36 · lost 18 (from its 3 roster units, 1 of them gone from the field and counted as wholly lost)');
  });

  it('2. /game turn puts a marker on every unit of a shaken brigade, recorded, and says so', async () => {
    await game('hearts-of-tin', {
      A: { original: 10, strength: 4, brigade: 'Picton' },
      B: { original: 10, brigade: 'Picton' },
      D: { original: 10, brigade: 'Pack' },
    });
    await sub(alice, 'game', 'turn', { number: 1 });
    const r = expectMessage(await sub(alice, 'game', 'turn', { number: 2 }));
    // Picton lost 6 of 20: not shaken; nothing happens.
    expect(r.embed.description ?? '').not.toContain('End of turn');
    await sub(alice, 'unit', 'edit', { unit: 'B', fields: 'strength:6' });
    const t = expectMessage(await sub(alice, 'game', 'turn', { number: 3 }));
    expect(t.embed.description).toContain('**End of turn 2**');
    expect(t.embed.description).toContain('A (Picton, shaken): +1 disorder marker, now 1.');
    expect(t.embed.description).toContain('B (Picton, shaken): +1 disorder marker, now 1.');
    expect(t.embed.description).not.toContain('D (');
    expect(fields('A')).toMatchObject({ disorder: 1, brigade_shaken: true });
    expect(fields('D')).toMatchObject({ disorder: 0 });
    const turnRow = app.ledger.history
      .page({ guildId: 'g1', kinds: 'all' }, 50, 0)
      .rows.find((r) => r.result === 'turn_set' && (r.input as { turn: number }).turn === 3)!;
    expect(app.ledger.children('g1', turnRow.id).map((c) => [c.kind, c.result, c.unit])).toEqual([
      ['unit', 'unit_updated', 'A'],
      ['unit', 'unit_updated', 'B'],
    ]);
    // Shaken stays: every turn's end adds one more.
    await sub(alice, 'game', 'turn', { number: 4 });
    expect(fields('A')).toMatchObject({ disorder: 2 });
  });

  it('3. 25% in one turn adds up over reports: 3 and 3 lost from 20 give the marker once', async () => {
    await game('hearts-of-tin', { A: { original: 20 } });
    await sub(alice, 'game', 'turn', { number: 1 });
    const a = expectMessage(await command(app, alice, 'disorder', { unit: 'A', lost: 3 }));
    expect(a.record!.result).toBe('no_disorder');
    const b = expectMessage(await command(app, alice, 'disorder', { unit: 'A', lost: 3 }));
    expect(b.record!.result).toBe('disorder');
    expect(b.record!.steps[0]).toMatchObject({ markers: 1, causes: ['lost 25% or more of its strength this turn (6 of 20: 3 earlier this turn and 3 now)'] });
    expect(fields('A')).toMatchObject({ strength: 14, disorder: 1, turn_lost: 6 });
    const c = expectMessage(await command(app, alice, 'disorder', { unit: 'A', lost: 2 }));
    expect(c.record!.result).toBe('no_disorder');
    expect(JSON.stringify(c.embed)).toContain('already given');
    // A new turn starts from the strength it has then (14): 4 lost is 25% again.
    await sub(alice, 'game', 'turn', { number: 2 });
    const d = expectMessage(await command(app, alice, 'disorder', { unit: 'A', lost: 4 }));
    expect(d.record!.steps[0]).toMatchObject({ markers: 1 });
    expect(fields('A')).toMatchObject({ strength: 8, disorder: 2 });
  });

  it('4. strength never rises above the original; a unit at 0 is gone, not disordered', async () => {
    await game('hearts-of-tin', { A: { original: 8 }, B: { original: 4 } });
    expect(expectError(await command(app, alice, 'disorder', { unit: 'A', strength: 12, lost: 1 }))).toBe(
      "`strength` (12) cannot be more than A's original strength (8).",
    );
    expect(expectError(await command(app, alice, 'disorder', { unit: 'A', lost: 9 }))).toBe('`lost` (9) is more than A has left (8).');
    const gone = expectMessage(await command(app, alice, 'disorder', { unit: 'B', lost: 4 }));
    expect(gone.record).toMatchObject({ result: 'gone', steps: [{ markers: 0 }] });
    expect(fields('B')).toBeUndefined();
    // game, two units added, the ruling and the removal: the refusals recorded nothing.
    expect(app.ledger.count('g1')).toBe(5);
  });

  it('5. one permission check guards every write to a unit, whatever command makes it', async () => {
    await game('hearts-of-tin', { A: { original: 8, disorder: 2, brigade: 'P' } });
    const refused = 'Only Alice, who owns A, or a GM can change it. To roll without changing the roster, leave the unit out.';
    app.dice.push(6);
    expect(expectError(await command(app, bob, 'rally', { unit: 'A' }))).toBe(refused);
    expect(expectError(await command(app, bob, 'disorder', { unit: 'A', lost: 1 }))).toBe(refused);
    await sub(alice, 'unit', 'edit', { unit: 'A', fields: 'strength:2' });
    expect(expectError(await command(app, bob, 'brigade', { brigade: 'P' }))).toBe('Only Alice, who owns A, or a GM can mark A shaken.');
    expect(app.dice.pending()).toBe(1);
    // Without naming it, Bob may still roll; a GM may change it.
    expectMessage(await command(app, bob, 'rally', { disorder: 2 }));
    expectMessage(await command(app, gm, 'disorder', { unit: 'A', lost: 1 }));
    expect(fields('A')).toMatchObject({ strength: 1 });
  });

  it.each([
    ['lightning-war', 'morale', { morale: 'professional', original: 5 }, { unit: 'X' }],
    ['asl', 'mc', { counter: 'German 4-6-7' }, { unit: 'X' }],
    ['asl', 'hob', { counter: 'German 4-6-7' }, { unit: 'X' }],
    ['wacht-am-rhein', 'fatigue', { attack: 1, defense: 1, movement: 1 }, { unit: 'X', event: 'overkill' }],
  ])('5. %s: /%s on another player’s unit is refused before any die', async (system, name, f, options) => {
    await game(system, { X: f });
    app.dice.push(3, 3, 3);
    const reply = name === 'fatigue' ? await sub(bob, 'fatigue', 'event', options) : await command(app, bob, name, options);
    expect(expectError(reply)).toContain('Only Alice, who owns X, or a GM can change it.');
    expect(app.dice.pending()).toBe(3);
  });

  it('6. rally wording: a first-roll rout with the re-roll on offer is not final; a retreat must rally again', async () => {
    await game('hearts-of-tin', { A: { original: 8, disorder: 3, quality: 'militia' }, B: { original: 8, disorder: 3, quality: 'militia' } });
    app.dice.push(1);
    const rout = expectMessage(await command(app, alice, 'rally', { unit: 'A', commander_near: true }));
    expect(rout.record!.result).toBe('rout');
    const text = JSON.stringify(rout.embed);
    expect(text).toContain('leaves the field unless a commander joins it');
    expect(text).not.toContain('remove it');
    expect(fields('A')).toMatchObject({ pending_rout: rout.record!.roll_id });
    app.dice.push(6);
    const retreat = expectMessage(await command(app, alice, 'rally', { unit: 'B', disorder: 3 }));
    expect(retreat.record!.result).toBe('retreat');
    expect(JSON.stringify(retreat.embed)).toContain('must be ordered to rally again the next time its brigade is activated');
  });

  it('6. /disorder on a roster unit says the marker was added; /brigade with typed numbers claims no roster', async () => {
    await game('hearts-of-tin', { A: { original: 8, disorder: 1, brigade: 'P' }, B: { original: 8, brigade: 'P' } });
    const d = expectMessage(await command(app, alice, 'disorder', { unit: 'A', lost: 0, melee: 'defeated' }));
    expect(JSON.stringify(d.embed)).toContain('Marker added on the roster: it now has 2.');
    expect(JSON.stringify(d.embed)).not.toContain('Add the marker');
    const b = expectMessage(await command(app, alice, 'brigade', { brigade: 'P', original: 30, lost: 3 }));
    expect(b.embed.description).toBe('original strength 30 · lost 3');
  });
});

describe('Wacht am Rhein across phases', () => {
  const recover = (unit: string) => sub(alice, 'fatigue', 'recover', { unit, adjacent_enemy: false, moved: false });

  it('7. one recovery step per Resting Phase', async () => {
    await game('wacht-am-rhein', { A: { attack: 4, defense: 4, movement: 4, fatigue: 'fatigued' } });
    expect(expectError(await recover('A'))).toContain('Recovery is taken in the Resting Phase (13.1.2)');
    await sub(alice, 'game', 'turn', { number: 3, phase: 'Resting' });
    expect(expectMessage(await recover('A')).record!.result).toBe('resting');
    expect(expectError(await recover('A'))).toBe('A already recovered a step in the Resting Phase of turn 3: one step per Resting Phase (13.1.2).');
    expect(fields('A')).toMatchObject({ fatigue: 'resting' });
    await sub(alice, 'game', 'turn', { number: 4, phase: 'Resting' });
    expect(expectMessage(await recover('A')).record!.result).toBe('normal');
  });

  it('8. `status` never overrides a roster unit’s status', async () => {
    await game('wacht-am-rhein', { A: { attack: 4, defense: 4, movement: 4 } });
    await sub(alice, 'game', 'turn', { number: 1, phase: 'Resting' });
    expect(expectError(await sub(alice, 'fatigue', 'recover', { unit: 'A', status: 'resting', adjacent_enemy: false, moved: false }))).toContain(
      '`status` describes an untracked unit; A is on the roster as normal',
    );
    expect(fields('A')).toMatchObject({ fatigue: 'normal' });
  });

  it('9. the MR exemption arms only on a unit in MR, covers every fatigue of its first ENA, and ends with it', async () => {
    await game('wacht-am-rhein', { A: { attack: 4, defense: 4, movement: 4 }, B: { attack: 4, defense: 4, movement: 4, mode: 'maneuver_reserve' } });
    expect(expectError(await sub(alice, 'fatigue', 'event', { unit: 'A', event: 'left_maneuver_reserve' }))).toContain('only a unit in MR mode can leave it');
    await sub(alice, 'game', 'turn', { number: 1, phase: 'Movement' });
    expectMessage(await sub(alice, 'fatigue', 'event', { unit: 'B', event: 'left_maneuver_reserve' }));
    expect(fields('B')).toMatchObject({ mode: 'tactical', mr_exemption: true });
    // Outside an ENA the exemption covers nothing, and stays armed.
    expect(expectMessage(await sub(alice, 'fatigue', 'event', { unit: 'B', event: 'overkill' })).record!.result).toBe('fatigued');
    await sub(alice, 'unit', 'edit', { unit: 'B', fields: 'fatigue:normal' });
    await sub(alice, 'game', 'turn', { number: 1, phase: 'ENA' });
    expect(expectMessage(await sub(alice, 'fatigue', 'event', { unit: 'B', event: 'ena_activated' })).record!.result).toBe('normal');
    expect(expectMessage(await sub(alice, 'fatigue', 'event', { unit: 'B', event: 'overkill', by: 'own_attack' })).record!.result).toBe('normal');
    const t = expectMessage(await sub(alice, 'game', 'turn', { number: 2, phase: 'Movement' }));
    expect(t.embed.description).toContain('B: the Maneuver Reserve exemption ended with the ENA.');
    await sub(alice, 'game', 'turn', { number: 2, phase: 'ENA' });
    expect(expectMessage(await sub(alice, 'fatigue', 'event', { unit: 'B', event: 'ena_activated' })).record!.result).toBe('fatigued');
  });

  it('9. an exemption whose ENA passed without an action ends too', async () => {
    await game('wacht-am-rhein', { B: { attack: 4, defense: 4, movement: 4, mode: 'maneuver_reserve' } });
    await sub(alice, 'game', 'turn', { number: 1, phase: 'Movement' });
    await sub(alice, 'fatigue', 'event', { unit: 'B', event: 'left_maneuver_reserve' });
    await sub(alice, 'game', 'turn', { number: 1, phase: 'ENA' });
    await sub(alice, 'game', 'turn', { number: 2, phase: 'Movement' });
    await sub(alice, 'game', 'turn', { number: 2, phase: 'ENA' });
    expect(expectMessage(await sub(alice, 'fatigue', 'event', { unit: 'B', event: 'ena_activated' })).record!.result).toBe('fatigued');
  });

  it('10. a fatigued or resting unit may not enter Prepared Assault or Combat Reserve; one already there stays', async () => {
    await game('wacht-am-rhein', {
      A: { attack: 4, defense: 4, movement: 4, fatigue: 'resting' },
      B: { attack: 4, defense: 4, movement: 4, mode: 'prepared_assault' },
    });
    expect(expectError(await sub(alice, 'unit', 'edit', { unit: 'A', fields: 'mode:prepared_assault' }))).toBe(
      'A resting unit may not enter Prepared Assault mode (13.1.1).',
    );
    expect(expectError(await sub(alice, 'unit', 'edit', { unit: 'A', fields: 'mode:combat_reserve' }))).toBe(
      'A resting unit may not enter Combat Reserve mode (13.1.1).',
    );
    expect(expectError(await sub(alice, 'unit', 'add', { name: 'C', fields: 'attack:1 defense:1 movement:1 fatigue:fatigued mode:combat_reserve' }))).toContain(
      'may not enter Combat Reserve',
    );
    await sub(alice, 'fatigue', 'event', { unit: 'B', event: 'overkill' });
    expect(fields('B')).toMatchObject({ mode: 'prepared_assault', fatigue: 'fatigued' });
    expectMessage(await sub(alice, 'unit', 'edit', { unit: 'B', fields: 'attack:5' }));
  });

  it('11. /fatigue status names an untracked unit and describes it from the options (the /help example)', async () => {
    app = testApp();
    const r = expectMessage(await sub(alice, 'fatigue', 'status', { unit: 'X', status: 'fatigued', attack: 7, defense: 5, movement: 6 }));
    expect(JSON.stringify(r.embed)).toContain('X');
    expect(JSON.stringify(r.embed)).toContain('**2-2-2** (quartered, rounded up, from 7-5-6)');
    // The /help example works as typed in a fresh channel with no game.
    const help = expectMessage(await command(app, alice, 'help', {}));
    const example = /`(\/fatigue [^`]*)`/.exec(help.embed.description!)![1]!;
    const out = await new ConsoleSession(app.router, { ...alice, channelId: 'fresh' }).run(example);
    expect(out).toMatchObject({ json: { ok: true } });
    expect(JSON.stringify(out)).toContain('1/506 PIR');
  });
});

describe('Lightning War rallies and reasons', () => {
  it('12. a routing unit whose rally fails with a visible enemy within 100 m surrenders; a retreating one does not', async () => {
    await game('lightning-war', { R: { morale: 'professional', original: 4 } });
    app.dice.push(1, 1, 1);
    expectMessage(await command(app, alice, 'morale', { unit: 'R' }));
    expect(fields('R')).toMatchObject({ state: 'routing' });
    app.dice.push(2, 2, 2);
    const s = expectMessage(await command(app, alice, 'morale', { unit: 'R', rally: true, enemy_within_100m: true }));
    expect(s.record).toMatchObject({ result: 'surrender', steps: [{ kind: 'rally', final: 8, table_result: 'suppressed' }] });
    expect(fields('R')).toBeUndefined();
    app.dice.push(2, 2, 2);
    const kept = expectMessage(await command(app, alice, 'morale', { morale: 'professional', rally: true, state: 'retreating', enemy_within_100m: true }));
    expect(kept.record!.result).toBe('rally_failed');
  });

  it('12. rallies are for infantry; a steady roster unit has nothing to rally; reasons must fit the unit', async () => {
    await game('lightning-war', { S: { morale: 'professional', original: 4 } });
    expect(expectError(await command(app, alice, 'morale', { morale: 'professional', rally: true, unit_type: 'armored_vehicle' }))).toBe(
      'Only infantry rallies: an armored vehicle cannot (Lightning War, Rallying).',
    );
    expect(expectError(await command(app, alice, 'morale', { unit: 'S', rally: true }))).toBe(
      'S is steady on the roster: only a retreating or routing unit rallies.',
    );
    expect(expectError(await command(app, alice, 'morale', { morale: 'professional', reason: 'overrun', unit_type: 'soft_vehicle' }))).toContain(
      '`reason` overrun is for infantry',
    );
    expect(expectError(await command(app, alice, 'morale', { morale: 'professional', reason: 'vehicle_penetrated' }))).toContain(
      '`reason` vehicle_penetrated is for vehicles',
    );
    expect(app.ledger.count('g1')).toBe(2);
  });

  it('13. reasons read as sentences', async () => {
    app = testApp();
    for (const [reason, text] of [
      ['friendly_fire', 'because it was hit by friendly fire'],
      ['friendly_rout_nearby', 'because a friendly unit routed within 100 m'],
      ['overrun', 'because it was overrun'],
    ]) {
      app.dice.push(4, 4, 4);
      expect(expectMessage(await command(app, alice, 'morale', { morale: 'professional', reason })).embed.description).toContain(text);
    }
  });

  it('14. an over-long casualties value names the real limit', async () => {
    app = testApp();
    const e = expectError(await command(app, alice, 'morale', { morale: 'professional', casualties: `${'1'.repeat(21)}/5` }));
    expect(e).toContain('that is 23 characters, over the limit of 20');
  });
});

describe('all systems', () => {
  it('unit autocomplete offers only the units of the command’s system', async () => {
    await game('hearts-of-tin', { Guard: { original: 8 } });
    app.dice.push(4, 4, 4);
    await command(app, alice, 'morale', { morale: 'professional', unit: 'Gepard' });
    const complete = (name: string) => app.router.handle({ type: 'autocomplete', name, option: 'unit', value: 'G', actor: alice });
    expect(await complete('rally')).toEqual({ type: 'choices', choices: [{ name: 'Guard', value: 'Guard' }] });
    expect(await complete('morale')).toEqual({ type: 'choices', choices: [{ name: 'Gepard', value: 'Gepard' }] });
    expect(await complete('hob')).toMatchObject({ type: 'choices' });
    expect(JSON.stringify(await complete('hob'))).not.toContain('Guard');
  });

  it('/game status counts rulings as well as rolls; a roll of another system says it is not part of the game', async () => {
    await game('hearts-of-tin', { A: { original: 8 } });
    await command(app, alice, 'disorder', { unit: 'A', lost: 1 });
    await command(app, alice, 'brigade', { original: 10, lost: 1 });
    const s = expectMessage(await sub(alice, 'game', 'status'));
    expect(s.embed.fields).toEqual(
      expect.arrayContaining([
        { name: 'Rolls so far', value: '0', inline: true },
        { name: 'Rulings without dice', value: '2', inline: true },
      ]),
    );
    app.dice.push(4, 4, 4);
    const other = expectMessage(await command(app, alice, 'morale', { morale: 'professional' }));
    expect(other.embed.description).toContain('Not part of G: that game is Hearts of Tin, so this Lightning War result is recorded outside it.');
    expect(app.ledger.get('g1', other.record!.roll_id)!.game_id).toBeNull();
  });
});
