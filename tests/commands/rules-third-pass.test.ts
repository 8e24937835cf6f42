import { afterEach, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/core/command.js';
import {
  alice,
  appWithGame,
  command,
  expectError,
  expectMessage,
  gm,
  oddsRoll,
  press,
  rollWith,
  rosterFields,
  subcommand,
  testApp,
  type TestApp,
} from '../helpers/app.js';

// Rules, third pass: the cases a rules lawyer still caught, through the router as a player types them. Every
// expectation is worked by hand from the specs, written here, never read from the code.
let app: TestApp;
afterEach(() => {
  app?.ledger.close();
  // The next test starts from a fresh ledger (roll() opens one when none is open).
  app = undefined as unknown as TestApp;
});

const sub = (actor: Actor, name: string, subcommandName: string, options: Record<string, unknown> = {}) =>
  subcommand(app, actor, name, subcommandName, options);
const fields = (name: string) => rosterFields(app, name);
const text = (r: { embed: unknown }) => JSON.stringify(r.embed);
function roll(name: string, options: Record<string, unknown>, dice: number[]) {
  app ??= testApp();
  return rollWith(app, name, options, dice);
}
const stepOf = (r: { record?: { steps: unknown[] } | undefined }, kind: string) =>
  (r.record!.steps as { kind: string }[]).find((s) => s.kind === kind) as Record<string, unknown> | undefined;

describe('ASL §6.4: the Wound Severity dr of a Casualty MC (A10.31, A17.11)', () => {
  // [what, options, dice (DR then dr), wound modifiers, wound Final, wound result, the check's result]
  it.each([
    ['an ordinary 8-1: the plain dr, a 4 is a minor wound', { unit: 'German 8-1', elr: 5 }, [6, 6, 4], [], 4, 'wounded', 'casualty_reduction'],
    ['an ordinary 8-1: a 5 kills', { unit: 'German 8-1', elr: 5 }, [6, 6, 5], [], 5, 'killed', 'eliminated'],
    ['a wounded 9-1: +1 once, 3 → 4 wounded', { unit: 'German 9-1', elr: 5, wounded: true }, [6, 6, 3], [1], 4, 'wounded', 'casualty_reduction'],
    ['a berserk 8-1: as if already wounded, 4 → 5 killed', { unit: 'German 8-1', status: 'berserk' }, [6, 6, 4], [1], 5, 'killed', 'eliminated'],
    ['a hero: as if already wounded, 3 → 4 wounded', { unit: 'German hero 1-4-9' }, [6, 6, 3], [1], 4, 'wounded', 'wounded'],
  ] as const)('%s', async (_what, options, dice, mods, final, wound, result) => {
    const r = await roll('mc', options, [...dice]);
    const w = stepOf(r, 'wound')!;
    expect((w.modifiers as { value: number }[]).map((m) => m.value)).toEqual(mods);
    expect(w).toMatchObject({ dice: [dice[2]], final, result: wound, ref: 'A17.11' });
    expect(r.record!.result).toBe(result);
  });
});

describe('ASL §6.3: Commissars (A25.221–.222)', () => {
  it.each([
    // Russian 4-4-7: broken side 7; a Commissar in the Location makes it 8 for a rally led by another leader.
    [
      'in the Location, a rally led by an 8-0: ML 8, a Final 8 rallies',
      { unit: 'Russian 4-4-7', check: 'rally', commissar: 'in_location', leader_drm: 0 },
      [4, 4],
      8,
      8,
      'rallied',
    ],
    // On an MC too: 1MC, 3 + 3 + 1 = 7 against 7 + 1 = 8 passes (without him, 7 = 7 pins).
    ['in the Location on a 1MC: ML 8, a Final 7 passes', { unit: 'Russian 4-4-7', number: 1, commissar: 'in_location' }, [3, 3], 8, 7, 'passed'],
    ['leading the rally: ML 8, a 9 fails and is Replaced', { unit: 'Russian 4-4-7', check: 'rally', commissar: 'leads_rally' }, [4, 5], 8, 9, 'replaced'],
    // Russian 4-2-6 (Conscript, broken side 5): nothing lower, so Casualty Reduction to a broken 2-2-6.
    [
      'leading the rally of the lowest quality: Casualty Reduced',
      { unit: 'Russian 4-2-6', check: 'rally', commissar: 'leads_rally' },
      [4, 5],
      6,
      9,
      'casualty_reduction',
    ],
    // Russian 2-2-6 HS: broken side 4, 5 with him; a HS that cannot be Replaced is eliminated.
    [
      'leading the rally of a Conscript HS: eliminated',
      { unit: 'Russian 2-2-6 half-squad', check: 'rally', commissar: 'leads_rally' },
      [5, 5],
      5,
      10,
      'eliminated',
    ],
    [
      'leading the rally, under Desperation: no +4, 8 ≤ 8 rallies',
      { unit: 'Russian 4-4-7', check: 'rally', commissar: 'leads_rally', desperation: true },
      [4, 4],
      8,
      8,
      'rallied',
    ],
  ] as const)('%s', async (_what, options, dice, ml, final, result) => {
    const r = await roll('mc', options, [...dice]);
    expect(r.record!.steps[0]).toMatchObject({ ml, final, result });
  });

  it('a failed Commissar rally writes back: Replaced on the roster, or reduced to a broken HS', async () => {
    app = await appWithGame('asl', { Ivan: { counter: 'Russian 4-2-6', broken: true } });
    app.dice.push(4, 5);
    const r = expectMessage(await command(app, alice, 'mc', { unit: 'Ivan', check: 'rally', commissar: 'leads_rally' }));
    expect(r.record!.result).toBe('casualty_reduction');
    expect(text(r)).toContain('it becomes a broken Russian 2-2-6 half-squad (A25.222, A7.302)');
    expect(fields('Ivan')).toMatchObject({ counter: 'Russian 2-2-6 half-squad', broken: true });
  });

  it("a Commissar's own MC takes no leader's DRM, and the reply says why (A25.221)", async () => {
    // A Commissar 9-0 on a NMC: 5 + 5 = 10 > 9, broken; with the −1 it would have been 9, pinned.
    const r = await roll('mc', { unit: 'Russian commissar 9-0', leader_drm: -1 }, [5, 5]);
    expect(r.record!.steps[0]).toMatchObject({ ml: 9, final: 10, modifiers: [], result: 'broken' });
    expect(text(r)).toContain("a Commissar never receives another leader's DRM: leader_drm -1 not applied, A25.221");
  });

  it('refusals: leads_rally on an MC, a Commissar giving himself +1, leads_rally with a Self-Rally', async () => {
    app = testApp();
    expect(expectError(await command(app, alice, 'mc', { unit: 'Russian 4-4-7', commissar: 'leads_rally' }))).toContain(
      '`commissar:leads_rally` is for a rally (A25.222)',
    );
    expect(expectError(await command(app, alice, 'mc', { unit: 'Russian commissar 9-0', commissar: 'in_location' }))).toContain(
      'is the Commissar: his +1 ML is for the other units in his Location (A25.221)',
    );
    expect(expectError(await command(app, alice, 'mc', { unit: 'Russian 4-4-7', check: 'rally', commissar: 'leads_rally', self_rally: 'first' }))).toContain(
      'a Self-Rally has no rallying leader, so no Commissar leads it',
    );
    expect(app.ledger.count('g1')).toBe(0);
  });
});

describe('ASL §7: who rallies it (A10.6)', () => {
  const ASKS = 'say who rallies it — `leader_drm` for the rallying leader (0 for an 8-0) or `self_rally:first`/`self_rally:later` for a Self-Rally (A10.6)';
  it('a rally with neither a leader nor Self-Rally is refused naming both, in /mc, /odds and for a roster unit', async () => {
    app = await appWithGame('asl', { Able: { counter: 'American 5-3-6', broken: true } });
    expect(expectError(await command(app, alice, 'mc', { unit: 'American 5-3-6', check: 'rally' }))).toContain(ASKS);
    expect(expectError(await command(app, alice, 'odds', oddsRoll('mc', { unit: 'American 5-3-6', check: 'rally' })))).toContain(ASKS);
    expect(expectError(await command(app, alice, 'mc', { unit: 'Able', check: 'rally' }))).toContain(ASKS);
    expect(app.dice.pending()).toBe(0);
  });

  it('a led rally of a Green MMC chains HoB without the inexperienced +1; a Self-Rally chains none', async () => {
    // American 5-3-6 is Green: led by an 8-0, an Original 2 rallies and HoB has only +1 broken.
    const led = await roll('mc', { unit: 'American 5-3-6', check: 'rally', leader_drm: 0 }, [1, 1, 3, 3]);
    expect(stepOf(led, 'hob')).toMatchObject({ original: 6, final: 7, modifiers: [{ value: 1 }] });
    const self = await roll('mc', { unit: 'American 5-3-6', check: 'rally', self_rally: 'later' }, [1, 1]);
    expect(stepOf(self, 'hob')).toBeUndefined();
    expect(self.record!.result).toBe('rallied');
  });

  it('/odds mc of a led rally: hero 1/432 after a rallied Original 2 (HoB DRM +1: Final ≤ 4 is 1/12 of 1/36)', async () => {
    app = testApp();
    const r = expectMessage(await command(app, alice, 'odds', oddsRoll('mc', { unit: 'American 5-3-6', check: 'rally', leader_drm: 0 })));
    expect(r.embed.description).toMatch(/Rallied → Hero\s+1\/432/);
  });
});

describe('ASL §6.2: ELR 0–6 (A20.4)', () => {
  // German 4-6-7, ML 7, a 4MC: 6 + 4 + 4 = 14 fails by 7, more than ELR 6: Replaced; 5 + 4 + 4 = 13 fails by 6: only broken.
  it.each([
    [[6, 4], 'replaced'],
    [[5, 4], 'broken'],
  ] as const)('dice %j with elr:6 → %s', async (dice, result) => {
    const r = await roll('mc', { unit: 'German 4-6-7', number: 4, elr: 6 }, [...dice]);
    expect(r.record!.result).toBe(result);
  });
  it('elr:7 is refused, naming 0 to 6', async () => {
    app = testApp();
    expect(expectError(await command(app, alice, 'mc', { unit: 'German 4-6-7', elr: 7 }))).toBe('`elr` must be a whole number from 0 to 6 (you gave 7).');
  });
});

describe('ASL §3–§4: the A15.1 notes, Fanatic heroes, a berserk leader’s companions', () => {
  it.each([
    // Japanese +4: 6 + 6 + 4 = 16, Surrender → never surrenders → Berserk → in a Pillbox: Battle Hardening (4-4-7 → 4-4-8).
    [
      'Japanese in a Pillbox: Surrender → Berserk → Battle Hardening',
      { unit: 'Japanese 4-4-7', situation: 'pillbox_or_cave' },
      [6, 6],
      'battle_hardening',
      ['never_surrender', 'special_situation'],
    ],
    // German: 5 + 5 = 10, Berserk → on a Beach: Battle Hardening.
    [
      'assaulting on a Beach: Berserk → Battle Hardening',
      { unit: 'German 4-6-7', situation: 'beach_or_pier' },
      [5, 5],
      'battle_hardening',
      ['special_situation'],
    ],
    // American: 6 + 6 = 12, Surrender → closest enemy in Ocean: Battle Hardening (never Disrupted for want of an ADJACENT enemy).
    [
      'closest enemy in Ocean: Surrender → Battle Hardening',
      { unit: 'American 6-6-6', situation: 'enemy_in_ocean' },
      [6, 6],
      'battle_hardening',
      ['special_situation'],
    ],
    ['no situation: Surrender with nobody ADJACENT is Disrupted', { unit: 'American 6-6-6' }, [6, 6], 'disrupted', ['no_adjacent_enemy']],
  ] as const)('%s', async (_what, options, dice, result, overrides) => {
    const r = await roll('hob', options, [...dice]);
    expect(r.record!.steps[0]).toMatchObject({ result, overrides });
    if (overrides.includes('special_situation' as never)) expect(text(r)).toContain('a note of the A15.1 table applies');
  });

  it('pillbox_or_cave is for Japanese units: refused for a German squad', async () => {
    app = testApp();
    expect(expectError(await command(app, alice, 'hob', { unit: 'German 4-6-7', situation: 'pillbox_or_cave' }))).toBe(
      '`situation` pillbox_or_cave is for Japanese units (Japanese in a Pillbox or Cave, A15.1).',
    );
  });

  it('a hero created from a Fanatic MMC is Fanatic, and the reply says so (A10.8)', async () => {
    const r = await roll('hob', { unit: 'German 4-6-7', fanatic: true }, [1, 1]);
    expect(r.record!.result).toBe('hero');
    expect(text(r)).toContain('Created from a Fanatic unit, the hero is Fanatic too (A10.8).');
    const plain = await roll('hob', { unit: 'German 4-6-7' }, [1, 1]);
    expect(text(plain)).not.toContain('Fanatic too');
  });

  it("a wounded berserk leader's NTC DRM is one worse (A17.3): 8 − 1 + 1 = 8 > ML 7, no change; unwounded, 7 goes berserk", async () => {
    // German 8-1: HoB −1 (leader) on 5 + 5 = 9: Berserk; the companion German 4-6-7 (ML 7) rolls 4 + 4.
    const wounded = await roll('hob', { unit: 'German 8-1', wounded: true, companions: 'German 4-6-7' }, [5, 5, 4, 4]);
    expect(stepOf(wounded, 'ntc')).toMatchObject({ ml: 7, final: 8, result: 'no_change', modifiers: [] });
    expect(text(wounded)).toContain('(He is wounded: his leadership DRM −1 is one worse, 0, A17.3.)');
    const fit = await roll('hob', { unit: 'German 8-1', companions: 'German 4-6-7' }, [5, 5, 4, 4]);
    expect(stepOf(fit, 'ntc')).toMatchObject({ ml: 7, final: 7, result: 'berserk', modifiers: [{ value: -1 }] });
  });

  it('a companion with no ML in the data is refused naming it, and rolls with the ML given', async () => {
    app = testApp();
    expect(expectError(await command(app, alice, 'hob', { unit: 'Russian 9-1', companions: 'Russian commissar' }))).toContain(
      '`companions` "Russian commissar": the unit data gives it no Morale Level; add it, e.g. "Russian commissar ml:8"',
    );
    // Russian 9-1: −1 leader, +2 Russian: 4 + 4 + 1 = 9 Berserk; the companion at ML 8 rolls 4 + 3 − 1 = 6: berserk.
    const r = await roll('hob', { unit: 'Russian 9-1', companions: 'Russian commissar ml:8' }, [4, 4, 4, 3]);
    expect(stepOf(r, 'ntc')).toMatchObject({ ml: 8, final: 6, result: 'berserk' });
  });
});

describe('Hearts of Tin: an untaken commander re-roll lapses, and the rout stands', () => {
  async function pendingRout() {
    app = await appWithGame('hearts-of-tin', { A: { original: 8, disorder: 3, quality: 'militia', brigade: 'P' }, B: { original: 8, brigade: 'P' } });
    await sub(alice, 'game', 'turn', { number: 1 });
    app.dice.push(1);
    // 1 − 1 (militia) − 2 (two more markers) = −2: rout, the commander may join.
    const r = expectMessage(await command(app, alice, 'rally', { unit: 'A', commander_near: true }));
    expect(r.record!.result).toBe('rout');
    expect(fields('A')).toMatchObject({ pending_rout: r.record!.roll_id });
    return { rollId: r.record!.roll_id, button: r.buttons[0]!.custom_id };
  }

  it('at the next /game turn: the unit is removed, recorded under the rout, and a later press is refused', async () => {
    const { rollId, button } = await pendingRout();
    const t = expectMessage(await sub(alice, 'game', 'turn', { number: 2 }));
    expect(t.embed.description).toContain(`A: the re-roll offer of rally \`${rollId}\` lapsed, the rout stands (off the field).`);
    expect(fields('A')).toBeUndefined();
    const removed = app.ledger.history.page({ guildId: 'g1', kinds: 'all' }, 50, 0).rows.find((r) => r.result === 'unit_removed')!;
    expect(removed.parent_id).toBe(rollId);
    expect(expectError(await press(app, alice, button))).toBe(
      `The commander re-roll offer of rally ${rollId} has lapsed: turn 1 is over (the game is at turn 2).`,
    );
    // The brigade counts it as wholly lost: 8 of 16 is half, shaken.
    expect(expectMessage(await command(app, alice, 'brigade', { brigade: 'P' })).record!.result).toBe('shaken');
  });

  it("at the unit's next roll: the rout stands first, nothing is rolled", async () => {
    const { button } = await pendingRout();
    app.dice.push(6);
    const r = expectMessage(await command(app, alice, 'rally', { unit: 'A', disorder: 3 }));
    expect(r.embed.title).toBe('Rout stands · A');
    expect(text(r)).toContain('Nothing was rolled: a routed unit is gone.');
    expect(app.dice.pending()).toBe(1);
    expect(fields('A')).toBeUndefined();
    expect(expectError(await press(app, alice, button))).toContain('the rout already stood: the unit has left the field');
  });

  it('at /game end, and a re-roll taken in time settles it', async () => {
    await pendingRout();
    const end = expectMessage(await sub(alice, 'game', 'end'));
    expect(end.embed.description).toContain('lapsed, the rout stands (off the field).');
    const { button } = await pendingRout();
    app.dice.push(6);
    // 6 − 3 = 3: retreat; the rout no longer pends and the unit stays.
    expect(expectMessage(await press(app, alice, button)).record!.result).toBe('retreat');
    expect(fields('A')).toMatchObject({ pending_rout: null, disorder: 3 });
  });

  it('a voided rally offers no re-roll', async () => {
    const { rollId, button } = await pendingRout();
    expectMessage(await command(app, gm, 'void', { id: rollId, reason: 'wrong unit' }));
    expect(expectError(await press(app, alice, button))).toBe(`A GM voided rally ${rollId} (wrong unit): a voided rally offers no re-roll.`);
  });
});

describe('Hearts of Tin: a shaken brigade stays shaken', () => {
  it('a unit joining brings losses under half, and the brigade is still shaken at the next turn end', async () => {
    app = await appWithGame('hearts-of-tin', { A: { original: 10, strength: 4, brigade: 'P' }, B: { original: 10, strength: 4, brigade: 'P' } });
    await sub(alice, 'game', 'turn', { number: 1 });
    // 12 of 20 lost: shaken; the turn end marks both.
    expect(expectMessage(await sub(alice, 'game', 'turn', { number: 2 })).embed.description).toContain('A (P, shaken): +1 disorder marker, now 1.');
    expectMessage(await sub(alice, 'unit', 'add', { name: 'C', fields: 'original:20 brigade:P' }));
    // 12 of 40 lost, less than half, but shaken does not go away: all three gain a marker.
    const t = expectMessage(await sub(alice, 'game', 'turn', { number: 3 }));
    expect(t.embed.description).toContain('A (P, shaken): +1 disorder marker, now 2.');
    expect(t.embed.description).toContain('C (P, shaken): +1 disorder marker, now 1.');
    const b = expectMessage(await command(app, alice, 'brigade', { brigade: 'P' }));
    expect(b.record!.result).toBe('shaken');
    expect(text(b)).toContain('It was shaken earlier and shaken status does not go away, though it has now lost 12 of 40, less than half.');
  });
});

describe('Lightning War: a new check never improves a retreating or routing unit (Surrender)', () => {
  // [state, options, 3d6, result, state after (undefined: removed)]. Professional, no cover: Final = the dice.
  it.each([
    ['routing', { enemy_within_100m: true, reason: 'friendly_fire' }, [3, 3, 4], 'surrender', undefined],
    ['routing', { enemy_within_100m: true }, [6, 6, 6], 'surrender', undefined],
    ['routing', {}, [3, 3, 4], 'rout', 'routing'],
    ['routing', {}, [1, 1, 1], 'rout', 'routing'],
    // Shaken morale −4: 3 − 4 = −1, eliminated: worse than routing, so it stands.
    ['routing', { morale: 'shaken' }, [1, 1, 1], 'eliminated', undefined],
    ['retreating', {}, [6, 6, 6], 'retreat', 'retreating'],
    ['retreating', {}, [1, 1, 2], 'rout', 'routing'],
    ['retreating', { enemy_within_100m: true }, [3, 3, 4], 'retreat', 'retreating'],
    ['steady', {}, [3, 3, 4], 'pinned', 'steady'],
  ] as const)('%s, %j, dice %j → %s', async (state, options, dice, result, after) => {
    app = await appWithGame('lightning-war', { U: { morale: 'professional', original: 4, state } });
    const r = await roll('morale', { unit: 'U', ...options }, [...dice]);
    expect(r.record!.result).toBe(result);
    if (after === undefined) expect(fields('U')).toBeUndefined();
    else expect(fields('U')).toMatchObject({ state: after });
  });

  // [state, options, 3d6, label, what the reply says] for each reading a prior state can give.
  it.each([
    ['routing', {}, [3, 3, 4], 'Still routing', 'The table read pinned, but a new check never improves a routing unit: it is still routing.'],
    ['retreating', {}, [3, 3, 4], 'Still retreating', 'The table read pinned, but a new check never improves a retreating unit: it is still retreating.'],
    // The table itself reads rout: its own row, not "still".
    ['routing', {}, [1, 1, 2], 'Rout', 'It moves at its fastest speed away from the enemy toward the friendly table edge'],
    [
      'routing',
      { enemy_within_100m: true },
      [3, 3, 4],
      'Surrender',
      'It is already routing (the table read pinned), and a visible enemy unit is within 100 m (2\\"): it surrenders.',
    ],
    ['routing', { enemy_within_100m: true }, [1, 1, 2], 'Surrender', 'It would rout, but a visible enemy unit is within 100 m (2\\"): the unit surrenders.'],
  ] as const)('%s, %j, dice %j reads %s', async (state, options, dice, label, words) => {
    app = await appWithGame('lightning-war', { U: { morale: 'professional', original: 4, state } });
    const r = await roll('morale', { unit: 'U', ...options }, [...dice]);
    expect(r.record!.steps[0]).toMatchObject({ label });
    expect(text(r)).toContain(words);
  });

  it('the reply says the table result and why the state stands', async () => {
    app = await appWithGame('lightning-war', { U: { morale: 'professional', original: 4, state: 'routing' } });
    const r = await roll('morale', { unit: 'U' }, [3, 3, 4]);
    expect(r.record!.steps[0]).toMatchObject({ table_result: 'pinned', label: 'Still routing' });
    expect(text(r)).toContain('The table read pinned, but a new check never improves a routing unit: it is still routing.');
  });
});

describe('Wacht am Rhein: phases, modes and the MR exemption (Events, MR exemption, Recovery)', () => {
  const recover = (o: Record<string, unknown> = {}) => sub(alice, 'fatigue', 'recover', { unit: 'A', adjacent_enemy: false, moved: false, ...o });

  it('two spellings of the Resting Phase are one phase: one recovery step', async () => {
    app = await appWithGame('wacht-am-rhein', { A: { attack: 4, defense: 4, movement: 4, fatigue: 'fatigued' } });
    await sub(alice, 'game', 'turn', { number: 1, phase: 'resting' });
    expect(expectMessage(await recover()).record!.result).toBe('resting');
    const t = expectMessage(await sub(alice, 'game', 'turn', { number: 1, phase: 'Resting Phase' }));
    expect(text(t)).toContain('1 · resting');
    expect(expectError(await recover())).toContain('already recovered a step in the Resting Phase of turn 1');
    expect(fields('A')).toMatchObject({ fatigue: 'resting', recovered_in: '1|resting' });
  });

  it("a phase named like a property of every object is the game's own text, not a crash", async () => {
    app = await appWithGame('wacht-am-rhein', { A: { attack: 4, defense: 4, movement: 4, fatigue: 'fatigued' } });
    const t = expectMessage(await sub(alice, 'game', 'turn', { number: 2, phase: 'constructor' }));
    expect(text(t)).toContain('2 · constructor');
    expect(expectError(await recover())).toContain('Recovery is taken in the Resting Phase (13.1.2)');
  });

  it("the roster's Strategic mode decides: tactical:true is not applied, and the reply says so", async () => {
    app = await appWithGame('wacht-am-rhein', { A: { attack: 4, defense: 4, movement: 4, fatigue: 'fatigued', mode: 'strategic' } });
    await sub(alice, 'game', 'turn', { number: 1, phase: 'rest' });
    const r = expectMessage(await recover({ tactical: true }));
    expect(r.record!.result).toBe('fatigued');
    expect(text(r)).toContain("`tactical:true` was not applied: A's mode on the roster, strategic, decides (13.1.2).");
    expect(text(r)).toContain('it is not in Tactical mode');
  });

  it('in an exempt ENA an Overkill needs `by`: the enemy’s fatigues, its own does not', async () => {
    app = await appWithGame('wacht-am-rhein', { A: { attack: 4, defense: 4, movement: 4, mode: 'maneuver_reserve' } });
    await sub(alice, 'game', 'turn', { number: 1, phase: 'movement' });
    expectMessage(await sub(alice, 'fatigue', 'event', { unit: 'A', event: 'left_maneuver_reserve' }));
    await sub(alice, 'game', 'turn', { number: 1, phase: 'Extended Night Activity' });
    expect(expectError(await sub(alice, 'fatigue', 'event', { unit: 'A', event: 'overkill' }))).toContain(
      'give `by:own_attack` (a GA it made) or `by:enemy_attack` (an enemy GA or Barrage)',
    );
    expect(expectMessage(await sub(alice, 'fatigue', 'event', { unit: 'A', event: 'overkill', by: 'own_attack' })).record!.result).toBe('normal');
    expect(expectMessage(await sub(alice, 'fatigue', 'event', { unit: 'A', event: 'overkill', by: 'enemy_attack' })).record!.result).toBe('fatigued');
    expect(expectError(await sub(alice, 'fatigue', 'event', { unit: 'A', event: 'ena_activated', by: 'own_attack' }))).toBe(
      '`by` says whose attack an Overkill came from: it goes with event:overkill only.',
    );
  });

  it('ga_attack_while_resting reads as the unit attacking, and /game turn offers the phase keys', async () => {
    app = await appWithGame('wacht-am-rhein', { A: { attack: 4, defense: 4, movement: 4, fatigue: 'resting' } });
    const r = expectMessage(await sub(alice, 'fatigue', 'event', { unit: 'A', event: 'ga_attack_while_resting' }));
    expect(text(r)).toContain('Attacked in a Ground Assault (as the attacker) while resting: it becomes fatigued.');
    const choices = await app.router.handle({ type: 'autocomplete', name: 'game', subcommand: 'turn', option: 'phase', value: 're', actor: alice });
    expect(choices).toEqual({ type: 'choices', choices: [{ name: 'resting', value: 'resting' }] });
  });
});

describe('review mends: guards each with a test that fails without it', () => {
  it('a re-roll settles a pending rout once: later retreats of the unit write no roster row', async () => {
    app = await appWithGame('hearts-of-tin', { A: { original: 8, disorder: 3, quality: 'militia' } });
    await sub(alice, 'game', 'turn', { number: 1 });
    app.dice.push(1);
    const rout = expectMessage(await command(app, alice, 'rally', { unit: 'A', commander_near: true }));
    app.dice.push(6);
    // 6 − 1 − 2 = 3: retreat, and the pending rout is settled.
    expect(expectMessage(await press(app, alice, rout.buttons[0]!.custom_id)).record!.result).toBe('retreat');
    const unitRows = () => app.ledger.history.page({ guildId: 'g1', kinds: 'all' }, 100, 0).rows.filter((r) => r.kind === 'unit').length;
    const before = unitRows();
    app.dice.push(5);
    // 5 − 3 = 2: another retreat; nothing on the roster changes.
    expect(expectMessage(await command(app, alice, 'rally', { unit: 'A' })).record!.result).toBe('retreat');
    expect(unitRows()).toBe(before);
  });

  it('/disorder on a unit whose rout is pending: the rout stands, nothing is judged', async () => {
    app = await appWithGame('hearts-of-tin', { A: { original: 8, disorder: 3, quality: 'militia' } });
    app.dice.push(1);
    expectMessage(await command(app, alice, 'rally', { unit: 'A', commander_near: true }));
    const r = expectMessage(await command(app, alice, 'disorder', { unit: 'A', lost: 1 }));
    expect(r.embed.title).toBe('Rout stands · A');
    expect(fields('A')).toBeUndefined();
  });

  it('a press after /game end is refused: the game has ended', async () => {
    app = await appWithGame('hearts-of-tin');
    await sub(alice, 'game', 'turn', { number: 1 });
    app.dice.push(1);
    const rout = expectMessage(await command(app, alice, 'rally', { disorder: 2, commander_near: true }));
    expectMessage(await sub(alice, 'game', 'end'));
    expect(expectError(await press(app, alice, rout.buttons[0]!.custom_id))).toContain('has lapsed: the game has ended, so the rout stands');
  });

  it('a sealed rally revealed after its turn, or after a void, shows no re-roll button', async () => {
    app = await appWithGame('hearts-of-tin');
    await sub(alice, 'game', 'turn', { number: 1 });
    app.dice.push(1, 1);
    const late = expectMessage(await command(app, alice, 'rally', { disorder: 2, commander_near: true, sealed: true })).record!.roll_id;
    const voided = expectMessage(await command(app, alice, 'rally', { disorder: 2, commander_near: true, sealed: true })).record!.roll_id;
    expectMessage(await command(app, gm, 'void', { id: voided, reason: 'test' }));
    expect(expectMessage(await command(app, gm, 'reveal', { id: voided })).buttons).toEqual([]);
    await sub(alice, 'game', 'turn', { number: 2 });
    expect(expectMessage(await command(app, gm, 'reveal', { id: late })).buttons).toEqual([]);
  });

  it('/odds offers nationality and class as typed (no listed choices), validated against the same list', async () => {
    app = testApp();
    const ask = (value: string) => app.router.handle({ type: 'autocomplete', name: 'odds', option: 'roll', value, actor: alice });
    expect(await ask('mc unit:467 nationality:ger')).toEqual({
      type: 'choices',
      choices: [{ name: 'mc unit:467 nationality:german', value: 'mc unit:467 nationality:german' }],
    });
    expect(await ask('hob class:e')).toEqual({ type: 'choices', choices: [{ name: 'hob class:elite', value: 'hob class:elite' }] });
    expect(expectError(await command(app, alice, 'odds', oddsRoll('mc', { unit: '467', nationality: 'klingon' })))).toContain('`nationality` must be one of');
  });

  it('/hob wounded is for a leader or hero; a companion ml outside 1–10 is refused', async () => {
    app = testApp();
    expect(expectError(await command(app, alice, 'hob', { unit: 'German 4-6-7', wounded: true }))).toBe('`wounded` is for a leader or hero (A17).');
    expect(expectError(await command(app, alice, 'hob', { unit: 'Russian 9-1', companions: 'Russian commissar ml:11' }))).toBe(
      '`companions` "Russian commissar ml:11": ml must be a whole number from 1 to 10.',
    );
  });

  it("a Commissar's +1 never lifts an ML past 10", async () => {
    // ml:10 given, a Commissar in the Location: still 10; 5 + 6 = 11 > 10 breaks.
    const r = await roll('mc', { unit: 'Russian 4-4-7', ml: 10, commissar: 'in_location' }, [5, 6]);
    expect(r.record!.steps[0]).toMatchObject({ ml: 10, final: 11, result: 'broken' });
    expect(text(r)).not.toContain('a Commissar in the Location: ML');
  });

  it('a berserk unit checks at ML 10 even when an `ml` is given (A15.42: never lowered)', async () => {
    // 5 + 5 = 10 ≤ 10: passed; at the ML 7 given it would have broken.
    const r = await roll('mc', { unit: 'German 4-6-7', status: 'berserk', ml: 7 }, [5, 5]);
    expect(r.record!.steps[0]).toMatchObject({ ml: 10, result: 'passed' });
    expect(text(r)).toContain('berserk: ML 10, not the 7 given (A15.42)');
  });
});
