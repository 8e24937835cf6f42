import { afterEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/core/command.js';
import { alice, appWithGame, command, oddsRoll, expectError, expectMessage, press, rosterFields, subcommand, testApp, type TestApp } from '../helpers/app.js';

// The consequences of ASL checks through the router, as a player runs it: commands, rosters, buttons.
let app: TestApp;
afterEach(() => app?.ledger.close());

const sub = (actor: Actor, name: string, subcommandName: string, options: Record<string, unknown> = {}) =>
  subcommand(app, actor, name, subcommandName, options);
const fields = (name: string) => rosterFields(app, name);
async function aslGame(units: Record<string, Record<string, unknown>>) {
  app = await appWithGame('asl', units);
}

describe('/mc and /hob with the spec’s unit data', () => {
  it('a broken American 6-6-6 rallies against its broken side, 8 (A10.6)', async () => {
    app = testApp();
    app.dice.push(4, 4);
    // An 8-0 leader rallies it: leadership 0, so no modifier is shown.
    const r = expectMessage(await command(app, alice, 'mc', { unit: 'American 6-6-6', check: 'rally', leader_drm: 0 }));
    expect(r.record).toMatchObject({ result: 'rallied', steps: [{ kind: 'rally', ml: 8, final: 8 }] });
    expect(JSON.stringify(r.embed)).toContain('broken side: ML 8');
  });

  it('/odds mc: a broken American 6-6-6 rallies 13/18 of the time (ML 8)', async () => {
    app = testApp();
    const r = expectMessage(
      await app.router.handle({
        type: 'command',
        name: 'odds',
        options: oddsRoll('mc', { unit: 'American 6-6-6', check: 'rally', leader_drm: 0 }),
        actor: alice,
      }),
    );
    // Original 3–8 rally (25/36), an Original 2 rallies and chains HoB (1/36 split by its result),
    // 9–11 do not (1/4), 12 is Fate (1/36): 26/36 = 13/18 rally in all, as for ML 8.
    expect(r.embed.description).toMatch(/\nRallied\s+25\/36/);
    expect(r.embed.description).toMatch(/Not rallied\s+1\/4/);
    expect(r.embed.description).toMatch(/Fate\s+1\/36/);
  });

  it('a bare counter answers with the nationality choices (nothing rolled)', async () => {
    app = testApp();
    expect(expectError(await command(app, alice, 'hob', { unit: '467' }))).toMatch(/^`unit` "467": 4-6-7 names no nationality: did you mean German 4-6-7/);
    expect(app.ledger.count('g1')).toBe(0);
  });

  it('a leader failing by more than his ELR is Replaced, and the roster follows (A19.13)', async () => {
    await aslGame({ Lt: { counter: 'German 9-1' } });
    app.dice.push(6, 3);
    // 4MC: 9 + 4 = 13 vs ML 9, failed by 4 > ELR 3.
    const r = expectMessage(await command(app, alice, 'mc', { unit: 'Lt', number: 4, elr: 3 }));
    expect(r.record).toMatchObject({ result: 'replaced', steps: [{ unit_after: 'German 8-1 leader' }] });
    expect(fields('Lt')).toMatchObject({ counter: 'German 8-1 leader', broken: true });
  });

  it('a roster unit marked berserk takes /mc at ML 10, no leadership DRM, Casualty Reduction instead of breaking (A15.42)', async () => {
    await aslGame({ Mad: { counter: 'German 4-4-7', berserk: true } });
    app.dice.push(5, 5);
    const ok = expectMessage(await command(app, alice, 'mc', { unit: 'Mad', leader_drm: -2 }));
    expect(ok.record).toMatchObject({ result: 'passed', steps: [{ ml: 10, final: 10, modifiers: [] }] });
    app.dice.push(6, 5);
    const hit = expectMessage(await command(app, alice, 'mc', { unit: 'Mad' }));
    expect(hit.record!.result).toBe('casualty_reduction');
    expect(fields('Mad')).toMatchObject({ counter: 'German 2-3-7 half-squad', broken: false, berserk: true });
  });

  it('a hero is wounded, not broken; the Wound Severity dr decides; the roster marks or removes him (A17.11)', async () => {
    await aslGame({ Hans: { counter: 'German hero 1-4-9' }, Fritz: { counter: 'German hero 1-4-9' } });
    app.dice.push(6, 4, 2);
    const w = expectMessage(await command(app, alice, 'mc', { unit: 'Hans' }));
    expect(w.record!.steps.map((s) => [s.kind, s.result])).toEqual([
      ['mc', 'wounded'],
      ['wound', 'wounded'],
    ]);
    expect(fields('Hans')).toMatchObject({ wounded: true, broken: false });
    expect(JSON.stringify(w.embed)).toContain('Wound Severity');
    app.dice.push(6, 4, 6);
    expect(expectMessage(await command(app, alice, 'mc', { unit: 'Fritz' })).record!.result).toBe('eliminated');
    expect(fields('Fritz')).toBeUndefined();
  });

  it('a Japanese squad Step-Reduces on the roster (G1.121)', async () => {
    await aslGame({ Kato: { counter: 'Japanese 4-4-7' } });
    app.dice.push(5, 4);
    expect(expectMessage(await command(app, alice, 'mc', { unit: 'Kato' })).record!.result).toBe('step_reduced');
    expect(fields('Kato')).toMatchObject({ counter: 'Japanese 3-4-7 reduced squad', broken: false });
    app.dice.push(5, 4);
    expectMessage(await command(app, alice, 'mc', { unit: 'Kato' }));
    expect(fields('Kato')).toMatchObject({ counter: 'Japanese 2-3-7 half-squad', broken: false });
    expect(expectError(await command(app, alice, 'mc', { unit: 'Japanese 4-4-7', check: 'rally' }))).toContain('Japanese squads have no broken side (G1.1)');
  });

  it('an underscored squad becomes two broken HS and the reply says to add the second (A19.13)', async () => {
    await aslGame({ Red: { counter: 'British 6-4-8' } });
    app.dice.push(6, 5);
    const r = expectMessage(await command(app, alice, 'mc', { unit: 'Red', number: 4 }));
    expect(r.record!.result).toBe('replaced');
    expect(fields('Red')).toMatchObject({ counter: 'British 3-3-8 half-squad', broken: true });
    const row = app.ledger.children('g1', r.record!.roll_id).find((c) => c.kind === 'unit')!;
    expect(JSON.stringify(row.outcome)).toContain('a second British 3-3-8 half-squad joins it: add it with /unit add');
  });

  it('refusing battle hardening on a broken roster unit leaves it broken (A15.3)', async () => {
    await aslGame({ Able: { counter: 'Russian 4-4-7', broken: true } });
    app.dice.push(1, 1, 2, 2);
    // Rally with a leader (DRM 0): Original 2 → rallied (2 ≤ 7); HoB 4 + 2 + 1 (broken) = 7: hardening to 4-5-8.
    const r = expectMessage(await command(app, alice, 'mc', { unit: 'Able', check: 'rally', leader_drm: 0 }));
    expect(r.record!.steps.map((s) => s.result)).toEqual(['rallied', 'battle_hardening']);
    expect(fields('Able')).toMatchObject({ counter: 'Russian 4-5-8', broken: false });
    expectMessage(await press(app, alice, r.buttons[0]!.custom_id));
    // The rally stands; only the hardening is undone.
    expect(fields('Able')).toMatchObject({ counter: 'Russian 4-4-7', broken: false });

    await sub(alice, 'unit', 'add', { name: 'Baker', fields: 'counter:Russian 4-4-7 broken:true' });
    app.dice.push(3, 3);
    const h = expectMessage(await command(app, alice, 'hob', { unit: 'Baker' }));
    // 6 + 2 + 1 = 9: berserk, but no enemy in LOS? enemy_in_los defaults true → berserk.
    expect(h.record!.result).toBe('berserk');
    app.dice.push(2, 3);
    const h2 = expectMessage(await command(app, alice, 'hob', { unit: 'Baker', status: 'none', broken: true }));
    expect(h2.record!.steps[0]).toMatchObject({ final: 8, result: 'battle_hardening', unit_after: 'Russian 4-5-8' });
    expectMessage(await press(app, alice, h2.buttons[0]!.custom_id));
    expect(fields('Baker')).toMatchObject({ counter: 'Russian 4-4-7', broken: false, berserk: true });
  });

  it('a Disrupted roster unit may not Self-Rally (A19.12); a rally by a leader clears Disrupted', async () => {
    await aslGame({ Dis: { counter: 'German 4-3-6' } });
    app.dice.push(6, 4);
    // 4MC, ELR 0: 10 + 4 = 14 vs 6 → no lower Class: broken and Disrupted.
    expectMessage(await command(app, alice, 'mc', { unit: 'Dis', number: 4, elr: 0 }));
    expect(fields('Dis')).toMatchObject({ broken: true, disrupted: true });
    expect(expectError(await command(app, alice, 'mc', { unit: 'Dis', check: 'rally', self_rally: 'first' }))).toBe(
      'Dis is Disrupted: a Disrupted unit may not Self-Rally (A19.12).',
    );
    app.dice.push(2, 2);
    expectMessage(await command(app, alice, 'mc', { unit: 'Dis', check: 'rally', leader_drm: -1 }));
    expect(fields('Dis')).toMatchObject({ broken: false, disrupted: false });
  });

  it('a Commissar: no refuse button on his hardening; his rally ignores Desperation', async () => {
    app = testApp();
    app.dice.push(4, 3);
    const h = expectMessage(await command(app, alice, 'hob', { unit: 'Russian commissar 9-0' }));
    expect(h.record).toMatchObject({ result: 'battle_hardening' });
    expect(h.buttons).toEqual([]);
    // Broken-side ML 7, +1 for the rallying Commissar (A25.222): a 9 fails, with no +4 for Desperation.
    app.dice.push(4, 5);
    const r = expectMessage(await command(app, alice, 'mc', { unit: 'Russian 4-4-7', check: 'rally', desperation: true, commissar: 'leads_rally' }));
    expect(r.record).toMatchObject({ result: 'replaced', steps: [{ ml: 8, final: 9, modifiers: [], unit_after: 'Russian 4-2-6' }] });
  });
});
