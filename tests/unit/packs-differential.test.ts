import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixedRoller } from '../../src/dice/roller.js';
import { rally, rallyDistribution, type Quality, type RallyInput } from '../../src/rules/hearts-of-tin/rally.js';
import type { Cover, MoraleLevel, UnitType } from '../../src/rules/lightning-war/morale-table.js';
import { moraleCheck, moraleDistribution, type Casualties, type MoraleInput } from '../../src/rules/lightning-war/morale.js';
import { format, type Fraction } from '../../src/rules/odds.js';
import { loadPack, type Pack } from '../../src/rules/packs/load.js';
import type { PackInput } from '../../src/rules/packs/modifiers.js';
import { packDistribution } from '../../src/rules/packs/odds.js';
import { rollPack } from '../../src/rules/packs/roll.js';
import { domainOf } from '../../src/rules/packs/reach.js';
import type { Modifier, Step } from '../../src/rules/types.js';

/**
 * Two built-in rolls written as packs (tests/fixtures/packs) give the same result, final total,
 * modifiers and exact odds as the built-in rules, over every die and every input combination the
 * pack can express: packs are as exact as code.
 */

function fixture(name: string): Pack {
  const loaded = loadPack(fs.readFileSync(`tests/fixtures/packs/${name}.yaml`, 'utf8'), ['rally', 'morale']);
  if (!loaded.ok) throw new Error(loaded.problems.join('\n'));
  return loaded.pack;
}

/** Every combination of the pack's options' values. */
function* combinations(pack: Pack): Generator<PackInput> {
  const domains = pack.options.map((o) => domainOf(o));
  const at = domains.map(() => 0);
  const total = domains.reduce((n, d) => n * d.length, 1);
  for (let n = 0; n < total; n++) {
    yield Object.fromEntries(pack.options.map((o, i) => [o.name, domains[i]![at[i]!]!]));
    for (let i = 0; i < at.length && ++at[i]! === domains[i]!.length; i++) at[i] = 0;
  }
}

/** Every sequence of `count` d6. */
const allDice = (count: number): number[][] => (count === 0 ? [[]] : allDice(count - 1).flatMap((d) => [1, 2, 3, 4, 5, 6].map((f) => [...d, f])));

const odds = (d: Map<string, Fraction>) => Object.fromEntries([...d].map(([k, p]) => [k, format(p)]).sort());

/**
 * What differs between a built-in step and a pack step: result, final, the modifiers' values, and
 * their names (a built-in casualty reason adds the fraction given: "… up to 40% (2/5)"). Plain
 * comparisons, gathered: a million expect calls would take the suite's time.
 */
function differences(want: Step, got: Step, where: string): string[] {
  const named = (b: Modifier, p: Modifier | undefined) =>
    p !== undefined && b.value === p.value && (b.reason === p.reason || b.reason.startsWith(`${p.reason} (`));
  const out: string[] = [];
  if (want.result !== got.result || want.final !== got.final || want.original !== got.original)
    out.push(`${where}: ${want.result} ${want.final} ≠ ${got.result} ${got.final}`);
  if (want.modifiers.length !== got.modifiers.length || !want.modifiers.every((m, i) => named(m, got.modifiers[i])))
    out.push(`${where}: modifiers ${JSON.stringify(want.modifiers)} ≠ ${JSON.stringify(got.modifiers)}`);
  return out;
}

const CASUALTIES: Record<string, Casualties | undefined> = {
  none: undefined,
  over_20: { lost: 2, original: 5 },
  over_40: { lost: 3, original: 5 },
  over_60: { lost: 4, original: 5 },
};

function moraleInput(i: PackInput): MoraleInput {
  return {
    morale: i.morale as MoraleLevel,
    casualties: CASUALTIES[i.casualties as string],
    cover: i.cover as Cover,
    unitType: i.unit_type as UnitType,
    immobilized: i.immobilized as boolean,
    nearKill: i.near_kill as boolean,
    reserveMove: i.reserve_move as boolean,
    commander: i.commander as boolean,
    rally: false,
    enemyWithin100m: false,
    reason: undefined,
  };
}

describe('packs are as exact as code', () => {
  it("Lightning War's morale check: 2,880 input combinations × 216 dice, and the odds of each", () => {
    const pack = fixture('lightning-war-morale');
    let rolls = 0;
    const found: string[] = [];
    for (const input of combinations(pack)) {
      const builtInInput = moraleInput(input);
      for (const dice of allDice(3)) {
        const want = moraleCheck(builtInInput, fixedRoller(dice)).steps[0]!;
        const got = rollPack(pack, input, fixedRoller(dice)).steps[0]!;
        found.push(...differences(want, got, `${JSON.stringify(input)} ${dice}`));
        rolls++;
      }
      if (JSON.stringify(odds(packDistribution(pack, input))) !== JSON.stringify(odds(moraleDistribution(builtInInput))))
        found.push(`${JSON.stringify(input)}: odds`);
    }
    expect(found.slice(0, 5)).toEqual([]);
    expect(rolls).toBe(2880 * 216);
  });

  it("Hearts of Tin's rally: 480 input combinations × 6 dice, and the odds of each", () => {
    const pack = fixture('hearts-of-tin-rally');
    let rolls = 0;
    const found: string[] = [];
    for (const input of combinations(pack)) {
      const builtInInput: RallyInput = {
        disorder: input.disorder as number,
        quality: input.quality as Quality,
        band: input.band as boolean,
        enemyInSight: input.enemy_in_sight as boolean,
        commanderNear: false,
      };
      for (const dice of allDice(1)) {
        const want = rally(builtInInput, fixedRoller(dice)).steps[0]!;
        const got = rollPack(pack, input, fixedRoller(dice)).steps[0]!;
        found.push(...differences(want, got, `${JSON.stringify(input)} ${dice}`));
        if (want.label !== got.label) found.push(`${JSON.stringify(input)} ${dice}: ${want.label} ≠ ${got.label}`);
        rolls++;
      }
      if (JSON.stringify(odds(packDistribution(pack, input))) !== JSON.stringify(odds(rallyDistribution(builtInInput))))
        found.push(`${JSON.stringify(input)}: odds`);
    }
    expect(found.slice(0, 5)).toEqual([]);
    expect(rolls).toBe(480 * 6);
  });
});
