import { afterEach, describe, expect, it } from 'vitest';
import { alice, appWithGame, command, expectError, expectMessage, press, rollWith, subcommand, testApp, type TestApp } from '../helpers/app.js';

// Every row of every rules table — label, effect sentence, tone — as a player reads it in
// the rendered reply. The words and colours are written here, never read from the table under test.
let app: TestApp;
afterEach(() => app?.ledger.close());

// The embed colours a tone is drawn in (src/render/embed.ts): what a player sees of the tone.
const GOOD = 0x2e9d57;
const MIXED = 0xe0a526;
const BAD = 0xc8372d;
const NEUTRAL = 0x8a8f98;

function reply(name: string, options: Record<string, unknown>, dice: number[]) {
  app ??= testApp();
  return rollWith(app, name, options, dice);
}
const resultField = (r: { embed: { fields?: { name: string; value: string }[] } }) => r.embed.fields!.find((f) => f.name.endsWith('Result'))!.value;
const all = (r: { embed: unknown }) => JSON.stringify(r.embed);
const fresh = () => {
  app?.ledger.close();
  app = testApp();
};

describe('Hearts of Tin rally chart, row by row', () => {
  // disorder 1, regular, enemy in sight: the Final is the die; enemy_in_sight:false adds +1.
  it.each([
    [{ disorder: 1, enemy_in_sight: false }, [6], 'huzzah', '**Huzzah!** — All disorder is removed and the unit may be given an order straight away.', GOOD],
    [
      { disorder: 1 },
      [4],
      'rally',
      '**Rally** — All disorder is removed. The unit may fall back up to half a move still facing the enemy, or change facing or formation, or fire.',
      GOOD,
    ],
    [{ disorder: 1 }, [3], 'retreat', '**Retreat** — The disorder stays. The unit must retreat a full move; it may end facing the enemy.', BAD],
    [{ disorder: 2 }, [1], 'rout', '**Rout** — The unit breaks and flees the field: remove it.', BAD],
  ] as const)('%j, die %j → %s', async (options, dice, result, text, colour) => {
    fresh();
    const r = await reply('rally', options, [...dice]);
    expect(r.record!.result).toBe(result);
    expect(resultField(r)).toContain(text);
    expect(resultField(r)).toContain('*Hearts of Tin, New Morale (a)(iii)*');
    expect(r.embed.color).toBe(colour);
  });

  it('a re-roll rout loses the commander too; every modifier says why', async () => {
    fresh();
    const first = await reply('rally', { disorder: 2, commander_near: true }, [1]);
    app.dice.push(1);
    const again = expectMessage(await press(app, alice, first.buttons[0]!.custom_id));
    expect(again.record!.result).toBe('rout_commander_lost');
    expect(all(again)).toContain(
      '**Rout, commander lost** — The unit breaks and flees the field, and the commander who joined it is lost with it: remove both.',
    );
    expect(again.embed.color).toBe(BAD);
    fresh();
    const mods = await reply('rally', { disorder: 3, enemy_in_sight: false, quality: 'elite' }, [6]);
    expect(all(mods)).toContain('`+1` no enemy visible within 24\\"');
    expect(all(mods)).toContain('`+1` elite');
    const band = await reply('rally', { disorder: 1, band: true }, [2]);
    expect(all(band)).toContain('`+1` joined by a band');
    expect(all(mods)).toContain('`−2` each extra disorder marker');
    const militia = await reply('rally', { disorder: 1, quality: 'militia' }, [6]);
    expect(all(militia)).toContain('`−1` militia');
  });
});

describe('Lightning War morale table, row by row', () => {
  // Professional, no cover, no casualties: the Final is the 3d6 total.
  it.each([
    [{}, [6, 3, 2], 'firm', '**Morale firm** — No effect.', GOOD],
    [{}, [3, 3, 4], 'pinned', '**Pinned** — It cannot move for one turn unless falling back.', MIXED],
    [{}, [2, 3, 3], 'suppressed', '**Suppressed** — For one turn it cannot fire, and cannot move unless falling back.', MIXED],
    [{}, [2, 2, 2], 'fall_back', '**Fall back** — If it is not under cover it moves to the nearest cover, and does not fire until it gets there.', MIXED],
    [{}, [1, 2, 2], 'retreat', '**Retreat** — It moves away from the enemy to cover, then on to its rally point, without firing.', BAD],
    [{}, [1, 1, 2], 'rout', '**Rout** — It moves at its fastest speed away from the enemy toward the friendly table edge, without firing.', BAD],
    [{ morale: 'shaken' }, [1, 2, 2], 'eliminated', '**Eliminated** — The unit scatters: remove it.', BAD],
    [
      { enemy_within_100m: true },
      [1, 1, 1],
      'surrender',
      '**Surrender** — It would rout, but a visible enemy unit is within 100 m (2\\"): the unit surrenders. Remove it.',
      BAD,
    ],
    [{ rally: true }, [3, 3, 3], 'rallied', '**Rallied** — The unit rallies and stops retreating or routing.', GOOD],
    [
      { rally: true },
      [1, 1, 1],
      'rally_failed',
      '**Rally failed** — Only a firm result rallies; the unit stays exactly as it was (a rally roll never makes it worse). The table read retreat.',
      BAD,
    ],
    [{ unit_type: 'armored_vehicle' }, [3, 3, 3], 'pinned', '**Pinned** — Pinned has no effect on an armored vehicle: carry on.', NEUTRAL],
  ] as const)('%j, dice %j → %s', async (options, dice, result, text, colour) => {
    fresh();
    const r = await reply('morale', { morale: 'professional', ...options }, [...dice]);
    expect(r.record!.result).toBe(result);
    expect(all(r)).toContain(text);
    expect(all(r)).toContain('*Lightning War, Morale Table*');
    expect(r.embed.color).toBe(colour);
  });

  it.each([
    [{ morale: 'shaken' }, '`−4` shaken morale'],
    [{ morale: 'leery' }, '`−2` leery morale'],
    [{ morale: 'resolved' }, '`+2` resolved morale'],
    [{ morale: 'fanatic' }, '`+4` fanatic morale'],
    [{ casualties: '2/5' }, '`−2` casualties over 20% up to 40% (2/5)'],
    [{ casualties: '3/5' }, '`−4` casualties over 40% up to 60% (3/5)'],
    [{ casualties: '4/5' }, '`−6` casualties over 60% (4/5)'],
    [{ cover: 'soft' }, '`+2` under soft cover'],
    [{ cover: 'hard' }, '`+4` under hard cover'],
    [{ immobilized: true }, '`−2` immobilized'],
    [{ near_kill: true }, '`−3` suffered a Near Kill this turn'],
    [{ reserve_move: true }, '`−2` using reserve movement'],
    [{ commander: true }, '`+2` company commander or higher visible within 100 m'],
    [{ commander: true, unit_type: 'soft_vehicle' }, '`+2` company commander or higher visible within 250 m'],
    [{ rally: true }, '`+2` rally attempt'],
    [{ reason: 'casualties_33' }, 'because it lost a third or more of its strength in one phase'],
    [{ reason: 'casualties_after_50' }, 'because it took losses when already at half strength or less'],
    [{ reason: 'friendly_rout_nearby' }, 'because a friendly unit routed within 100 m (2\\")'],
    [{ reason: 'friendly_fire' }, 'because it was hit by friendly fire'],
    [{ reason: 'vehicle_penetrated', unit_type: 'armored_vehicle' }, 'because it was penetrated but not destroyed'],
    [{ reason: 'vehicle_penetrated', unit_type: 'soft_vehicle' }, 'because it was penetrated but not destroyed'],
    [{ reason: 'overrun' }, 'because it was overrun'],
  ] as const)('%j reads %s', async (options, text) => {
    fresh();
    const r = await reply('morale', { morale: 'professional', ...options }, [3, 3, 3]);
    expect(all(r)).toContain(text);
  });

  it('a reason that does not fit the unit is refused, naming what it is for', async () => {
    fresh();
    expect(expectError(await command(app, alice, 'morale', { morale: 'professional', reason: 'overrun', unit_type: 'soft_vehicle' }))).toBe(
      '`reason` overrun is for infantry, and the unit is a soft vehicle: nothing was rolled or recorded.',
    );
    expect(expectError(await command(app, alice, 'morale', { morale: 'professional', reason: 'vehicle_penetrated' }))).toBe(
      '`reason` vehicle_penetrated is for vehicles, and the unit is infantry: nothing was rolled or recorded.',
    );
  });
});

describe('Heat of Battle: band names, result labels, exempt statuses and sub-types', () => {
  // German 4-6-7 (1st Line, no DRM): the Final is the DR.
  it.each([
    [[1, 1], 'Hero', '≤ 4', GOOD],
    [[3, 3], 'Hero and Battle Hardening', '5–6', GOOD],
    [[3, 4], 'Battle Hardening', '7–8', GOOD],
    [[4, 5], 'Berserk', '9–11', MIXED],
  ] as const)('DR %j: the %s band', async (dice, label, range, colour) => {
    fresh();
    const r = await reply('hob', { unit: 'German 4-6-7' }, [...dice]);
    expect(resultField(r)).toContain(`**${label}**`);
    expect(all(r)).toContain(`is in its band, ${range}.`);
    expect(r.embed.title).toBe(`Heat of Battle · German 4-6-7 — ${label}`);
    expect(r.embed.color).toBe(colour);
  });

  it('Surrender and Disrupted: the ≥ 12 band', async () => {
    fresh();
    const s = await reply('hob', { unit: 'German 4-6-7', enemy_adjacent: true }, [6, 6]);
    expect(resultField(s)).toContain('**Surrender**');
    expect(all(s)).toContain('Final 12 is in its band, ≥ 12.');
    expect(s.embed.color).toBe(BAD);
    const d = await reply('hob', { unit: 'German 4-6-7' }, [6, 6]);
    expect(resultField(d)).toContain('**Disrupted**');
    // The band is named where its result became another: here Surrender, with no enemy ADJACENT.
    expect(all(d)).toContain('Band for Final 12: Surrender (≥ 12).');
    expect(d.embed.title).toBe('Heat of Battle · German 4-6-7 — Disrupted');
  });

  // Each status's reason is pinned word for word in tests/unit/asl-hob.test.ts; here, the refusal a player reads.
  it('an exempt status is refused with its reason', async () => {
    fresh();
    expect(expectError(await command(app, alice, 'hob', { unit: 'German 4-6-7', status: 'wading' }))).toBe(
      'German 4-6-7: no Heat of Battle DR — wading units are not subject to Heat of Battle (A15.1). Nothing was rolled or recorded.',
    );
  });

  it.each([
    ['ss', 'American 6-6-6', '`sub_type` ss is German, but the unit is American.'],
    ['nkvd', 'German 4-6-7', '`sub_type` nkvd is Russian, but the unit is German.'],
    ['gurkha', 'German 4-6-7', '`sub_type` gurkha is British, but the unit is German.'],
    ['commissar', 'German 9-1', '`sub_type` commissar is Russian, but the unit is German.'],
    ['volksgrenadier', 'Russian 4-4-7', '`sub_type` volksgrenadier is German, but the unit is Russian.'],
  ] as const)('sub_type:%s on a %s is refused', async (subType, unit, text) => {
    fresh();
    expect(expectError(await command(app, alice, 'hob', { unit, sub_type: subType }))).toBe(text);
  });
});

describe('ASL class names in the reply', () => {
  it('a Green squad outside the data past its ELR: Replaced by "a Conscript unit of the same size"', async () => {
    fresh();
    // ML 5, a 4MC: 3 + 3 + 4 = 10 fails by 5, more than ELR 0.
    const r = await reply('mc', { unit: 'American 5-5-5', class: 'green', number: 4, elr: 0 }, [3, 3]);
    expect(r.record!.result).toBe('replaced');
    expect(all(r)).toContain('replace it with a Conscript unit of the same size, broken (A19.13).');
  });
});

describe('Wacht am Rhein events, as the reply words them', () => {
  it.each([
    ['overkill', 'normal', 'Event: an Overkill result from a Ground Assault or Barrage, taken as fatigue', BAD],
    ['ena_activated', 'normal', 'Event: selected for activation during Extended Night Activity (failed to activate, moved or fought)', BAD],
    ['ena_defended_full', 'normal', 'Event: defended during Extended Night Activity with its full strength', MIXED],
    ['ena_defended_half', 'normal', 'Event: defended during Extended Night Activity at half strength, without retreating', GOOD],
    ['defender_retreated', 'normal', 'Event: as a defender during Extended Night Activity, suffered a retreat', MIXED],
    ['ga_attack_while_resting', 'resting', 'Event: was the attacker in a Ground Assault while resting', BAD],
    ['left_maneuver_reserve', 'normal', 'Event: came out of Maneuver Reserve mode', GOOD],
  ] as const)('%s', async (event, fatigue, text, colour) => {
    app?.ledger.close();
    app = await appWithGame('wacht-am-rhein', { A: { attack: 4, defense: 4, movement: 4, fatigue, mode: 'maneuver_reserve' } });
    const r = expectMessage(await subcommand(app, alice, 'fatigue', 'event', { unit: 'A', event }));
    expect(r.embed.description).toBe(text);
    expect(r.embed.color).toBe(colour);
  });
});
