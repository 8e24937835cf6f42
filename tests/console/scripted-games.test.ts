import { describe, expect, it } from 'vitest';
import { Ledger } from '../../src/ledger/ledger.js';
import { tmpDb } from '../helpers/tmp.js';
import { playConsole } from '../helpers/console.js';

// A whole game of each system, typed into the console as a club would play it (--json, dice fed
// with --dice so every outcome is the one worked out by hand below), with the final roster and
// every ledger row asserted.
const GUILD = 'console-guild';

const play = playConsole;

/** Every row of the server's ledger as [command, kind, result, unit, turn], in chain order. */
function rows(db: string) {
  const ledger = Ledger.open(db);
  try {
    expect(ledger.verify(GUILD).ok).toBe(true);
    const all = ledger.history.page({ guildId: GUILD, kinds: 'all' }, 1000, 0).rows.reverse();
    return { rows: all.map((r) => [r.command, r.kind, r.result, r.unit, r.turn]), dice: all.filter((r) => r.dice.length).map((r) => r.dice), ledger: all };
  } finally {
    ledger.close();
  }
}

function roster(db: string) {
  const ledger = Ledger.open(db);
  try {
    const game = ledger.roster.activeGame(GUILD, 'console-channel')!;
    return Object.fromEntries(ledger.roster.everyUnit(game.id).map((u) => [u.name, { ...u.fields, removed: Boolean(u.removed_at) }]));
  } finally {
    ledger.close();
  }
}

/** Expected rows: a roster change, and a turn set. */
const u = (command: string, unit: string, turn: number | null, result = 'unit_updated') => [command, 'unit', result, unit, turn];
const turn = (n: number) => ['game', 'game', 'turn_set', null, n];

describe('scripted games through the console', () => {
  it('Hearts of Tin: six turns, four units in two brigades, every kind of disorder, rally and brigade event', () => {
    const db = tmpDb();
    const first = play(
      db,
      [
        '/game start system:hearts-of-tin name:Waterloo',
        '/unit add name:"1st Foot" fields:"original:12 brigade:Picton"',
        '/unit add name:Rifles fields:"original:8 quality:elite brigade:Picton"',
        '/unit add name:Militia fields:"original:10 quality:militia brigade:Picton"',
        '/unit add name:Guards fields:"original:12 brigade:Maitland"',
        '/game turn number:1',
        '/disorder unit:"1st Foot" lost:3 melee:defeated', // 3 of 12 is 25%, and defeated: 2 markers
        '/disorder unit:Militia lost:2', // 2 of 10: none
        '/disorder unit:Militia lost:1', // 3 of 10 this turn: one marker
        '/game turn number:2',
        '/rally unit:"1st Foot"', // 6 − 1 (second marker) = 5: rally
        '/rally unit:Militia commander_near:true', // 1 − 1 (militia) = 0: rout, the commander may join
      ],
      [6, 1],
    );
    expect(first.map((o) => o.ok)).toEqual(Array(12).fill(true));
    expect(first[6]).toMatchObject({ result: 'disorder', steps: [{ markers: 2 }] });
    expect(first[11]).toMatchObject({ result: 'rout', buttons: [{ custom_id: expect.stringMatching(/^v1:reroll:/) }] });
    const reroll = first[11]!.buttons[0].custom_id as string;
    const second = play(
      db,
      [
        `press ${reroll}`, // 4 − 1 = 3: retreat, the disorder stays
        '/disorder unit:Rifles lost:0 melee:pursued', // one marker
        '/game turn number:3',
        '/rally unit:Rifles enemy_in_sight:false', // 5 + 1 (no enemy) + 1 (elite) = 7: huzzah
        '/disorder unit:Guards lost:12', // all of it: gone
        '/disorder unit:Militia lost:5', // 5 of 7 at the start of turn 3: a marker
        '/brigade brigade:Picton', // lost 3 + 0 + 8 of 30: steady
        '/brigade brigade:Maitland', // the Guards are gone: 12 of 12, shaken
        '/game turn number:4', // no live unit of a shaken brigade
        '/disorder unit:"1st Foot" lost:5', // 5 of 9: a marker
        '/brigade brigade:Picton', // lost 8 + 0 + 8 = 16 of 30: shaken, its three units marked
        '/game turn number:5', // end of turn 4: each Picton unit +1
        '/rally unit:Militia', // 2 − 1 (militia) − 2 (three markers) = −1: rout, no commander: removed
        '/game turn number:6', // end of turn 5: the two Picton units left +1
        '/game status',
      ],
      [4, 5, 2],
    );
    expect(second.map((o) => o.ok)).toEqual(Array(15).fill(true));
    expect(second[0]).toMatchObject({ result: 'retreat' });
    expect(second[3]).toMatchObject({ result: 'huzzah' });
    expect(second[4]).toMatchObject({ result: 'gone' });
    expect(second[6]).toMatchObject({ result: 'steady' });
    expect(second[7]).toMatchObject({ result: 'shaken' });
    expect(second[10]).toMatchObject({ result: 'shaken' });
    expect(second[12]).toMatchObject({ result: 'rout' });
    expect(JSON.stringify(second[11])).toContain('Militia (Picton, shaken): +1 disorder marker, now 3.');
    expect(JSON.stringify(second[14])).toContain('Rulings without dice');

    expect(roster(db)).toEqual({
      '1st Foot': {
        quality: 'regular',
        band: false,
        brigade: 'Picton',
        original: 12,
        strength: 4,
        disorder: 3,
        turn_of: 4,
        turn_strength: 9,
        turn_lost: 5,
        turn_marked: true,
        brigade_shaken: true,
        removed: false,
      },
      Rifles: {
        quality: 'elite',
        band: false,
        brigade: 'Picton',
        original: 8,
        strength: 8,
        disorder: 2,
        turn_of: 2,
        turn_strength: 8,
        turn_lost: 0,
        turn_marked: false,
        brigade_shaken: true,
        removed: false,
      },
      Militia: {
        quality: 'militia',
        band: false,
        brigade: 'Picton',
        original: 10,
        strength: 2,
        disorder: 3,
        turn_of: 3,
        turn_strength: 7,
        turn_lost: 5,
        turn_marked: true,
        brigade_shaken: true,
        // Its turn-2 rout was settled by the commander's re-roll (a retreat).
        pending_rout: null,
        removed: true,
      },
      Guards: { quality: 'regular', band: false, brigade: 'Maitland', original: 12, strength: 12, disorder: 0, removed: true },
    });
    const r = rows(db);
    expect(r.rows).toEqual([
      ['game', 'game', 'game_started', null, null],
      u('unit', '1st Foot', null, 'unit_added'),
      u('unit', 'Rifles', null, 'unit_added'),
      u('unit', 'Militia', null, 'unit_added'),
      u('unit', 'Guards', null, 'unit_added'),
      turn(1),
      ['disorder', 'check', 'disorder', '1st Foot', 1],
      u('disorder', '1st Foot', 1),
      ['disorder', 'check', 'no_disorder', 'Militia', 1],
      u('disorder', 'Militia', 1),
      ['disorder', 'check', 'disorder', 'Militia', 1],
      u('disorder', 'Militia', 1),
      ['game', 'game', 'turn_set', null, 2],
      ['rally', 'roll', 'rally', '1st Foot', 2],
      u('rally', '1st Foot', 2),
      ['rally', 'roll', 'rout', 'Militia', 2],
      // The rout is pending while the commander may join, and the re-roll settles it.
      u('rally', 'Militia', 2),
      ['rally', 'reroll', 'retreat', 'Militia', 2],
      u('rally', 'Militia', 2),
      ['disorder', 'check', 'disorder', 'Rifles', 2],
      u('disorder', 'Rifles', 2),
      ['game', 'game', 'turn_set', null, 3],
      ['rally', 'roll', 'huzzah', 'Rifles', 3],
      u('rally', 'Rifles', 3),
      ['disorder', 'check', 'gone', 'Guards', 3],
      u('disorder', 'Guards', 3, 'unit_removed'),
      ['disorder', 'check', 'disorder', 'Militia', 3],
      u('disorder', 'Militia', 3),
      ['brigade', 'check', 'steady', 'Picton', 3],
      ['brigade', 'check', 'shaken', 'Maitland', 3],
      ['game', 'game', 'turn_set', null, 4],
      ['disorder', 'check', 'disorder', '1st Foot', 4],
      u('disorder', '1st Foot', 4),
      ['brigade', 'check', 'shaken', 'Picton', 4],
      u('brigade', '1st Foot', 4),
      u('brigade', 'Rifles', 4),
      u('brigade', 'Militia', 4),
      ['game', 'game', 'turn_set', null, 5],
      u('game', '1st Foot', 5),
      u('game', 'Rifles', 5),
      u('game', 'Militia', 5),
      ['rally', 'roll', 'rout', 'Militia', 5],
      u('rally', 'Militia', 5, 'unit_removed'),
      ['game', 'game', 'turn_set', null, 6],
      u('game', '1st Foot', 6),
      u('game', 'Rifles', 6),
    ]);
    expect(r.dice).toEqual([[6], [1], [4], [5], [2]]);
  });

  it('Wacht am Rhein: five turns, four units, every fatigue event, the MR exemption through its ENA, recoveries and modes', () => {
    const db = tmpDb();
    const P = 'unit:"1/506 PIR"',
      K = 'unit:"KG Peiper"',
      C = 'unit:"CCB 9th"',
      T = 'unit:"2/112"';
    const ok = (x: string) => `/fatigue recover ${x} adjacent_enemy:false moved:false`;
    const out = play(db, [
      '/game start system:wacht-am-rhein name:Bulge',
      '/unit add name:"1/506 PIR" fields:"attack:7 defense:5 movement:6"',
      '/unit add name:"KG Peiper" fields:"attack:9 defense:6 movement:10 mode:maneuver_reserve"',
      '/unit add name:"CCB 9th" fields:"attack:6 defense:6 movement:8 mode:prepared_assault"',
      '/unit add name:"2/112" fields:"attack:4 defense:4 movement:6"',
      '/game turn number:1 phase:Movement',
      `/fatigue event ${K} event:left_maneuver_reserve`, // 6: armed for the first possible ENA
      `/fatigue event ${C} event:overkill`, // 7: fatigued, stays in PA
      '/game turn number:1 phase:ENA',
      `/fatigue event ${K} event:ena_activated`, // 9: exempt
      `/fatigue event ${K} event:overkill by:own_attack`, // 10: its own GA's Overkill: exempt for the whole ENA
      `/fatigue event ${P} event:ena_activated`, // 11: fatigued
      `/fatigue event ${T} event:ena_defended_full`, // 12: resting
      `/fatigue event ${T} event:ena_defended_half`, // 13: no change
      '/game turn number:1 phase:Resting', // 14: the ENA ends, and the exemption with it
      ok(P), // 15: fatigued → resting
      ok(P), // 16: refused, one step per Resting Phase
      `/fatigue recover ${T} adjacent_enemy:true moved:false`, // 17: adjacent: no recovery
      ok(C), // 18: not in Tactical mode: no recovery
      '/game turn number:2 phase:ENA',
      `/fatigue event ${K} event:ena_activated`, // 20: fatigued now
      `/fatigue event ${T} event:ga_attack_while_resting`, // 21: resting → fatigued
      `/fatigue event ${P} event:defender_retreated`, // 22: already resting
      '/game turn number:2 phase:Resting',
      ok(P), // 24: resting → normal
      ok(K), // 25: fatigued → resting
      `/unit edit ${K} fields:"mode:prepared_assault"`, // 26: refused while resting
      '/game turn number:3 phase:Resting',
      ok(K), // 28: resting → normal
      `/unit edit ${K} fields:"mode:prepared_assault"`, // 29: allowed now
      '/game turn number:4 phase:ENA',
      `/fatigue event ${T} event:overkill`, // 31: already fatigued
      '/game turn number:5 phase:Resting',
      `/fatigue recover ${T} adjacent_enemy:false moved:true`, // 33: moved: no recovery
      `/fatigue status ${T}`,
    ]);
    const refused = [16, 26];
    expect(out.map((o, _i) => o.ok)).toEqual(out.map((_, i) => !refused.includes(i)));
    expect(out[16]!.error).toContain('already recovered a step in the Resting Phase of turn 1');
    expect(out[26]!.error).toBe('A resting unit may not enter Prepared Assault mode (13.1.1).');
    expect([6, 7, 9, 10, 11, 12, 13, 15, 17, 18, 20, 21, 22, 24, 25, 28, 31, 33].map((i) => out[i]!.result)).toEqual([
      'normal',
      'fatigued',
      'normal',
      'normal',
      'fatigued',
      'resting',
      'resting',
      'resting',
      'resting',
      'fatigued',
      'fatigued',
      'fatigued',
      'resting',
      'normal',
      'resting',
      'normal',
      'fatigued',
      'fatigued',
    ]);
    expect(JSON.stringify(out[14])).toContain('KG Peiper: the Maneuver Reserve exemption ended with the ENA.');
    expect(JSON.stringify(out[34])).toContain('**1-1-2** (quartered, rounded up, from 4-4-6)');

    expect(roster(db)).toEqual({
      '1/506 PIR': { attack: 7, defense: 5, movement: 6, mode: 'tactical', fatigue: 'normal', mr_exemption: false, recovered_in: '2|resting', removed: false },
      'KG Peiper': {
        attack: 9,
        defense: 6,
        movement: 10,
        mode: 'prepared_assault',
        fatigue: 'normal',
        mr_exemption: false,
        mr_armed: '1|movement',
        mr_ena: null,
        recovered_in: '3|resting',
        removed: false,
      },
      'CCB 9th': { attack: 6, defense: 6, movement: 8, mode: 'prepared_assault', fatigue: 'fatigued', mr_exemption: false, removed: false },
      '2/112': { attack: 4, defense: 4, movement: 6, mode: 'tactical', fatigue: 'fatigued', mr_exemption: false, removed: false },
    });
    const r = rows(db);
    const f = (result: string, unit: string, turn: number) => ['fatigue', 'check', result, unit, turn];
    expect(r.rows).toEqual([
      ['game', 'game', 'game_started', null, null],
      u('unit', '1/506 PIR', null, 'unit_added'),
      u('unit', 'KG Peiper', null, 'unit_added'),
      u('unit', 'CCB 9th', null, 'unit_added'),
      u('unit', '2/112', null, 'unit_added'),
      turn(1),
      f('normal', 'KG Peiper', 1),
      u('fatigue', 'KG Peiper', 1),
      f('fatigued', 'CCB 9th', 1),
      u('fatigue', 'CCB 9th', 1),
      turn(1),
      f('normal', 'KG Peiper', 1),
      u('fatigue', 'KG Peiper', 1),
      f('normal', 'KG Peiper', 1),
      f('fatigued', '1/506 PIR', 1),
      u('fatigue', '1/506 PIR', 1),
      f('resting', '2/112', 1),
      u('fatigue', '2/112', 1),
      f('resting', '2/112', 1),
      turn(1),
      u('game', 'KG Peiper', 1),
      f('resting', '1/506 PIR', 1),
      u('fatigue', '1/506 PIR', 1),
      f('resting', '2/112', 1),
      f('fatigued', 'CCB 9th', 1),
      turn(2),
      f('fatigued', 'KG Peiper', 2),
      u('fatigue', 'KG Peiper', 2),
      f('fatigued', '2/112', 2),
      u('fatigue', '2/112', 2),
      f('resting', '1/506 PIR', 2),
      turn(2),
      f('normal', '1/506 PIR', 2),
      u('fatigue', '1/506 PIR', 2),
      f('resting', 'KG Peiper', 2),
      u('fatigue', 'KG Peiper', 2),
      turn(3),
      f('normal', 'KG Peiper', 3),
      u('fatigue', 'KG Peiper', 3),
      ['unit', 'unit', 'unit_edited', 'KG Peiper', 3],
      turn(4),
      f('fatigued', '2/112', 4),
      turn(5),
      f('fatigued', '2/112', 5),
    ]);
    expect(r.dice).toEqual([]);
  });

  it('Lightning War: five turns, four units, every reason, every kind of result, rallies and surrenders', () => {
    const db = tmpDb();
    const out = play(
      db,
      [
        '/game start system:lightning-war name:Kursk',
        '/unit add name:"1st Platoon" fields:"morale:professional original:5"',
        '/unit add name:Panther fields:"morale:resolved original:1 unit_type:armored_vehicle"',
        '/unit add name:Recon fields:"morale:leery original:2 unit_type:soft_vehicle"',
        '/unit add name:"2nd Platoon" fields:"morale:leery original:4"',
        '/game turn number:1',
        '/morale unit:"1st Platoon" casualties:2/5 reason:casualties_33', // 8 − 2 = 6: fall back
        '/morale unit:Panther reason:vehicle_penetrated', // 7 + 2 = 9: pinned, no effect on armour
        '/morale unit:"2nd Platoon" reason:friendly_fire', // 7 − 2 = 5: retreat
        '/game turn number:2',
        '/morale unit:"1st Platoon" casualties:3/5 reason:casualties_after_50', // 7 − 4 = 3: rout
        '/morale unit:Recon reason:friendly_rout_nearby', // 10 − 2 = 8: suppressed
        '/morale unit:"2nd Platoon" rally:true commander:true', // 10 + 2 + 2 − 2 = 12: rallied
        '/game turn number:3',
        '/morale unit:"1st Platoon" rally:true', // 9 + 2 − 4 = 7: suppressed, the rally fails, still routing
        '/morale unit:Panther rally:true', // refused: only infantry rallies
        '/morale unit:"2nd Platoon" reason:overrun', // 17 − 2 = 15: firm
        '/game turn number:4',
        '/morale unit:"1st Platoon" rally:true enemy_within_100m:true', // 6 − 2 = 4: fails while routing, enemy near: surrender
        '/morale unit:Recon near_kill:true immobilized:true reason:vehicle_penetrated', // 4 − 7 = −3: eliminated
        '/game turn number:5',
        '/morale unit:"2nd Platoon" casualties:1/4 cover:hard reserve_move:true', // 10 − 2 − 2 + 4 − 2 = 8: suppressed
        '/morale unit:Panther reason:overrun', // refused: overrun is for infantry
        '/morale unit:"2nd Platoon" enemy_within_100m:true', // 7 − 2 − 2 = 3: rout, enemy near: surrender
      ],
      [3, 3, 2, 3, 2, 2, 2, 2, 3, 3, 2, 2, 4, 4, 2, 5, 4, 1, 3, 3, 3, 6, 6, 5, 2, 2, 2, 1, 1, 2, 3, 3, 4, 3, 2, 2],
    );
    const refused = [15, 22];
    expect(out.map((o) => o.ok)).toEqual(out.map((_, i) => !refused.includes(i)));
    expect(out[15]!.error).toContain('Only infantry rallies');
    expect(out[22]!.error).toContain('`reason` overrun is for infantry');
    expect([6, 7, 8, 10, 11, 12, 14, 16, 18, 19, 21, 23].map((i) => out[i]!.result)).toEqual([
      'fall_back',
      'pinned',
      'retreat',
      'rout',
      'suppressed',
      'rallied',
      'rally_failed',
      'firm',
      'surrender',
      'eliminated',
      'suppressed',
      'surrender',
    ]);
    expect(JSON.stringify(out[7])).toContain('no effect on an armored vehicle');
    expect(out[8]!.embed.description).toContain('because it was hit by friendly fire');

    expect(roster(db)).toEqual({
      '1st Platoon': { morale: 'professional', original: 5, casualties: 3, unit_type: 'infantry', state: 'routing', removed: true },
      Panther: { morale: 'resolved', original: 1, casualties: 0, unit_type: 'armored_vehicle', state: 'steady', removed: false },
      Recon: { morale: 'leery', original: 2, casualties: 0, unit_type: 'soft_vehicle', state: 'steady', removed: true },
      '2nd Platoon': { morale: 'leery', original: 4, casualties: 1, unit_type: 'infantry', state: 'steady', removed: true },
    });
    const r = rows(db);
    const m = (result: string, unit: string, turn: number) => ['morale', 'roll', result, unit, turn];
    expect(r.rows).toEqual([
      ['game', 'game', 'game_started', null, null],
      u('unit', '1st Platoon', null, 'unit_added'),
      u('unit', 'Panther', null, 'unit_added'),
      u('unit', 'Recon', null, 'unit_added'),
      u('unit', '2nd Platoon', null, 'unit_added'),
      turn(1),
      m('fall_back', '1st Platoon', 1),
      u('morale', '1st Platoon', 1),
      m('pinned', 'Panther', 1),
      m('retreat', '2nd Platoon', 1),
      u('morale', '2nd Platoon', 1),
      turn(2),
      m('rout', '1st Platoon', 2),
      u('morale', '1st Platoon', 2),
      m('suppressed', 'Recon', 2),
      m('rallied', '2nd Platoon', 2),
      u('morale', '2nd Platoon', 2),
      turn(3),
      m('rally_failed', '1st Platoon', 3),
      m('firm', '2nd Platoon', 3),
      turn(4),
      m('surrender', '1st Platoon', 4),
      u('morale', '1st Platoon', 4, 'unit_removed'),
      m('eliminated', 'Recon', 4),
      u('morale', 'Recon', 4, 'unit_removed'),
      turn(5),
      m('suppressed', '2nd Platoon', 5),
      u('morale', '2nd Platoon', 5),
      m('surrender', '2nd Platoon', 5),
      u('morale', '2nd Platoon', 5, 'unit_removed'),
    ]);
    expect(r.dice).toEqual([
      [3, 3, 2],
      [3, 2, 2],
      [2, 2, 3],
      [3, 2, 2],
      [4, 4, 2],
      [5, 4, 1],
      [3, 3, 3],
      [6, 6, 5],
      [2, 2, 2],
      [1, 1, 2],
      [3, 3, 4],
      [3, 2, 2],
    ]);
  });

  it('ASL: five turns, five units, checks, rallies, Heat of Battle and its refusal, ELR, berserk, wounds, Step Reduction', () => {
    const db = tmpDb();
    const first = play(
      db,
      [
        '/game start system:asl name:Stalingrad',
        '/unit add name:Able fields:"counter:German 4-6-7"',
        '/unit add name:Baker fields:"counter:German 4-4-7"',
        '/unit add name:"Lt Hans" fields:"counter:German 9-1"',
        '/unit add name:Ivan fields:"counter:Russian 4-4-7"',
        '/unit add name:Kato fields:"counter:Japanese 4-4-7"',
        '/game turn number:1',
        '/mc unit:Able number:1', // 8 + 1 = 9 > 7: broken
        '/mc unit:Baker number:2', // 5 + 2 = 7 = ML: pinned
        '/mc unit:"Lt Hans" number:4 elr:2', // 9 + 4 = 13, failed by 4 > ELR 2: a broken 8-1 (A19.13)
        '/game turn number:2',
        '/mc unit:Able check:rally leader_drm:-1', // Original 2: 1 ≤ 7 rallied; HoB 6 + 1 (broken) = 7: hardened to 4-6-8
      ],
      [4, 4, 3, 2, 5, 4, 1, 1, 3, 3],
    );
    expect(first.map((o) => o.ok)).toEqual(Array(12).fill(true));
    expect(first[11]!.steps.map((s: { result: string }) => s.result)).toEqual(['rallied', 'battle_hardening']);
    const refuse = first[11]!.buttons[0].custom_id as string;
    const out = play(
      db,
      [
        `press ${refuse}`, // back to a 4-6-7, rallied
        '/hob unit:Ivan', // 8 + 2 (Russian) = 10: berserk
        '/game turn number:3',
        '/mc unit:Ivan number:2', // berserk: ML 10; 10 + 2 = 12: Casualty Reduction, never broken (A15.42)
        '/mc unit:Baker number:4', // 11 + 4 = 15, failed by 8 > 3: a broken 4-3-6
        '/mc unit:"Lt Hans"', // broken 8-1: 9 > 8, Casualty Reduction: Wound Severity 3, wounded
        '/game turn number:4',
        '/mc unit:"Lt Hans" check:rally self_rally:first', // 5 + 1 = 6 ≤ 8 − 1 (wounded): rallied
        '/mc unit:Baker check:rally leader_drm:-1', // 4 − 1 = 3 ≤ 5: rallied
        '/hob unit:Able', // 4: a hero joins it
        '/game turn number:5',
        '/mc unit:Able number:1', // Original 12, failed by 6 > 3: a broken 2-3-7 HS of the lower Class
        '/mc unit:Kato', // 9 > 7: Step Reduction to the reduced 3-4-7 (G1.121)
      ],
      [4, 4, 5, 5, 6, 5, 5, 4, 3, 2, 3, 2, 2, 2, 2, 6, 6, 5, 4],
    );
    expect(out.map((o) => o.ok)).toEqual(Array(13).fill(true));
    expect([1, 3, 4, 5, 7, 8, 9, 11, 12].map((i) => out[i]!.result)).toEqual([
      'berserk',
      'casualty_reduction',
      'replaced',
      'casualty_reduction',
      'rallied',
      'rallied',
      'hero',
      'casualty_reduction',
      'step_reduced',
    ]);
    expect(out[5]!.steps.map((s: { kind: string; result: string }) => [s.kind, s.result])).toEqual([
      ['mc', 'casualty_reduction'],
      ['wound', 'wounded'],
    ]);

    const clean = { berserk: false, fanatic: false, heroic: false, wounded: false, disrupted: false, removed: false };
    expect(roster(db)).toEqual({
      Able: { ...clean, counter: 'German 2-3-7 half-squad', broken: true },
      Baker: { ...clean, counter: 'German 4-3-6', broken: false },
      'Lt Hans': { ...clean, counter: 'German 8-1 leader', broken: false, wounded: true },
      Ivan: { ...clean, counter: 'Russian 2-3-7 half-squad', broken: false, berserk: true },
      Kato: { ...clean, counter: 'Japanese 3-4-7 reduced squad', broken: false },
    });
    const r = rows(db);
    const mc = (result: string, unit: string, turn: number, command = 'mc') => [command, 'roll', result, unit, turn];
    expect(r.rows).toEqual([
      ['game', 'game', 'game_started', null, null],
      ...['Able', 'Baker', 'Lt Hans', 'Ivan', 'Kato'].map((n) => u('unit', n, null, 'unit_added')),
      turn(1),
      mc('broken', 'Able', 1),
      u('mc', 'Able', 1),
      mc('pinned', 'Baker', 1),
      mc('replaced', 'Lt Hans', 1),
      u('mc', 'Lt Hans', 1),
      turn(2),
      mc('rallied', 'Able', 2),
      u('mc', 'Able', 2),
      ['mc', 'decision', 'hardening_refused', 'Able', 2],
      u('mc', 'Able', 2),
      mc('berserk', 'Ivan', 2, 'hob'),
      u('hob', 'Ivan', 2),
      turn(3),
      mc('casualty_reduction', 'Ivan', 3),
      u('mc', 'Ivan', 3),
      mc('replaced', 'Baker', 3),
      u('mc', 'Baker', 3),
      mc('casualty_reduction', 'Lt Hans', 3),
      u('mc', 'Lt Hans', 3),
      turn(4),
      mc('rallied', 'Lt Hans', 4),
      u('mc', 'Lt Hans', 4),
      mc('rallied', 'Baker', 4),
      u('mc', 'Baker', 4),
      mc('hero', 'Able', 4, 'hob'),
      turn(5),
      mc('casualty_reduction', 'Able', 5),
      u('mc', 'Able', 5),
      mc('step_reduced', 'Kato', 5),
      u('mc', 'Kato', 5),
    ]);
    expect(r.dice).toEqual([
      [4, 4],
      [3, 2],
      [5, 4],
      [1, 1, 3, 3],
      [4, 4],
      [5, 5],
      [6, 5],
      [5, 4, 3],
      [2, 3],
      [2, 2],
      [2, 2],
      [6, 6],
      [5, 4],
    ]);
  });
});
