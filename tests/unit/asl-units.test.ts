import { describe, expect, it } from 'vitest';
import { catalog, type UnitClass } from '../../src/rules/asl/catalog.js';
import { unit } from '../helpers/asl.js';

// The unit data (squads, half-squads and leaders by nationality: A1, A25), row for row, written out by hand: Class, ML, broken-side ML, half-squad and its
// broken ML, the battle-hardening step up and the ELR Replacement step down ('-' none, F Fanatic).
type Row = [name: string, cls: UnitClass, ml: number, brk: number | null, hs: string, hsBrk: number, up: string, down: string];
const F = 'fanatic';
const E = 'elite',
  L1 = 'first_line',
  L2 = 'second_line',
  G = 'green',
  C = 'conscript';
const ROWS: Row[] = [
  // German (A25.1–25.13)
  ['German 8-3-8', E, 8, 8, 'German 3-3-8 half-squad', 7, F, '-'],
  ['German SS 6-5-8', E, 8, 9, 'German SS 3-4-8 half-squad', 8, F, '-'],
  ['German 5-4-8', E, 8, 8, 'German 2-3-8 half-squad', 7, F, 'German 4-4-7'],
  ['German 4-6-8', E, 8, 8, 'German 2-4-8 half-squad', 7, F, 'German 4-6-7'],
  ['German SS 4-6-8', E, 8, 9, 'German SS 2-4-8 half-squad', 8, F, 'German 4-6-7'],
  ['German 4-6-7', L1, 7, 7, 'German 2-4-7 half-squad', 6, 'German 4-6-8', 'German 4-4-7'],
  ['German 4-4-7', L2, 7, 7, 'German 2-3-7 half-squad', 6, 'German 4-6-7', 'German 4-3-6'],
  ['German VG 5-3-7', L2, 7, 7, 'German VG 2-3-7 half-squad', 6, F, 'German 4-3-6'],
  ['German 4-3-6', C, 6, 5, 'German 2-3-6 half-squad', 4, 'German 4-4-7', '-'],
  // Russian (A25.2–25.25)
  ['Russian 6-2-8', E, 8, 8, 'Russian 3-2-8 half-squad', 7, F, 'Russian 5-2-7'],
  ['Russian 4-5-8', E, 8, 8, 'Russian 2-4-8 half-squad', 7, F, 'Russian 4-4-7'],
  ['Russian 5-2-7', L1, 7, 7, 'Russian 2-2-7 half-squad', 6, 'Russian 6-2-8', 'Russian 4-2-6'],
  ['Russian 4-4-7', L1, 7, 7, 'Russian 2-3-7 half-squad', 6, 'Russian 4-5-8', 'Russian 4-2-6'],
  ['Russian NKVD 6-2-8', L2, 8, 9, 'Russian NKVD 3-2-8 half-squad', 8, F, '-'],
  ['Russian 4-2-6', C, 6, 5, 'Russian 2-2-6 half-squad', 4, 'Russian 5-2-7', '-'],
  // American (A25.3; USMC G17)
  ['American 7-4-7', E, 7, 8, 'American 3-3-7 half-squad', 7, F, '-'],
  ['American 6-6-7', E, 7, 8, 'American 3-4-7 half-squad', 7, F, 'American 6-6-6'],
  ['American 6-6-6', L1, 6, 8, 'American 3-4-6 half-squad', 7, 'American 6-6-7', 'American 5-4-6'],
  ['American 5-4-6', L2, 6, 7, 'American 2-3-6 half-squad', 6, 'American 6-6-6', 'American 5-3-6'],
  ['American 5-3-6', G, 6, 7, 'American 2-2-6 half-squad', 6, 'American 5-4-6', '-'],
  ['American USMC 7-6-8', E, 8, 8, 'American USMC 3-4-8 half-squad', 7, F, '-'],
  // British and Commonwealth (A25.4)
  ['British 6-4-8', E, 8, 8, 'British 3-3-8 half-squad', 7, F, '-'],
  ['British 4-5-8', E, 8, 8, 'British 2-4-8 half-squad', 7, F, 'British 4-5-7'],
  ['British 4-5-7', L1, 7, 7, 'British 2-4-7 half-squad', 6, 'British 4-5-8', 'British 4-4-7'],
  ['British 4-4-7', L2, 7, 7, 'British 2-3-7 half-squad', 6, 'British 4-5-7', 'British 4-3-6'],
  ['British 4-3-6', G, 6, 6, 'British 2-2-6 half-squad', 5, 'British 4-4-7', '-'],
  // French 1940 (A25.5)
  ['French 4-5-8', E, 8, 7, 'French 2-4-8 half-squad', 6, F, 'French 4-5-7'],
  ['French 4-5-7', L1, 7, 6, 'French 2-3-7 half-squad', 5, 'French 4-5-8', 'French 4-3-7'],
  ['French 4-3-7', G, 7, 6, 'French 2-2-7 half-squad', 5, 'French 4-5-7', '-'],
  // Italian (A25.6)
  ['Italian 4-4-7', E, 7, 7, 'Italian 2-4-7 half-squad', 6, F, 'Italian 3-4-6'],
  ['Italian 3-4-7', L1, 7, 6, 'Italian 1-3-7 half-squad', 5, 'Italian 4-4-7', 'Italian 3-3-6'],
  ['Italian 3-4-6', L1, 6, 5, 'Italian 1-3-6 half-squad', 4, 'Italian 4-4-7', 'Italian 3-3-6'],
  ['Italian 3-3-6', C, 6, 5, 'Italian 1-2-6 half-squad', 4, 'Italian 3-4-6', '-'],
  // Japanese (G1): no broken side
  ['Japanese 4-4-8', E, 8, null, 'Japanese 2-3-8 half-squad', 8, F, 'Japanese 4-4-7'],
  ['Japanese 4-4-7', L1, 7, null, 'Japanese 2-3-7 half-squad', 7, 'Japanese 4-4-8', 'Japanese 3-4-7'],
  ['Japanese 3-4-7', L2, 7, null, 'Japanese 1-3-7 half-squad', 6, 'Japanese 4-4-7', 'Japanese 3-3-6'],
  ['Japanese 3-3-6', C, 6, null, 'Japanese 1-2-6 half-squad', 5, 'Japanese 3-4-7', '-'],
  // Finnish (A25.7)
  ['Finnish 8-3-8', E, 8, 8, 'Finnish 3-3-8 half-squad', 7, F, '-'],
  ['Finnish 6-4-8', L1, 8, 8, 'Finnish 2-4-8 half-squad', 7, F, 'Finnish 5-3-8'],
  ['Finnish 5-4-8', L1, 8, 8, 'Finnish 2-3-8 half-squad (1st Line)', 7, F, 'Finnish 4-4-7'],
  ['Finnish 5-3-8', G, 8, 8, 'Finnish 2-3-8 half-squad (Green)', 7, 'Finnish 6-4-8', '-'],
  ['Finnish 4-4-7', L2, 7, 7, 'Finnish 2-3-7 half-squad', 6, 'Finnish 5-4-8', 'Finnish 4-3-7'],
  ['Finnish 4-3-7', C, 7, 6, 'Finnish 2-2-7 half-squad', 5, 'Finnish 4-4-7', '-'],
  // Axis Minor (A25.8)
  ['Axis Minor 4-4-7', E, 7, 7, 'Axis Minor 2-4-7 half-squad', 6, F, 'Axis Minor 3-4-7'],
  ['Axis Minor 3-4-7', L1, 7, 6, 'Axis Minor 1-3-7 half-squad', 5, 'Axis Minor 4-4-7', 'Axis Minor 3-3-6'],
  ['Axis Minor smg 5-3-7', L1, 7, 6, 'Axis Minor 2-2-7 half-squad', 5, F, 'Axis Minor 3-3-6'],
  ['Axis Minor 3-3-6', C, 6, 5, 'Axis Minor 1-2-6 half-squad', 4, 'Axis Minor 3-4-7', '-'],
  // Partisans (A25.24)
  ['Partisan 3-3-7', L2, 7, 6, 'Partisan 1-2-7 half-squad', 5, F, '-'],
  ['Partisan 5-2-7', L2, 7, 7, 'Partisan 2-2-7 half-squad', 6, F, '-'],
];

const stepName = (s: { name: string } | 'fanatic' | undefined) => (s === undefined ? '-' : s === 'fanatic' ? F : s.name);

describe('ASL unit data (units.json) matches the table written out here row for row', () => {
  it.each(ROWS)('%s: %s, ML %i, broken %s, HS %s (broken %i), up %s, down %s', (name, cls, ml, brk, hs, hsBrk, up, down) => {
    const squad = unit(name);
    expect(squad).toMatchObject({ kind: 'squad', class: cls, ml, brokenMl: brk ?? undefined });
    const k = squad.known!;
    expect(k.half!.name).toBe(hs);
    expect(k.half!).toMatchObject({ class: cls, brokenMl: hsBrk, size: 'half_squad' });
    expect(stepName(k.up)).toBe(up);
    expect(stepName(k.down)).toBe(down);
    // The half-squad hardens and is Replaced to the half-squads of its squad's steps.
    if (up !== '-' && up !== F) expect(stepName(k.half!.up)).toBe(unit(up).known!.half!.name);
    if (down !== '-') expect(stepName(k.half!.down)).toBe(unit(down).known!.half!.name);
  });

  it('holds every squad of the data, and nothing else', () => {
    const squads = catalog()
      .units.filter((u) => u.size === 'squad' && !u.reduced)
      .map((u) => u.name)
      .sort();
    expect(squads).toEqual(ROWS.map((r) => unit(r[0]).known!.name).sort());
  });

  it.each([
    // Japanese reduced sides (G1.1): full → reduced; no broken side; the same half-squad.
    ['Japanese 4-4-8', 'Japanese 3-4-8 reduced squad', 8],
    ['Japanese 4-4-7', 'Japanese 3-4-7 reduced squad', 7],
    ['Japanese 3-4-7', 'Japanese 2-3-7 reduced squad', 7],
    ['Japanese 3-3-6', 'Japanese 2-2-6 reduced squad', 6],
  ])('%s flips to %s (ML %i, no broken side)', (full, reduced, ml) => {
    const f = unit(full).known!;
    expect(f.flip!.name).toBe(reduced);
    expect(unit(reduced)).toMatchObject({ ml, brokenMl: undefined });
    expect(unit(reduced).known!.half).toBe(f.half);
  });

  it.each([
    ['German 8-3-8', true, 5],
    ['German SS 6-5-8', true, 5],
    ['Russian NKVD 6-2-8', true, 5],
    ['American 7-4-7', true, 5],
    ['British 6-4-8', true, 5],
    ['Finnish 8-3-8', true, 5],
    ['Partisan 3-3-7', false, 5],
    ['Partisan 5-2-7', false, 5],
    ['German 4-6-7', false, undefined],
    ['American 6-6-6', false, undefined],
  ] as const)('%s: underscored %s, ELR %s', (name, underscored, elr) => {
    expect(unit(name).known).toMatchObject({ underscored, elr });
  });

  it.each([
    ['standard', 'German', ['6+1', '7-0', '8-0', '8-1', '9-1', '9-2', '10-2', '10-3']],
    ['Japanese', 'Japanese', ['8+1', '8-0', '9-0', '9-1', '10-0', '10-1', '10-2']],
    ['Finnish', 'Finnish', ['8+1', '8-0', '9-0', '9-1', '10-0', '10-1']],
  ] as const)('%s leaders: broken ML = ML, one rank down for ELR', (_n, nat, ranks) => {
    ranks.forEach((r, i) => {
      const l = unit(`${nat} ${r}`);
      expect(l.ml).toBe(Number(r.split(/[+-]/)[0]));
      // Japanese leaders have no broken side (G1.4).
      expect(l.brokenMl).toBe(nat === 'Japanese' ? undefined : l.ml);
      expect(stepName(l.known!.down)).toBe(i ? `${nat} ${ranks[i - 1]} leader` : '-');
    });
  });

  it.each([
    // Units outside the data (nationality + class): the broken side from the general rules.
    ['American 5-5-6', 'green', 7],
    ['American 5-5-6', 'first_line', 8],
    ['American 5-5-7', 'elite', 8],
    ['Axis Minor 4-3-7', 'first_line', 6],
    ['Axis Minor 5-5-8', 'elite', 8],
    ['Italian 4-3-6', 'second_line', 5],
    ['Allied Minor 4-4-7', 'second_line', 6],
    ['Allied Minor 4-5-8', 'elite', 7],
    ['French 4-4-7', 'second_line', 6],
    ['German 4-5-7', 'first_line', 7],
    ['Russian 5-5-8', 'elite', 8],
  ] as const)('derived: %s (%s) breaks to ML %i', (name, cls, brk) => {
    expect(unit(name, { class: cls }).brokenMl).toBe(brk);
  });
});
