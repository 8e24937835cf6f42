import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixedRoller } from '../../src/dice/roller.js';
import {
  commanderMayRejoin,
  commanderReroll,
  rally,
  rallyDistribution,
  rerollDistribution,
  type Quality,
  type RallyInput,
} from '../../src/rules/hearts-of-tin/rally.js';
import type { Cover, MoraleLevel, UnitType } from '../../src/rules/lightning-war/morale-table.js';
import { moraleCheck, moraleDistribution, type MoraleInput } from '../../src/rules/lightning-war/morale.js';
import { format, type Fraction } from '../../src/rules/odds.js';
import { loadPack, type Pack } from '../../src/rules/packs/load.js';
import type { PackInput } from '../../src/rules/packs/modifiers.js';
import { packDistribution } from '../../src/rules/packs/odds.js';
import { rollPack } from '../../src/rules/packs/roll.js';
import { rerollOffer } from '../../src/rules/packs/reroll.js';
import { domainOf } from '../../src/rules/packs/reach.js';
import type { Modifier, Step } from '../../src/rules/types.js';

/**
 * Built-in rolls written as packs (tests/fixtures/packs): Lightning War's morale check and rally
 * (casualty fractions, the unit's state) and Hearts of Tin's rally with the commander's re-roll give
 * the same result, final total, modifiers and exact odds as the built-in rules, over every input
 * the built-in command takes: packs are as exact as code.
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

/** /morale's input for a pack input: casualties as the fraction lost (none when nothing is lost), a steady unit as no state. */
function moraleInput(i: PackInput): MoraleInput {
  const lost = i.lost as number;
  const state = i.state === 'steady' ? (i.rally ? 'retreating' : undefined) : (i.state as 'retreating' | 'routing');
  return {
    morale: i.morale as MoraleLevel,
    casualties: lost ? { lost, original: i.original as number } : undefined,
    cover: i.cover as Cover,
    unitType: i.unit_type as UnitType,
    immobilized: i.immobilized as boolean,
    nearKill: i.near_kill as boolean,
    reserveMove: i.reserve_move as boolean,
    commander: i.commander as boolean,
    rally: i.rally as boolean,
    enemyWithin100m: i.enemy_within_100m as boolean,
    reason: undefined,
    ...(state ? { state } : {}),
  };
}

/** Inputs /morale takes: a rally is infantry's. */
const takenByMorale = (i: PackInput) => !i.rally || i.unit_type === 'infantry';

const LW_DEFAULTS: PackInput = {
  morale: 'professional',
  lost: 0,
  original: 1,
  cover: 'none',
  unit_type: 'infantry',
  immobilized: false,
  near_kill: false,
  reserve_move: false,
  commander: false,
  rally: false,
  enemy_within_100m: false,
  state: 'steady',
};

/** Every combination of these options' values, the others at their defaults. */
function* over(pack: Pack, names: string[], base: PackInput): Generator<PackInput> {
  const all = combinations({ ...pack, options: pack.options.filter((o) => names.includes(o.name)) } as Pack);
  for (const i of all) yield { ...base, ...i };
}

describe('packs are as exact as code', () => {
  it("Lightning War's morale check and rally: every situation and state × 216 dice, and the odds of each", () => {
    const pack = fixture('lightning-war-morale');
    let rolls = 0;
    const found: string[] = [];
    const situations = ['morale', 'cover', 'unit_type', 'commander', 'rally', 'enemy_within_100m', 'state'];
    for (const input of over(pack, situations, LW_DEFAULTS)) {
      if (!takenByMorale(input)) continue;
      const builtInInput = moraleInput(input);
      for (const dice of allDice(3)) {
        const want = moraleCheck(builtInInput, fixedRoller(dice)).steps[0]!;
        const got = rollPack(pack, input, fixedRoller(dice)).steps[0]!;
        found.push(...differences(want, got, `${JSON.stringify(input)} ${dice}`));
        rolls++;
      }
    }
    // Each situation's exact odds; the plain modifiers (they only add) over morale and cover, each with its odds.
    let inputs = 0;
    const plain = ['morale', 'cover', 'immobilized', 'near_kill', 'reserve_move'];
    for (const input of [...over(pack, situations, LW_DEFAULTS), ...over(pack, plain, LW_DEFAULTS)]) {
      if (!takenByMorale(input)) continue;
      const builtInInput = moraleInput(input);
      found.push(
        ...differences(
          moraleCheck(builtInInput, fixedRoller([4, 4, 3])).steps[0]!,
          rollPack(pack, input, fixedRoller([4, 4, 3])).steps[0]!,
          JSON.stringify(input),
        ),
      );
      if (JSON.stringify(odds(packDistribution(pack, input))) !== JSON.stringify(odds(moraleDistribution(builtInInput))))
        found.push(`${JSON.stringify(input)}: odds`);
      inputs++;
    }
    expect(found.slice(0, 5)).toEqual([]);
    expect([rolls, inputs]).toEqual([720 * 216, 720 + 120]);
  });

  it("Lightning War's casualties: every fraction lost of 1 to 60 (1,890 of them), its modifier and odds as /morale's", () => {
    const pack = fixture('lightning-war-morale');
    const found: string[] = [];
    let fractions = 0;
    for (let original = 1; original <= 60; original++)
      for (let lost = 0; lost <= original; lost++) {
        const input = { ...LW_DEFAULTS, lost, original };
        const builtInInput = moraleInput(input);
        found.push(
          ...differences(
            moraleCheck(builtInInput, fixedRoller([2, 5, 6])).steps[0]!,
            rollPack(pack, input, fixedRoller([2, 5, 6])).steps[0]!,
            `${lost}/${original}`,
          ),
        );
        if (JSON.stringify(odds(packDistribution(pack, input))) !== JSON.stringify(odds(moraleDistribution(builtInInput))))
          found.push(`${lost}/${original}: odds`);
        fractions++;
      }
    expect(found.slice(0, 5)).toEqual([]);
    expect(fractions).toBe(1890);
    // The edges, as the source's own examples put them: 1/5 is nothing, 2/5 is −2, 3/5 is −4, 4/5 is −6.
    const mods = (lost: number) => rollPack(pack, { ...LW_DEFAULTS, lost, original: 5 }, fixedRoller([3, 3, 3])).steps[0]!.modifiers;
    expect([1, 2, 3, 4].map(mods)).toEqual([
      [],
      [{ reason: 'casualties over 20% up to 40%', value: -2 }],
      [{ reason: 'casualties over 40% up to 60%', value: -4 }],
      [{ reason: 'casualties over 60%', value: -6 }],
    ]);
  });

  it("Hearts of Tin's rally and the commander's re-roll: 960 input combinations × 6 dice, and the odds of each", () => {
    const pack = fixture('hearts-of-tin-rally');
    let rolls = 0;
    let rerolls = 0;
    const found: string[] = [];
    for (const input of combinations(pack)) {
      const builtInInput: RallyInput = {
        disorder: input.disorder as number,
        quality: input.quality as Quality,
        band: input.band as boolean,
        enemyInSight: input.enemy_in_sight as boolean,
        commanderNear: input.commander_near as boolean,
      };
      for (const dice of allDice(1)) {
        const first = rally(builtInInput, fixedRoller(dice));
        const mine = rollPack(pack, input, fixedRoller(dice));
        const where = `${JSON.stringify(input)} ${dice}`;
        found.push(...differences(first.steps[0]!, mine.steps[0]!, where));
        const offer = rerollOffer(pack, mine, input);
        if (Boolean(offer) !== commanderMayRejoin(builtInInput, first.result)) found.push(`${where}: re-roll offered ${Boolean(offer)}`);
        rolls++;
        if (!offer) continue;
        for (const again of allDice(1)) {
          const want = commanderReroll(builtInInput, first.result, fixedRoller(again)).steps[0]!;
          const got = rollPack(pack, input, fixedRoller(again), { start: offer.start }).steps[0]!;
          found.push(...differences(want, got, `${where} re-roll ${again}`));
          rerolls++;
        }
        const rerollOdds = odds(packDistribution(pack, input, { start: offer.start }));
        if (JSON.stringify(rerollOdds) !== JSON.stringify(odds(rerollDistribution(builtInInput, first.result)))) found.push(`${where}: re-roll odds`);
      }
      if (JSON.stringify(odds(packDistribution(pack, input))) !== JSON.stringify(odds(rallyDistribution(builtInInput))))
        found.push(`${JSON.stringify(input)}: odds`);
    }
    expect(found.slice(0, 5)).toEqual([]);
    expect(rolls).toBe(960 * 6);
    expect(rerolls).toBeGreaterThan(0);
  });
});
