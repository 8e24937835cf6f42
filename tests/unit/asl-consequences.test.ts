import { describe, expect, it } from 'vitest';
import { fixedRoller } from '../../src/dice/roller.js';
import { hardeningOf, heatOfBattle, hobModifiers, hobStep, type HobStep } from '../../src/rules/asl/hob.js';
import { checkDistribution, moraleCheck, type CheckInput, type CheckStep, type WoundStep } from '../../src/rules/asl/mc.js';
import { parseUnit } from '../../src/rules/asl/parse-unit.js';
import { format } from '../../src/rules/odds.js';
import { checkBase, dr, hobBase, unit } from '../helpers/asl.js';
import { isSaid, type Said } from '../../src/i18n/said.js';
import { sayIn } from '../../src/i18n/speak.js';

/** What a player reads in English: a refusal's sentence, or the unit as read. */
const english = <T extends object>(v: T | Said) => (isSaid(v) ? sayIn('en', v) : v);

// The consequences of ASL checks, item by item, with pinned dice. Rule numbers are the ASLRB's.
const mc = (name: string, over: Partial<CheckInput> = {}, hob: Partial<CheckInput['hob']> = {}) => {
  const base = checkBase(unit(name), over);
  return { ...base, hob: { ...base.hob, ...hob } };
};
const first = (input: CheckInput, dice: number[]) => moraleCheck(input, fixedRoller(dice)).steps[0] as CheckStep;

describe('1. broken-side Morale Levels (A10.6; the unit data in src/rules/asl/units.json)', () => {
  it.each([
    // unit, broken ML: a rally succeeds on Final = broken ML and fails on one more
    ['American 6-6-6', 8],
    ['American 5-4-6', 7],
    ['American 3-4-6 half-squad', 7],
    ['German 4-3-6', 5],
    ['German 2-3-6 half-squad', 4],
    ['Axis Minor 3-4-7', 6],
    ['Italian 3-4-6', 5],
    ['Partisan 3-3-7', 6],
    ['Russian NKVD 6-2-8', 9],
    ['German SS 6-5-8', 9],
    ['French 4-5-8', 7],
  ] as const)('%s rallies against ML %i', (name, brk) => {
    expect(first(mc(name, { check: 'rally', broken: true }), dr(brk))).toMatchObject({ ml: brk, result: 'rallied' });
    expect(first(mc(name, { check: 'rally', broken: true }), dr(brk + 1))).toMatchObject({ ml: brk, result: 'not_rallied' });
  });

  it('a broken unit takes an MC on its broken side; an unbroken one on its good-order side (American 6-6-6: 8 vs 6)', () => {
    // Original 7: an unbroken 6-6-6 breaks (7 > 6); a broken one passes (7 ≤ 8).
    expect(first(mc('American 6-6-6'), dr(7))).toMatchObject({ ml: 6, result: 'broken' });
    expect(first(mc('American 6-6-6', { broken: true }), dr(7))).toMatchObject({ ml: 8, result: 'passed' });
    // German Conscript the other way: 6 unbroken, 5 broken.
    expect(first(mc('German 4-3-6'), dr(6))).toMatchObject({ ml: 6, result: 'pinned' });
    expect(first(mc('German 4-3-6', { broken: true }), dr(6))).toMatchObject({ ml: 5, result: 'casualty_reduction' });
  });

  it('/odds: the rally chances of a broken American 6-6-6 with no modifiers are those of ML 8', () => {
    const d = checkDistribution(mc('American 6-6-6', { check: 'rally', broken: true }));
    // Original 2–8 rally (26/36); 9–11 do not (9/36); 12 is Fate (1/36).
    expect(format(d.get('rallied')!)).toBe('13/18');
    expect(format(d.get('not_rallied')!)).toBe('1/4');
    expect(format(d.get('fate')!)).toBe('1/36');
  });
});

describe('2. Class and the Heat of Battle DRM (A15.1, A25.24, A25.25, A25.84)', () => {
  const mods = (name: string, over = {}, opts = {}) => hobModifiers(hobBase(unit(name, opts), over)).map((m) => [m.reason, m.value]);
  it('NKVD are 2nd Line: Russian +2, NKVD −1, no elite −1 (A25.25)', () => {
    expect(mods('NKVD 6-2-8')).toEqual([
      ['Russian', 2],
      ['NKVD', -1],
    ]);
    expect(unit('NKVD 6-2-8').class).toBe('second_line');
  });

  it('the Axis Minor SMG 5-3-7 is 1st Line, so a Final of 10 is Surrender (A25.84, A15.1)', () => {
    const s = hobStep(hobBase(unit('Axis Minor smg 5-3-7'), { enemyAdjacent: true }), fixedRoller(dr(7))) as HobStep;
    expect(s).toMatchObject({ final: 10, band: 'berserk', result: 'surrender', overrides: ['minor_surrender'] });
    // An elite Axis Minor 4-4-7 at the same Final stays berserk: 7 + 3 − 1 = 9.
    expect(hobStep(hobBase(unit('Axis Minor 4-4-7')), fixedRoller(dr(7)))).toMatchObject({ final: 9, result: 'berserk', overrides: [] });
  });

  it('a Partisan leader gets no elite −1; other leaders do (A25.24)', () => {
    expect(mods('Partisan 9-1')).toEqual([['Partisan', 1]]);
    expect(mods('German 9-1')).toEqual([['leader (counts as elite)', -1]]);
  });

  it('Partisans are never Inexperienced, whatever class they are given (A25.24)', () => {
    expect(mods('Partisan 4-4-7', {}, { class: 'conscript' })).toEqual([['Partisan', 1]]);
    expect(mods('Partisan 4-4-7', {}, { class: 'green' })).toEqual([['Partisan', 1]]);
    expect(mods('Allied Minor 4-4-7', {}, { class: 'conscript' })).toEqual([
      ['Allied Minor', 2],
      ['inexperienced (Conscript)', 1],
    ]);
  });
});

describe('3. ELR failure (A19.1–A19.13)', () => {
  // 4MC: an Original 8 is a Final of 12, failing ML 7 by 5 and ML 8 by 4 — over an ELR of 3.
  const over = (name: string, extra: Partial<CheckInput> = {}, hob: Partial<CheckInput['hob']> = {}) =>
    first(mc(name, { number: 4, elr: 3, ...extra }, hob), dr(8));

  it('a leader is Replaced by a broken leader one rank lower: 9-1 → broken 8-1 (A19.13)', () => {
    expect(over('German 9-1', { elr: 2 })).toMatchObject({
      result: 'replaced',
      unit_after: 'German 8-1 leader',
      becomes: { counter: 'German 8-1 leader', broken: true },
    });
  });

  it('a 6+1 (Finnish 8+1) cannot be Replaced: broken and Disrupted (A19.12)', () => {
    expect(over('German 6+1')).toMatchObject({ result: 'disrupted', becomes: { broken: true, disrupted: true } });
    expect(first(mc('Finnish 8+1', { number: 4, elr: 0 }), dr(6))).toMatchObject({ final: 10, result: 'disrupted' });
  });

  it.each([
    ['Russian 4-4-7', 'Russian 4-2-6'],
    ['German 5-4-8', 'German 4-4-7'],
    ['Italian 3-4-7', 'Italian 3-3-6'],
    ['Axis Minor smg 5-3-7', 'Axis Minor 3-3-6'],
    ['German 4-6-7', 'German 4-4-7'],
    ['American 6-6-6', 'American 5-4-6'],
    ['German 2-4-7 half-squad', 'German 2-3-7 half-squad'],
  ])('%s is Replaced by a broken %s, not Disrupted (A19.13)', (name, to) => {
    expect(over(name)).toMatchObject({ result: 'replaced', unit_after: to, becomes: { counter: to, broken: true } });
  });

  it('the lowest Class has no Replacement: broken and Disrupted (A19.12)', () => {
    expect(over('German 4-3-6')).toMatchObject({ result: 'disrupted' });
  });

  it('an underscored-ML squad becomes two broken HS of its own type; such a HS is Disrupted (A19.13)', () => {
    // British 6-4-8 (ELR 5 from its counter): a 4MC and Original 11 is 15, failing ML 8 by 7 > 5.
    const s = first(mc('British 6-4-8', { number: 4 }), dr(11));
    expect(s).toMatchObject({
      result: 'replaced',
      unit_after: 'British 3-3-8 half-squad',
      becomes: { counter: 'British 3-3-8 half-squad', broken: true, two: true },
    });
    expect(s.effect).toContain('two broken British 3-3-8 half-squads');
    expect(first(mc('British 3-3-8 half-squad', { number: 4 }), dr(11))).toMatchObject({ result: 'disrupted' });
    // The underscore gives ELR 5: failing by 5 is not more than it (a 4MC, Original 9 → 13 vs 8).
    expect(first(mc('British 6-4-8', { number: 4 }), dr(9))).toMatchObject({ result: 'broken' });
  });

  it.each([
    ['Partisan 3-3-7', {}, {}, 'Partisans'],
    ['Japanese 1-2-6 half-squad', {}, {}, 'Japanese'],
    ['German 4-3-6', {}, { fanatic: true }, 'Fanatic units'],
    ['German SS 3-4-8 half-squad', { elr: 3 }, { vsRussians: true }, 'SS opposed by Russians'],
    ['Gurkha 4-3-6', {}, {}, 'Gurkhas'],
    ['American USMC 7-6-8', {}, {}, 'US Marines'],
  ] as const)('%s is never Disrupted, only broken (A19.12: %s)', (name, extra, hob, why) => {
    const s = first(mc(name, { number: 4, elr: 0, ...extra }, hob), dr(10));
    expect(s).toMatchObject({ result: 'broken', becomes: { broken: true } });
    expect(s.effect).toContain(`${why} are never Disrupted`);
  });

  it('the same SS half-squad is Disrupted when not opposed by Russians', () => {
    expect(first(mc('German SS 3-4-8 half-squad', { number: 4, elr: 0 }), dr(10))).toMatchObject({ result: 'disrupted' });
  });

  it.each([
    ['German crew 2-2-8', 'crews are never Replaced'],
    ['Russian Commissar 9-0', 'Commissars are never Replaced'],
    ['German unarmed 2-2-7', 'unarmed units are never Replaced'],
  ])('%s fails by more than its ELR and only breaks (A19.11)', (name, why) => {
    const s = first(mc(name, { number: 4, elr: 0 }), dr(10));
    expect(s).toMatchObject({ result: 'broken' });
    expect(s.effect).toContain(why);
  });

  it('an Original 12 that also exceeds the ELR gives a broken HS of the next lower Class (A19.13 EXC, A10.31)', () => {
    const s = first(mc('German 4-6-7', { elr: 0 }), [6, 6]);
    expect(s).toMatchObject({
      final: 12,
      result: 'casualty_reduction',
      unit_after: 'German 2-3-7 half-squad',
      becomes: { counter: 'German 2-3-7 half-squad', broken: true },
    });
    // Within the ELR, the Casualty MC reduces it to its own HS, broken.
    expect(first(mc('German 4-6-7', { elr: 5 }), [6, 6])).toMatchObject({ unit_after: 'German 2-4-7 half-squad', becomes: { broken: true } });
  });
});

describe('4. units that do not break like others', () => {
  describe('berserk (A15.42)', () => {
    const berserk = (name: string, over: Partial<CheckInput> = {}) => mc(name, over, { status: 'berserk' });
    it('checks against ML 10 with no leadership DRM, and is never pinned', () => {
      const s = first(berserk('German 4-4-7', { number: 2, leaderDrm: -2 }), dr(8));
      expect(s).toMatchObject({ ml: 10, final: 10, result: 'passed', modifiers: [{ reason: '2MC', value: 2 }] });
      expect(s.effect).toContain('berserk: no leadership DRM');
    });
    it('failing is Casualty Reduction, never broken: the squad becomes an unbroken HS', () => {
      expect(first(berserk('German 4-4-7', { number: 2 }), dr(9))).toMatchObject({
        final: 11,
        result: 'casualty_reduction',
        becomes: { counter: 'German 2-3-7 half-squad', broken: false },
      });
    });
    it('an Original 12 eliminates a berserk MMC; a berserk leader is wounded with +1 on the Wound Severity dr', () => {
      expect(first(berserk('German 4-4-7'), [6, 6])).toMatchObject({ result: 'eliminated' });
      const out = moraleCheck(berserk('German 8-1'), fixedRoller([6, 6, 3]));
      expect(out.steps[1]).toMatchObject({
        kind: 'wound',
        dice: [3],
        modifiers: [{ reason: 'Original 12 on the MC, as if already wounded (A10.31)', value: 1 }],
        final: 4,
        result: 'wounded',
      });
    });
  });

  describe('heroes (A15.2, A17)', () => {
    it('never pinned: a Final equal to the ML passes', () => {
      expect(first(mc('German hero 1-4-9'), dr(9))).toMatchObject({ result: 'passed' });
    });
    it('a failed MC wounds: Wound Severity 1–4 wounded, 5+ killed (A17.11)', () => {
      const w = moraleCheck(mc('German hero 1-4-9', { number: 1 }), fixedRoller([5, 4, 4]));
      expect(w.steps.map((s) => s.result)).toEqual(['wounded', 'wounded']);
      expect(w.result).toBe('wounded');
      const k = moraleCheck(mc('German hero 1-4-9', { number: 1 }), fixedRoller([5, 4, 5]));
      expect(k.steps[1]).toMatchObject({ result: 'killed', becomes: { eliminated: true } });
      expect(k.result).toBe('eliminated');
    });
    it('a wounded hero that fails an MC is eliminated', () => {
      expect(moraleCheck(mc('German hero 1-3-8', { wounded: true }), fixedRoller(dr(9))).result).toBe('eliminated');
    });
    it('a heroic leader is never broken or Replaced: he is wounded', () => {
      expect(first(mc('German 8-1', { number: 4, elr: 0 }, { heroic: true }), [5, 5, 1])).toMatchObject({ result: 'wounded' });
    });
  });

  describe('Japanese squads (G1.1–G1.14)', () => {
    it('an IFT MC failure Step-Reduces: 4-4-8 → 3-4-8, reduced 3-4-8 → unbroken 2-3-8 HS (G1.121, G1.122)', () => {
      expect(first(mc('Japanese 4-4-8'), dr(9))).toMatchObject({
        result: 'step_reduced',
        unit_after: 'Japanese 3-4-8 reduced squad',
        becomes: { counter: 'Japanese 3-4-8 reduced squad' },
      });
      expect(first(mc('Japanese 3-4-8 reduced'), dr(9))).toMatchObject({ result: 'step_reduced', unit_after: 'Japanese 2-3-8 half-squad' });
    });
    it('past the ELR: the next lower Class, then Step-Reduced (G1.123, G1.124 examples)', () => {
      expect(first(mc('Japanese 4-4-8', { number: 4, elr: 3 }), dr(8))).toMatchObject({
        result: 'replaced',
        unit_after: 'Japanese 3-4-7 reduced squad',
        becomes: { broken: false },
      });
      expect(first(mc('Japanese 3-4-8 reduced', { number: 4, elr: 3 }), dr(8))).toMatchObject({ result: 'replaced', unit_after: 'Japanese 2-3-7 half-squad' });
    });
    it('a Conscript past its ELR: G1.125, said plainly and left to the players', () => {
      const s = first(mc('Japanese 3-3-6', { number: 4, elr: 3 }), dr(8));
      expect(s).toMatchObject({ result: 'elr_unresolved' });
      expect(s.effect).toContain('could not check its text');
    });
    it('other MCs (ift:false): two broken HS, or one from a reduced squad (G1.13)', () => {
      expect(first(mc('Japanese 4-4-7', { ift: false }), dr(8))).toMatchObject({
        result: 'broken',
        unit_after: 'Japanese 2-3-7 half-squad',
        becomes: { broken: true, two: true },
      });
      expect(first(mc('Japanese 3-4-7 reduced', { ift: false }), dr(8))).toMatchObject({
        result: 'broken',
        becomes: { counter: 'Japanese 2-3-7 half-squad', broken: true },
      });
    });
    it('a Japanese leader is never pinned or broken: a failed MC wounds him; a Casualty MC kills him (G1.4)', () => {
      expect(first(mc('Japanese 9-1'), dr(9))).toMatchObject({ result: 'passed' });
      expect(first(mc('Japanese 9-1', { number: 1 }), [5, 4, 2])).toMatchObject({ result: 'wounded' });
      expect(first(mc('Japanese 9-1'), [6, 6])).toMatchObject({ result: 'eliminated' });
    });
    it('a Japanese squad has no broken side to rally', () => {
      expect(parseUnit('Japanese 4-4-7')).toMatchObject({ brokenMl: undefined });
    });
  });

  describe('Commissars (A25.22)', () => {
    it('Battle Hardening leaves him unchanged and there is nothing to refuse (A25.221)', () => {
      expect(hardeningOf(unit('Russian Commissar 9-0'), false)).toMatchObject({ kind: 'unchanged' });
      const s = hobStep(hobBase(unit('Commissar')), fixedRoller(dr(7))) as HobStep;
      expect(s).toMatchObject({ result: 'battle_hardening' });
      expect(s.refusable).toBeUndefined();
      expect(s.effect).toContain('never substituted');
    });
    it('a berserk Commissar takes his Location berserk at once, with no NTC (A25.223)', () => {
      const companions = [
        { unit: unit('Russian 4-4-7'), broken: false },
        { unit: unit('Russian 4-2-6'), broken: true },
      ];
      const dice = fixedRoller(dr(9));
      const out = heatOfBattle(hobBase(unit('Russian Commissar 9-0')), dice, companions);
      expect(out.steps.map((s) => [s.kind, s.result, s.dice.length])).toEqual([
        ['hob', 'berserk', 2],
        ['ntc', 'berserk', 0],
        ['ntc', 'berserk', 0],
      ]);
      expect(dice.remaining()).toBe(0);
    });
    it('his rally ignores Desperation (+4), and an MMC that fails it is Replaced (A25.222)', () => {
      // Broken-side ML 7 + 1 for the rallying Commissar = 8; a 9 fails.
      const s = first(mc('Russian 4-4-7', { check: 'rally', broken: true, leaderDrm: 0, desperation: true, commissar: 'leads_rally' }), dr(9));
      expect(s.modifiers).toEqual([]);
      expect(s).toMatchObject({ ml: 8, final: 9, result: 'replaced', unit_after: 'Russian 4-2-6', becomes: { counter: 'Russian 4-2-6', broken: true } });
    });
  });
});

describe('5. Battle Hardening paths (A15.3)', () => {
  it('sub_type:volksgrenadier picks the VG unit and hardens to Fanatic (A25.13)', () => {
    expect(hardeningOf(unit('German 2-3-7', { tag: 'volksgrenadier' }), false)).toEqual({ kind: 'fanatic' });
    expect(hardeningOf(unit('German 2-3-7'), false)).toEqual({ kind: 'swap', to: 'German 2-4-7 half-squad' });
  });
  it.each([
    ['Finnish 5-5-8', 'first_line'],
    ['Partisan 4-4-7', 'second_line'],
    ['Allied Minor 4-5-8', 'elite'],
  ] as const)('a unit outside the data, %s (%s), takes the Fanatic cases by class and nationality', (name, cls) => {
    expect(hardeningOf(unit(name, { class: cls }), false)).toEqual({ kind: 'fanatic' });
  });
  it('by sub-type too: NKVD and VG outside the data', () => {
    expect(hardeningOf(unit('Russian 5-2-8', { class: 'second_line' }), false, 'nkvd')).toEqual({ kind: 'fanatic' });
    expect(hardeningOf(unit('German 5-4-7', { class: 'second_line' }), false, 'volksgrenadier')).toEqual({ kind: 'fanatic' });
  });
});

describe('6. Heat of Battle chained from a leader-led check (A15.1, A10.6)', () => {
  it('a Green MMC checking with a leader is not inexperienced in the chained HoB', () => {
    const out = moraleCheck(mc('American 5-3-6', { leaderDrm: -1 }), fixedRoller([1, 1, 3, 3]));
    expect(out.steps[1]).toMatchObject({ kind: 'hob', modifiers: [], final: 6 });
    // Alone, the same Green squad takes the +1.
    const alone = moraleCheck(mc('American 5-3-6'), fixedRoller([1, 1, 3, 3]));
    expect(alone.steps[1]).toMatchObject({ kind: 'hob', modifiers: [{ value: 1 }], final: 7 });
  });
  it('an Original 2 on a leader-led rally is no automatic rally: Final ≤ broken ML decides, HoB follows', () => {
    // German 4-3-6 (broken ML 5), rallying leader +1, Desperation +4: 2 + 5 = 7 > 5.
    const out = moraleCheck(mc('German 4-3-6', { check: 'rally', broken: true, leaderDrm: 1, desperation: true }), fixedRoller([1, 1, 3, 3]));
    expect(out.steps[0]).toMatchObject({ final: 7, ml: 5, result: 'not_rallied' });
    expect(out.steps[1]).toMatchObject({ kind: 'hob', trigger: 'Original 2 on the Rally' });
  });
});

describe('7. Casualty Reduction of a leader rolls the Wound Severity dr (A17.11)', () => {
  it.each([
    [4, false, 'wounded', 4],
    [5, false, 'killed', 5],
    [4, true, 'killed', 5],
    [3, true, 'wounded', 4],
  ] as const)('dr %i, already wounded %s: %s (final %i)', (die, wounded, result, final) => {
    // A broken 8-1 fails an MC: Casualty Reduction.
    const out = moraleCheck(mc('German 8-1', { broken: true, wounded }), fixedRoller([5, 5, die]));
    expect(out.steps[0]).toMatchObject({ result: 'casualty_reduction' });
    expect(out.steps[1] as WoundStep).toMatchObject({ kind: 'wound', result, final });
    expect(out.result).toBe(result === 'killed' ? 'eliminated' : 'casualty_reduction');
  });
  it('a wounded leader checks on ML − 1 (A17.3)', () => {
    expect(first(mc('German 8-1', { wounded: true }), dr(7))).toMatchObject({ ml: 7, result: 'pinned' });
  });
});

describe('8. spellings players use', () => {
  it.each([
    ['German 1st line 4-6-7', 'German 4-6-7'],
    ['Finnish 2-3-8 (1st)', 'Finnish 2-3-8 half-squad (1st Line)'],
    ['Russian 5-2-7 SMG', 'Russian 5-2-7'],
    ['Russian commissar 9-0', 'Russian Commissar 9-0 leader'],
    ['Commissar', 'Russian Commissar'],
    ['Gurkha 4-5-8', 'British Gurkha 4-5-8'],
    ['British 6-4-8 airborne', 'British 6-4-8'],
    ['U.S. 6-6-6', 'American 6-6-6'],
    ['German 4‑6‑7', 'German 4-6-7'],
    ['German 4−6−7', 'German 4-6-7'],
    ['German 4/6/7', 'German 4-6-7'],
    ['Italian 1-3-7', 'Italian 1-3-7 half-squad'],
    ['SS 4-6-8', 'German SS 4-6-8'],
    ['SS 2-4-8', 'German SS 2-4-8 half-squad'],
    ['USMC 7-6-8', 'American USMC 7-6-8'],
    ['Japanese 3-4-7 reduced', 'Japanese 3-4-7 reduced squad'],
    ['Japanese 3-4-7', 'Japanese 3-4-7'],
    ['Japanese 3-4-8', 'Japanese 3-4-8 reduced squad'],
  ])('%j → %s', (text, name) => {
    const u = parseUnit(text);
    if (isSaid(u)) throw new Error(sayIn('en', u));
    expect(u.name).toBe(name);
  });
  it('Gurkhas and Commissars keep their sub-type', () => {
    expect(unit('Gurkha 4-5-8').tags).toContain('gurkha');
    expect(unit('Commissar').tags).toEqual(['commissar']);
  });
  it.each([
    ['467', /4-6-7 names no nationality: did you mean German 4-6-7/],
    ['9-2', /9-2 names no nationality: did you mean German 9-2 leader, Russian 9-2 leader/],
  ])('a bare %j answers with the nationality choices', (text, message) => {
    expect(english(parseUnit(text))).toMatch(message);
  });
});

describe('9. wording', () => {
  it('an American (not "a American") hero; "an unbroken, unpinned leader of the next higher grade"', () => {
    expect(hobStep(hobBase(unit('American 6-6-6')), fixedRoller(dr(3))).effect).toContain('An American 1-4-9 hero');
    expect(hobStep(hobBase(unit('German 8-3')), fixedRoller(dr(8))).effect).not.toContain('a Elite');
    const generic = hobStep(hobBase(unit('German 7-2')), fixedRoller(dr(8))).effect;
    expect(generic).toContain('an unbroken, unpinned leader of the next higher grade');
    expect(hobStep(hobBase(unit('Allied Minor 4-4-6', { class: 'first_line' })), fixedRoller(dr(6))).effect).toContain('an unbroken, unpinned Elite unit');
  });
});
