import { describe, expect, it } from 'vitest';
import {
  applyEvent,
  effective,
  effectiveValue,
  EVENT_CODES,
  exemptible,
  isEnaPhase,
  isRestingPhase,
  needsOverkillBy,
  phaseKey,
  recover,
  restrictions,
  STATUSES,
  type FatigueEvent,
  type FatigueStatus,
} from '../../src/rules/wacht-am-rhein/fatigue.js';
import { sayIn } from '../../src/i18n/speak.js';

// Every event from every status, without and with the Maneuver Reserve exemption armed, in an ENA
// (13.1.3: the exemption covers fatigue from actions in that ENA, and lasts the whole ENA):
// [event, from, exemption armed, → status, exemption after]
const N = 'normal',
  R = 'resting',
  F = 'fatigued';
const TABLE: [FatigueEvent, FatigueStatus, boolean, FatigueStatus, boolean][] = [
  ['overkill', N, false, F, false],
  ['overkill', R, false, F, false],
  ['overkill', F, false, F, false],
  ['overkill', N, true, N, true],
  ['overkill', R, true, R, true],
  ['ena_activated', N, false, F, false],
  ['ena_activated', R, false, F, false],
  ['ena_activated', F, false, F, false],
  ['ena_activated', N, true, N, true],
  ['ena_activated', R, true, R, true],
  ['ena_activated', F, true, F, true],
  ['ga_attack_while_resting', R, true, R, true],
  ['ena_defended_full', N, true, R, true],
  ['ena_defended_full', N, false, R, false],
  ['ena_defended_full', R, false, R, false],
  ['ena_defended_full', F, false, F, false],
  ['ena_defended_half', N, false, N, false],
  ['ena_defended_half', R, false, R, false],
  ['ena_defended_half', F, false, F, false],
  ['defender_retreated', N, false, R, false],
  ['defender_retreated', R, false, R, false],
  ['defender_retreated', F, false, F, false],
  ['ga_attack_while_resting', N, false, N, false],
  ['ga_attack_while_resting', R, false, F, false],
  ['ga_attack_while_resting', F, false, F, false],
  ['left_maneuver_reserve', N, false, N, true],
  ['left_maneuver_reserve', R, false, R, true],
  ['left_maneuver_reserve', F, false, F, true],
  ['left_maneuver_reserve', N, true, N, true],
];

describe('Wacht am Rhein fatigue events', () => {
  it.each(TABLE)('%s from %s (exemption %s) → %s (exemption %s)', (event, from, armed, to, armedAfter) => {
    // An Overkill here is from the unit's own attack: what the exemption covers (13.1.3).
    const out = applyEvent({ status: from, mrExemption: armed }, event, { inEna: true, overkillBy: 'own_attack' });
    const f = out.steps[0]!;
    expect(f.after).toMatchObject({ status: to, mrExemption: armedAfter });
    expect(out.result).toBe(to);
    expect(f.before).toMatchObject({ status: from, mrExemption: armed });
  });

  it('covers every event from every status', () => {
    for (const e of EVENT_CODES) for (const s of STATUSES) expect(TABLE.some(([ev, from, armed]) => ev === e && from === s && !armed)).toBe(true);
  });

  it('says so when a fatigued unit is fatigued again', () => {
    expect(applyEvent({ status: F, mrExemption: false }, 'overkill').steps[0]!.effect).toContain('already fatigued and stays fatigued');
  });

  it('the Maneuver Reserve exemption covers every action of its ENA, and nothing outside an ENA (13.1.3)', () => {
    const s = applyEvent({ status: N, mrExemption: false }, 'left_maneuver_reserve').steps[0]!.after;
    const first = applyEvent(s, 'ena_activated', { inEna: true }).steps[0]!;
    expect(first.after).toMatchObject({ status: N, mrExemption: true });
    expect(first.effect).toContain('lasts until this ENA ends');
    // A second action in the same ENA is covered too.
    expect(applyEvent(first.after, 'overkill', { inEna: true, overkillBy: 'own_attack' }).steps[0]!.after).toMatchObject({ status: N, mrExemption: true });
    // An Overkill suffered from the enemy's GA or Barrage is no action of its own: it fatigues.
    expect(applyEvent(first.after, 'overkill', { inEna: true, overkillBy: 'enemy_attack' }).steps[0]!.after).toMatchObject({ status: F, mrExemption: true });
    expect(needsOverkillBy(first.after, 'overkill', { inEna: true })).toBe(true);
    expect(needsOverkillBy(first.after, 'overkill', { inEna: false })).toBe(false);
    expect(needsOverkillBy({ status: N, mrExemption: false }, 'overkill', { inEna: true })).toBe(false);
    expect(needsOverkillBy(first.after, 'ena_activated', { inEna: true })).toBe(false);
    // Outside an ENA phase the exemption covers nothing.
    expect(applyEvent(s, 'overkill', { inEna: false }).steps[0]!.after).toMatchObject({ status: F, mrExemption: true });
  });
});

describe('the Resting Phase', () => {
  const ok = { tactical: true, adjacentEnemy: false, moved: false };
  it('recovers one step: fatigued → resting → normal', () => {
    const a = recover({ status: F, mrExemption: false }, ok).steps[0]!;
    expect(a.after.status).toBe(R);
    const b = recover(a.after, ok).steps[0]!;
    expect(b.after.status).toBe(N);
  });

  it.each([
    [{ tactical: false }, 'it is not in Tactical mode'],
    [{ adjacentEnemy: true }, 'it is adjacent to an enemy unit'],
    [{ moved: true }, 'it moved in the Movement Phase'],
  ])('no recovery when one condition fails: %o', (bad, why) => {
    for (const status of [R, F] as const) {
      const f = recover({ status, mrExemption: false }, { ...ok, ...bad }).steps[0]!;
      expect(f.after.status).toBe(status);
      expect(f.failed).toMatchObject([why]);
      expect(f.effect).toContain(why);
    }
  });

  it('names every failed condition', () => {
    expect(recover({ status: F, mrExemption: false }, { tactical: false, adjacentEnemy: true, moved: true }).steps[0]!.failed).toHaveLength(3);
  });

  it('a normal unit has nothing to recover', () => {
    expect(recover({ status: N, mrExemption: false }, ok).steps[0]!.label).toBe('Already normal');
  });
});

describe('effective values, rounded up', () => {
  it.each([
    [1, 1, 1],
    [2, 1, 1],
    [3, 2, 1],
    [5, 3, 2],
    [7, 4, 2],
    [0, 0, 0],
    [8, 4, 2],
    [9, 5, 3],
  ])('%i: halved %i, quartered %i', (v, half, quarter) => {
    expect(effectiveValue(v, 'normal')).toBe(v);
    expect(effectiveValue(v, 'resting')).toBe(half);
    expect(effectiveValue(v, 'fatigued')).toBe(quarter);
  });

  it('7-5-6 quartered is 2-2-2, halved 4-3-3', () => {
    expect(effective({ attack: 7, defense: 5, movement: 6 }, 'fatigued')).toMatchObject({ attack: 2, defense: 2, movement: 2 });
    expect(effective({ attack: 7, defense: 5, movement: 6 }, 'resting')).toMatchObject({ attack: 4, defense: 3, movement: 3 });
  });

  it('restrictions apply when resting or fatigued', () => {
    expect(restrictions('normal')).toMatchObject([]);
    expect(restrictions('resting').map((s) => sayIn('en', s))).toMatchObject([
      'may not give or receive a RIB',
      'may not enter Prepared Assault or Combat Reserve mode',
    ]);
    expect(restrictions('fatigued')).toEqual(restrictions('resting'));
  });
});

// Word for word, with tone and rule (mutation testing found the wording, tones and
// references unchecked). [event, from, label, effect, tone, ref]
const S = 'Wacht am Rhein 13.1.0';
const MR = 'Wacht am Rhein 13.1.3';
const WORDS: [FatigueEvent, FatigueStatus, string, string, string, string][] = [
  ['overkill', N, 'Normal → Fatigued', 'Overkill taken as fatigue: it becomes fatigued.', 'bad', S],
  ['overkill', F, 'Stays fatigued', 'Overkill taken as fatigue: it is already fatigued and stays fatigued (no further effect).', 'bad', S],
  ['ena_activated', R, 'Resting → Fatigued', 'Activated during Extended Night Activity: it becomes fatigued.', 'bad', `${S}, ${MR}`],
  ['ena_defended_full', N, 'Normal → Resting', 'Defended at full strength during ENA: it goes to resting.', 'mixed', S],
  ['ena_defended_full', R, 'Stays resting', 'Defended at full strength during ENA: it is already resting and stays resting.', 'mixed', S],
  ['ena_defended_full', F, 'Stays fatigued', 'Defended at full strength during ENA: a fatigued unit stays fatigued.', 'bad', S],
  ['ena_defended_half', N, 'Stays normal', 'Defended at half strength without retreating: no change.', 'good', S],
  ['defender_retreated', N, 'Normal → Resting', 'Retreated as a defender during ENA: it goes to resting.', 'mixed', S],
  ['ga_attack_while_resting', R, 'Resting → Fatigued', 'Attacked in a Ground Assault (as the attacker) while resting: it becomes fatigued.', 'bad', S],
  ['ga_attack_while_resting', N, 'Stays normal', 'This applies to a resting unit; it is normal: no change.', 'good', S],
  [
    'left_maneuver_reserve',
    F,
    'Stays fatigued',
    'Left Maneuver Reserve: no action it takes in the first possible Extended Night Activity will fatigue it; the exemption ends with that ENA.',
    'bad',
    MR,
  ],
];

describe('Wacht am Rhein fatigue, word for word', () => {
  it.each(WORDS)('%s from %s: %s', (event, from, label, effect, tone, ref) => {
    const out = applyEvent({ status: from, mrExemption: false }, event, { inEna: true });
    expect(out.steps[0]).toMatchObject({ kind: 'fatigue_event', label, effect, tone, ref });
    expect(out).toMatchObject({ system: 'wacht-am-rhein', tone });
  });

  it('the exemption, word for word; outside an ENA, or for an event that is no action of the unit, it does not apply', () => {
    const armed = { status: N, mrExemption: true } as const;
    expect(applyEvent(armed, 'overkill', { inEna: true, overkillBy: 'own_attack' }).steps[0]).toMatchObject({
      label: 'Stays normal',
      effect:
        'No fatigue: this is its first possible Extended Night Activity since leaving Maneuver Reserve (Wacht am Rhein 13.1.3); the exemption lasts until this ENA ends.',
      tone: 'good',
    });
    // Defending is no action the exemption covers: a full-strength defence still rests it.
    expect(applyEvent(armed, 'ena_defended_full', { inEna: true }).steps[0]!.after).toMatchObject({ status: R, mrExemption: true });
    // Without a context an event is outside an ENA.
    expect(applyEvent(armed, 'overkill').steps[0]!.after.status).toBe(F);
    expect(exemptible('overkill')).toBe(true);
    expect(exemptible('ena_defended_full')).toBe(false);
    expect(exemptible('left_maneuver_reserve')).toBe(false);
  });

  it('an Overkill is worded by whose attack it was: its own Ground Assault, or the enemy’s GA or Barrage', () => {
    const by = (overkillBy: 'own_attack' | 'enemy_attack') => applyEvent({ status: N, mrExemption: false }, 'overkill', { inEna: false, overkillBy }).steps[0];
    expect(by('own_attack')).toMatchObject({
      label: 'Normal → Fatigued',
      effect: 'Overkill from its own Ground Assault, taken as fatigue: it becomes fatigued.',
    });
    expect(by('enemy_attack')).toMatchObject({
      label: 'Normal → Fatigued',
      effect: 'Overkill from an enemy Ground Assault or Barrage, taken as fatigue: it becomes fatigued.',
    });
  });

  it('recovery, word for word', () => {
    const ok = { tactical: true, adjacentEnemy: false, moved: false };
    expect(recover({ status: F, mrExemption: false }, ok)).toMatchObject({
      system: 'wacht-am-rhein',
      result: R,
      tone: 'mixed',
      steps: [
        {
          kind: 'recovery',
          result: R,
          label: 'Fatigued → Resting',
          effect: 'The Fatigue marker flips to its Resting side.',
          tone: 'mixed',
          ref: 'Wacht am Rhein 13.1.2',
          before: { status: F, mrExemption: false },
          after: { status: R, mrExemption: false },
          failed: [],
        },
      ],
    });
    expect(recover({ status: R, mrExemption: true }, ok).steps[0]).toMatchObject({
      label: 'Resting → Normal',
      effect: 'The Resting marker is removed.',
      tone: 'good',
      after: { status: N, mrExemption: true },
    });
    expect(recover({ status: R, mrExemption: false }, { tactical: false, adjacentEnemy: true, moved: true }).steps[0]).toMatchObject({
      label: 'No recovery: stays resting',
      effect: 'It cannot recover because it is not in Tactical mode, and it is adjacent to an enemy unit, and it moved in the Movement Phase.',
      tone: 'mixed',
    });
    expect(recover({ status: N, mrExemption: false }, { ...ok, moved: true }).steps[0]).toMatchObject({
      result: N,
      effect: 'It is neither resting nor fatigued: nothing to recover.',
      tone: 'good',
      failed: [],
    });
  });

  it('phase names as players write them', () => {
    // One normalised key per phase.
    for (const p of ['ENA', ' Extended Night Activity', 'extended night activity phase', 'night', 'Night Phase']) expect(isEnaPhase(p)).toBe(true);
    for (const p of ['Enact', 'ena 1', 'Resting', '', null, undefined]) expect(isEnaPhase(p)).toBe(false);
    for (const p of ['Resting', ' resting phase', 'Resting Phase', 'RESTINGPHASE', 'rest', 'Rest Phase']) expect(isRestingPhase(p)).toBe(true);
    for (const [given, key] of [
      ['Resting Phase', 'resting'],
      ['rest', 'resting'],
      ['Movement Phase', 'movement'],
      ['move', 'movement'],
      ['Ground Assault', 'combat'],
      ['GA', 'combat'],
      ['Combat Phase', 'combat'],
      ['Extended Night Activity', 'ena'],
      [' Supply Phase ', 'Supply Phase'],
      ['Rally Phase', 'Rally Phase'],
      // A name Object.prototype holds is still the game's own text (found by the fuzzer: it crashed /game turn).
      ['constructor', 'constructor'],
      ['toString Phase', 'toString Phase'],
      ['__proto__', '__proto__'],
    ])
      expect(phaseKey(given!), given).toBe(key);
    for (const p of ['ENA', 'the resting phase', null]) expect(isRestingPhase(p)).toBe(false);
  });
});
