import { describe, expect, it } from 'vitest';
import {
  applyEvent,
  effective,
  effectiveValue,
  EVENT_CODES,
  recover,
  restrictions,
  STATUSES,
  type FatigueEvent,
  type FatigueStatus,
} from '../../src/rules/wacht-am-rhein/fatigue.js';

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
    const out = applyEvent({ status: from, mrExemption: armed }, event, { inEna: true });
    const f = out.steps[0]!;
    expect(f.after).toEqual({ status: to, mrExemption: armedAfter });
    expect(out.result).toBe(to);
    expect(f.before).toEqual({ status: from, mrExemption: armed });
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
    expect(first.after).toEqual({ status: N, mrExemption: true });
    expect(first.effect).toContain('lasts until this ENA ends');
    // A second action in the same ENA is covered too.
    expect(applyEvent(first.after, 'overkill', { inEna: true }).steps[0]!.after).toEqual({ status: N, mrExemption: true });
    // Outside an ENA phase the exemption covers nothing.
    expect(applyEvent(s, 'overkill', { inEna: false }).steps[0]!.after).toEqual({ status: F, mrExemption: true });
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
      expect(f.failed).toEqual([why]);
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
    expect(effective({ attack: 7, defense: 5, movement: 6 }, 'fatigued')).toEqual({ attack: 2, defense: 2, movement: 2 });
    expect(effective({ attack: 7, defense: 5, movement: 6 }, 'resting')).toEqual({ attack: 4, defense: 3, movement: 3 });
  });

  it('restrictions apply when resting or fatigued', () => {
    expect(restrictions('normal')).toEqual([]);
    expect(restrictions('resting')).toEqual(['may not give or receive a RIB', 'may not enter Prepared Assault or Combat Reserve mode']);
    expect(restrictions('fatigued')).toEqual(restrictions('resting'));
  });
});
