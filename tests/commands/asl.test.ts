import { afterEach, describe, expect, it } from 'vitest';
import { alice, bob, command, expectError, expectMessage, gm, press, testApp, type TestApp } from '../helpers/app.js';

let app: TestApp;
afterEach(() => app?.ledger.close());

describe('/hob', () => {
  it('rolls, records, and shows dice (coloured first), DRM, Final, band and the substitution', async () => {
    app = testApp();
    app.dice.push(4, 2);
    const reply = expectMessage(await command(app, alice, 'hob', { unit: 'German 4-6-7', broken: true }));
    expect(reply.record).toMatchObject({
      command: 'hob',
      system: 'asl',
      result: 'battle_hardening',
      steps: [
        { kind: 'hob', dice: [4, 2], original: 6, final: 7, band: 'battle_hardening', overrides: [], unit_before: 'German 4-6-7', unit_after: 'German 4-6-8' },
      ],
    });
    const row = app.ledger.get('g1', reply.record!.roll_id)!;
    expect(row).toMatchObject({ unit: 'German 4-6-7', result: 'battle_hardening', dice: [4, 2] });
    expect(reply.embed.title).toBe('Heat of Battle · German 4-6-7 — Battle Hardening');
    const text = JSON.stringify(reply.embed);
    expect(text).toContain('coloured ⚃ **4** · white ⚁ **2** → Original **6**');
    expect(text).toContain('`+1` broken when the Original 2 was rolled');
    expect(text).toContain('replace German 4-6-7 with an unbroken, unpinned German 4-6-8');
    expect(text).toContain('Final 7 is in its band, 7–8.');
    expect(reply.buttons).toEqual([{ custom_id: `v1:refuse_bh:${row.id}`, label: 'Refuse battle hardening', style: 'secondary' }]);
  });

  it('refuses an exempt unit with the A15.1 reason, rolling and recording nothing', async () => {
    app = testApp();
    app.dice.push(3, 3);
    const error = expectError(await command(app, alice, 'hob', { unit: 'German crew' }));
    expect(error).toBe(
      'German crew: no Heat of Battle DR — crews, inherent or temporary, are not subject to Heat of Battle (A15.1). Nothing was rolled or recorded.',
    );
    expect(expectError(await command(app, alice, 'hob', { unit: 'German 4-6-7', status: 'swimming' }))).toContain('swimming units are not subject');
    expect(app.ledger.count('g1')).toBe(0);
    expect(app.dice.pending()).toBe(2);
  });

  it('names the bad unit and the closest known ones', async () => {
    app = testApp();
    const error = expectError(await command(app, alice, 'hob', { unit: 'German 5-5-7' }));
    expect(error).toMatch(/^`unit` "German 5-5-7": German 5-5-7 is not in the unit data\. Closest known: /);
    expect(expectError(await command(app, alice, 'hob', { unit: 'German 4-6-7', sub_type: 'nkvd' }))).toBe(
      '`sub_type` nkvd is Russian, but the unit is German.',
    );
    expect(app.ledger.count('g1')).toBe(0);
  });

  it('the refuse button: roller or GM, once, a linked decision row, the message updated without the button', async () => {
    app = testApp();
    app.dice.push(2, 2);
    // 4 + 2 (Russian) + 1 (Conscript) = 7: battle hardening, 4-2-6 → 5-2-7.
    const first = expectMessage(await command(app, alice, 'hob', { unit: 'Russian 4-2-6', with_leader: true }));
    expect(first.record).toMatchObject({ result: 'battle_hardening', steps: [{ final: 7, unit_after: 'Russian 5-2-7' }] });
    const id = first.buttons[0]!.custom_id;
    expect(expectError(await press(app, bob, id))).toBe('Only Alice, who rolled it, or a GM can refuse the battle hardening.');
    const refused = expectMessage(await press(app, gm, id));
    expect(refused.type).toBe('update');
    expect(refused.buttons).toEqual([]);
    expect(refused.record).toMatchObject({ result: 'hardening_refused', parent_roll_id: first.record!.roll_id });
    expect(JSON.stringify(refused.embed)).toContain('Game Master refused the battle hardening');
    expect(app.ledger.children('g1', first.record!.roll_id).map((r) => [r.kind, r.result, r.user_id])).toEqual([['decision', 'hardening_refused', 'gm']]);
    expect(expectError(await press(app, alice, id))).toBe('That battle hardening was already refused.');
    expect(expectError(await press(app, { ...alice, guildId: 'g2' }, id))).toBe('That Heat of Battle roll is not on record in this server.');
    expect(app.ledger.verify('g1').ok).toBe(true);
  });
});

describe('/mc', () => {
  it('an MC with its DRM against the ML', async () => {
    app = testApp();
    app.dice.push(3, 4);
    const reply = expectMessage(await command(app, alice, 'mc', { unit: 'Russian 4-4-7', number: 2, leader_drm: -1 }));
    expect(reply.record).toMatchObject({ result: 'broken', steps: [{ kind: 'mc', ml: 7, original: 7, final: 8 }] });
    expect(reply.embed.title).toBe('Morale Check · Russian 4-4-7 — Broken');
    expect(reply.buttons).toEqual([]);
  });

  it('an Original 2 chains the HoB DR in the same reply and the same ledger row', async () => {
    app = testApp();
    app.dice.push(1, 1, 2, 2);
    const reply = expectMessage(await command(app, alice, 'mc', { unit: 'German 4-6-7' }));
    expect(reply.record!.steps.map((s) => s.kind)).toEqual(['mc', 'hob']);
    expect(reply.record!.steps[1]).toMatchObject({ result: 'hero', trigger: 'Original 2 on the Morale Check' });
    expect(app.ledger.count('g1')).toBe(1);
    expect(app.ledger.get('g1', reply.record!.roll_id)!.dice).toEqual([1, 1, 2, 2]);
    const names = reply.embed.fields!.map((f) => f.name);
    // Each step named once, on its dice; the title says both results.
    expect(names).toContain('Morale Check · Dice');
    expect(names).toContain('Heat of Battle · Dice');
  });

  it('a rally', async () => {
    app = testApp();
    app.dice.push(3, 4);
    const reply = expectMessage(await command(app, alice, 'mc', { unit: 'German 4-6-7', check: 'rally', leader_drm: -1, terrain: 'building' }));
    expect(reply.record).toMatchObject({ result: 'rallied', steps: [{ kind: 'rally', final: 5 }] });
    expect(reply.embed.title).toBe('Rally · German 4-6-7 — Rallied');
  });

  it.each([
    [{ unit: 'German 4-6-7', check: 'rally', number: 2 }, '`number` is the #MC: a rally takes none.'],
    [{ unit: 'German 4-6-7', self_rally: 'first' }, '`self_rally`, `desperation` and `terrain` apply to a rally: add check:rally.'],
    [{ unit: 'German 4-6-7', check: 'rally', self_rally: 'later', leader_drm: -1 }, 'A Self-Rally has no rallying leader: leave out `leader_drm`.'],
    [{ unit: 'German 4-6-7', leader_drm: -4 }, '`leader_drm` must be a whole number from -3 to 1 (you gave -4).'],
    [{ unit: 'German 4-6-7', elr: 7 }, '`elr` must be a whole number from 0 to 6 (you gave 7).'],
    [{ unit: 'German crew' }, 'German crew has no Morale Level in the data: give its counter or `ml`.'],
  ])('refuses %o', async (options, message) => {
    app = testApp();
    expect(expectError(await command(app, alice, 'mc', options))).toBe(message);
    expect(app.ledger.count('g1')).toBe(0);
  });

  it('a crew can take an MC (no HoB chain)', async () => {
    app = testApp();
    app.dice.push(1, 1);
    const reply = expectMessage(await command(app, alice, 'mc', { unit: 'German crew', ml: 8 }));
    expect(reply.record!.steps).toHaveLength(1);
    expect(reply.record!.steps[0]!.effect).toContain('no Heat of Battle: crews');
  });

  it('autocompletes units from the data', async () => {
    app = testApp();
    const r = await app.router.handle({ type: 'autocomplete', name: 'mc', option: 'unit', value: 'ru 44', actor: alice });
    expect(r).toEqual({ type: 'choices', choices: [{ name: 'Russian 4-4-7', value: 'Russian 4-4-7' }] });
  });
});
