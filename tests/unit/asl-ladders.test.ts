import { describe, expect, it } from 'vitest';
import { catalog } from '../../src/rules/asl/catalog.js';
import { hardeningOf } from '../../src/rules/asl/hob.js';
import { unit } from '../helpers/asl.js';

// The unit data, written out: every MMC of the data and what battle hardening makes of it (A15.3).
const F = 'fanatic';
const LADDERS: [string, string][] = [
  // German (A25.1–25.13)
  ['German 4-3-6', 'German 4-4-7'],
  ['German 4-4-7', 'German 4-6-7'],
  ['German 4-6-7', 'German 4-6-8'],
  ['German 4-6-8', F],
  ['German 2-3-6 half-squad', 'German 2-3-7 half-squad'],
  ['German 2-3-7 half-squad', 'German 2-4-7 half-squad'],
  ['German 2-4-7 half-squad', 'German 2-4-8 half-squad'],
  ['German 2-4-8 half-squad', F],
  ['German 8-3-8', F],
  ['German 3-3-8 half-squad', F],
  ['German SS 6-5-8', F],
  ['German SS 3-4-8 half-squad', F],
  ['German 5-4-8', F],
  ['German 2-3-8 half-squad', F],
  ['German VG 5-3-7', F],
  ['German VG 2-3-7 half-squad', F],
  ['German SS 4-6-8', F],
  ['German SS 2-4-8 half-squad', F],
  // Russian (A25.2–25.25)
  ['Russian 4-2-6', 'Russian 5-2-7'],
  ['Russian 5-2-7', 'Russian 6-2-8'],
  ['Russian 6-2-8', F],
  ['Russian 2-2-6 half-squad', 'Russian 2-2-7 half-squad'],
  ['Russian 2-2-7 half-squad', 'Russian 3-2-8 half-squad'],
  ['Russian 3-2-8 half-squad', F],
  ['Russian 4-4-7', 'Russian 4-5-8'],
  ['Russian 4-5-8', F],
  ['Russian 2-3-7 half-squad', 'Russian 2-4-8 half-squad'],
  ['Russian 2-4-8 half-squad', F],
  ['Russian NKVD 6-2-8', F],
  ['Russian NKVD 3-2-8 half-squad', F],
  // American (A25.3)
  ['American 5-3-6', 'American 5-4-6'],
  ['American 5-4-6', 'American 6-6-6'],
  ['American 6-6-6', 'American 6-6-7'],
  ['American 6-6-7', F],
  ['American 2-2-6 half-squad', 'American 2-3-6 half-squad'],
  ['American 2-3-6 half-squad', 'American 3-4-6 half-squad'],
  ['American 3-4-6 half-squad', 'American 3-4-7 half-squad'],
  ['American 3-4-7 half-squad', F],
  ['American 7-4-7', F],
  ['American 3-3-7 half-squad', F],
  ['American USMC 7-6-8', F],
  ['American USMC 3-4-8 half-squad', F],
  // British (A25.4)
  ['British 4-3-6', 'British 4-4-7'],
  ['British 4-4-7', 'British 4-5-7'],
  ['British 4-5-7', 'British 4-5-8'],
  ['British 4-5-8', F],
  ['British 2-2-6 half-squad', 'British 2-3-7 half-squad'],
  ['British 2-3-7 half-squad', 'British 2-4-7 half-squad'],
  ['British 2-4-7 half-squad', 'British 2-4-8 half-squad'],
  ['British 2-4-8 half-squad', F],
  ['British 6-4-8', F],
  ['British 3-3-8 half-squad', F],
  // French (A25.5)
  ['French 4-3-7', 'French 4-5-7'],
  ['French 4-5-7', 'French 4-5-8'],
  ['French 4-5-8', F],
  ['French 2-2-7 half-squad', 'French 2-3-7 half-squad'],
  ['French 2-3-7 half-squad', 'French 2-4-8 half-squad'],
  ['French 2-4-8 half-squad', F],
  // Italian (A25.6)
  ['Italian 3-3-6', 'Italian 3-4-6'],
  ['Italian 3-4-6', 'Italian 4-4-7'],
  ['Italian 4-4-7', F],
  ['Italian 3-4-7', 'Italian 4-4-7'],
  ['Italian 1-2-6 half-squad', 'Italian 1-3-6 half-squad'],
  ['Italian 1-3-6 half-squad', 'Italian 2-4-7 half-squad'],
  ['Italian 2-4-7 half-squad', F],
  ['Italian 1-3-7 half-squad', 'Italian 2-4-7 half-squad'],
  // Japanese (G1): full and reduced sides harden alike
  ['Japanese 3-3-6', 'Japanese 3-4-7'],
  ['Japanese 3-4-7', 'Japanese 4-4-7'],
  ['Japanese 4-4-7', 'Japanese 4-4-8'],
  ['Japanese 4-4-8', F],
  ['Japanese 2-2-6 reduced squad', 'Japanese 2-3-7 reduced squad'],
  ['Japanese 2-3-7 reduced squad', 'Japanese 3-4-7 reduced squad'],
  ['Japanese 3-4-7 reduced squad', 'Japanese 3-4-8 reduced squad'],
  ['Japanese 3-4-8 reduced squad', F],
  ['Japanese 1-2-6 half-squad', 'Japanese 1-3-7 half-squad'],
  ['Japanese 1-3-7 half-squad', 'Japanese 2-3-7 half-squad'],
  ['Japanese 2-3-7 half-squad', 'Japanese 2-3-8 half-squad'],
  ['Japanese 2-3-8 half-squad', F],
  // Finnish (A25.7): any 1st Line MMC hardens to Fanatic
  ['Finnish 4-3-7', 'Finnish 4-4-7'],
  ['Finnish 4-4-7', 'Finnish 5-4-8'],
  ['Finnish 5-4-8', F],
  ['Finnish 2-2-7 half-squad', 'Finnish 2-3-7 half-squad'],
  ['Finnish 2-3-7 half-squad', 'Finnish 2-3-8 half-squad (1st Line)'],
  ['Finnish 2-3-8 half-squad (1st Line)', F],
  ['Finnish 5-3-8', 'Finnish 6-4-8'],
  ['Finnish 6-4-8', F],
  ['Finnish 2-3-8 half-squad (Green)', 'Finnish 2-4-8 half-squad'],
  ['Finnish 2-4-8 half-squad', F],
  ['Finnish 8-3-8', F],
  ['Finnish 3-3-8 half-squad', F],
  // Axis Minor (A25.8)
  ['Axis Minor 3-3-6', 'Axis Minor 3-4-7'],
  ['Axis Minor 3-4-7', 'Axis Minor 4-4-7'],
  ['Axis Minor 4-4-7', F],
  ['Axis Minor 1-2-6 half-squad', 'Axis Minor 1-3-7 half-squad'],
  ['Axis Minor 1-3-7 half-squad', 'Axis Minor 2-4-7 half-squad'],
  ['Axis Minor 2-4-7 half-squad', F],
  ['Axis Minor smg 5-3-7', F],
  ['Axis Minor smg 2-2-7 half-squad', F],
  // Partisans (A25.24)
  ['Partisan 3-3-7', F],
  ['Partisan 1-2-7 half-squad', F],
  ['Partisan 5-2-7', F],
  ['Partisan 2-2-7 half-squad', F],
];

const LEADERS: [string, string[]][] = [
  ['german', ['6+1', '7-0', '8-0', '8-1', '9-1', '9-2', '10-2', '10-3']],
  ['russian', ['6+1', '7-0', '8-0', '8-1', '9-1', '9-2', '10-2', '10-3']],
  ['japanese', ['8+1', '8-0', '9-0', '9-1', '10-0', '10-1', '10-2']],
  ['finnish', ['8+1', '8-0', '9-0', '9-1', '10-0', '10-1']],
];

describe('battle-hardening ladders (A15.3)', () => {
  it.each(LADDERS)('%s → %s', (from, to) => {
    const h = hardeningOf(unit(from), false);
    if (to === F) expect(h).toEqual({ kind: 'fanatic' });
    else expect(h).toEqual({ kind: 'swap', to });
  });

  it('the table covers every MMC in the data', () => {
    const cat = catalog();
    const listed = new Set(LADDERS.map(([from]) => unit(from).known!.name));
    const mmc = cat.units.filter((u) => u.size !== 'leader').map((u) => u.name);
    expect(new Set(mmc)).toEqual(listed);
    expect(LADDERS.length).toBe(cat.units.filter((u) => u.size !== 'leader').length);
  });

  it.each(LEADERS)('%s leaders harden one grade at a time, the best to Fanatic', (nat, ladder) => {
    ladder.forEach((grade, i) => {
      const h = hardeningOf(unit(`${nat} ${grade}`), false);
      // The name is written here, not taken from the parser under test.
      const natName = `${nat[0]!.toUpperCase()}${nat.slice(1)}`;
      if (i + 1 < ladder.length) expect(h).toEqual({ kind: 'swap', to: `${natName} ${ladder[i + 1]} leader` });
      else expect(h).toEqual({ kind: 'fanatic' });
    });
  });

  it('Japanese and Finnish 9-1 become 10-0', () => {
    expect(hardeningOf(unit('Japanese 9-1'), false)).toEqual({ kind: 'swap', to: 'Japanese 10-0 leader' });
    expect(hardeningOf(unit('Finnish 9-1'), false)).toEqual({ kind: 'swap', to: 'Finnish 10-0 leader' });
    expect(hardeningOf(unit('German 9-1'), false)).toEqual({ kind: 'swap', to: 'German 9-2 leader' });
  });

  it('no strength number drops along any ladder', () => {
    for (const u of catalog().units) {
      if (u.size === 'leader' || !u.up || u.up === 'fanatic') continue;
      const a = u.counter.split('-').map(Number);
      const b = u.up.counter.split('-').map(Number);
      for (const [i, n] of a.entries()) expect(b[i]!, `${u.counter} → ${u.up.counter}`).toBeGreaterThanOrEqual(n);
    }
  });

  it('leadership is read from the counter', () => {
    expect(unit('British 8-1')).toMatchObject({ kind: 'leader', ml: 8, leadership: -1 });
    expect(unit('German 6+1')).toMatchObject({ ml: 6, leadership: 1 });
    expect(unit('Russian 10-3')).toMatchObject({ ml: 10, leadership: -3 });
  });
});
