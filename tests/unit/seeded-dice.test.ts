import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  commitment,
  gameRoller,
  PLAYER_SCHEME,
  playerDie,
  rejectionLimit,
  seededDie,
  seededRoller,
  keyedPlayerDie,
  PLAYER_KEY_SCHEME,
} from '../../src/dice/seeded.js';

// The published test vector, computed once (and again by an independent Python implementation of
// the README's description) and committed: any reimplementation must give these dice.
const SEED = '4d6f72616c65204f666669636572207465737420766563746f722073656564';
const VECTOR = {
  commitment: '77fa2fad1eaad185a867dbf8ffe6970a255aeefc862216d5799b769843036a5b',
  roll1: [3, 3, 1, 6, 5, 1, 2, 4, 6, 1, 1, 5],
  roll2: [1, 5, 6, 1, 4, 2],
  noPlayerSeeds: [5, 4, 2, 3, 6, 5],
  d20: [1, 19, 11, 6, 19, 15],
  /** Non-ASCII player seeds go into the HMAC message as UTF-8, unescaped. */
  unicode: { seeds: ['alice', 'ünïcödé — 骰子'], roll1: [5, 3, 5, 6, 1, 6, 5, 3, 3, 1, 4, 6] },
};

describe('provably fair dice', () => {
  it('match the published test vector', () => {
    expect(commitment(SEED)).toBe(VECTOR.commitment);
    const roller = seededRoller(SEED, 'testgame01', ['alice', 'bob'], 1);
    expect(VECTOR.roll1.map(() => roller.roll(6))).toEqual(VECTOR.roll1);
    expect(VECTOR.roll2.map((_, i) => seededDie(SEED, 'testgame01', ['alice', 'bob'], 2, i, 6))).toEqual(VECTOR.roll2);
    expect(VECTOR.noPlayerSeeds.map((_, i) => seededDie(SEED, 'testgame01', [], 1, i, 6))).toEqual(VECTOR.noPlayerSeeds);
    expect(VECTOR.d20.map((_, i) => seededDie(SEED, 'testgame01', ['alice', 'bob'], 1, i, 20))).toEqual(VECTOR.d20);
  });

  it('are deterministic, and change with every input', () => {
    const dice = (seed: string, game: string, seeds: string[], seq: number) => {
      const r = seededRoller(seed, game, seeds, seq);
      return Array.from({ length: 20 }, () => r.roll(6)).join('');
    };
    const base = dice(SEED, 'g', ['x'], 1);
    expect(dice(SEED, 'g', ['x'], 1)).toBe(base);
    expect(dice(SEED.replace(/^4/, '5'), 'g', ['x'], 1)).not.toBe(base);
    expect(dice(SEED, 'h', ['x'], 1)).not.toBe(base);
    expect(dice(SEED, 'g', ['y'], 1)).not.toBe(base);
    expect(dice(SEED, 'g', ['x', 'y'], 1)).not.toBe(base);
    expect(dice(SEED, 'g', ['x'], 2)).not.toBe(base);
  });

  it.each([2, 3, 4, 6, 8, 10, 12, 20, 100])('rejection sampling leaves every face of a d%i equally likely', (sides) => {
    const limit = rejectionLimit(sides);
    expect(limit % sides).toBe(0); // each face owns exactly limit/sides values
    expect(2 ** 32 - limit).toBeLessThan(sides); // fewer than one face's worth is thrown away
    expect(limit).toBeLessThanOrEqual(2 ** 32);
    for (let i = 0; i < 200; i++) {
      const d = seededDie(SEED, 'bounds', [], 1, i, sides);
      expect(d).toBeGreaterThanOrEqual(1);
      expect(d).toBeLessThanOrEqual(sides);
    }
  });

  it('a d6 seed stream is close to uniform (10,000 dice, chi-square below the 0.001 critical value 20.52)', () => {
    const counts = new Array(6).fill(0);
    const r = seededRoller(SEED, 'uniform', [], 1);
    for (let i = 0; i < 10_000; i++) counts[r.roll(6) - 1]++;
    const e = 10_000 / 6;
    const chi = counts.reduce((a, o) => a + (o - e) ** 2 / e, 0);
    expect(chi).toBeLessThan(20.52);
  });
});

// The per-player scheme, of games started since it replaced dice by position (docs/ledger-and-fairness.md), with its own vector.
const PLAYER_VECTOR = {
  alice1: [6, 5, 1, 5, 6, 2, 5, 4, 5, 1, 2, 2],
  alice2: [5, 3, 2, 1, 2, 2, 6, 6, 4, 6, 4, 6],
  unicode: { seeds: ['alice', 'ünïcödé — 骰子'], user: '300000000000000001', roll1: [3, 4, 3, 2, 5, 3, 5, 6, 4, 4, 5, 4] },
};

describe('per-player dice', () => {
  it('match the published test vector, and depend on the player and their own roll number only', () => {
    const dice = (seeds: string[], user: string, k: number) => Array.from({ length: 12 }, (_, i) => playerDie(SEED, 'testgame01', seeds, user, k, i, 6));
    expect(dice(['alice', 'bob'], 'alice', 1)).toEqual(PLAYER_VECTOR.alice1);
    expect(dice(['alice', 'bob'], 'alice', 2)).toEqual(PLAYER_VECTOR.alice2);
    expect(dice(PLAYER_VECTOR.unicode.seeds, PLAYER_VECTOR.unicode.user, 1)).toEqual(PLAYER_VECTOR.unicode.roll1);
    expect(dice(['alice', 'bob'], 'bob', 1)).not.toEqual(PLAYER_VECTOR.alice1);
    // The game's place of the roll does not enter: the roller draws the same dice at any position.
    const at = (seq: number) => gameRoller(PLAYER_SCHEME, SEED, 'testgame01', ['alice', 'bob'], { seq, userId: 'alice', k: 1 });
    expect([at(1), at(40)].map((r) => Array.from({ length: 12 }, () => r.roll(6)))).toEqual([PLAYER_VECTOR.alice1, PLAYER_VECTOR.alice1]);
    // A game without a scheme keeps the position scheme.
    const old = gameRoller(null, SEED, 'testgame01', ['alice', 'bob'], { seq: 1, userId: 'alice', k: 1 });
    expect(Array.from({ length: 12 }, () => old.roll(6))).toEqual(VECTOR.roll1);
  });
});

// player-v2: the same, keyed to the player's salt id in place of their Discord id; the vector was
// computed with the published Python (its message's first item changed), not with this code.
const KEYED_VECTOR = {
  key: '0123456789abcdef01234567',
  roll1: [4, 3, 6, 6, 5, 1, 3, 5, 4, 5, 5, 4],
  roll2: [6, 4, 2, 5, 4, 2, 2, 5, 1, 1, 6, 5],
};

describe('per-player dice keyed to a salt id (player-v2)', () => {
  it('match their vector, and are not the Discord-id scheme’s dice for the same text', () => {
    const dice = (k: number) => Array.from({ length: 12 }, (_, i) => keyedPlayerDie(SEED, 'testgame01', ['alice', 'bob'], KEYED_VECTOR.key, k, i, 6));
    expect([dice(1), dice(2)]).toEqual([KEYED_VECTOR.roll1, KEYED_VECTOR.roll2]);
    const roller = gameRoller(PLAYER_KEY_SCHEME, SEED, 'testgame01', ['alice', 'bob'], { seq: 9, userId: 'alice', k: 1, playerKey: KEYED_VECTOR.key });
    expect(Array.from({ length: 12 }, () => roller.roll(6))).toEqual(KEYED_VECTOR.roll1);
    expect(Array.from({ length: 12 }, (_, i) => playerDie(SEED, 'testgame01', ['alice', 'bob'], KEYED_VECTOR.key, 1, i, 6))).not.toEqual(KEYED_VECTOR.roll1);
    // Without the key, a player-v2 game draws nothing (never the Discord-id dice in its place).
    expect(() => gameRoller(PLAYER_KEY_SCHEME, SEED, 'testgame01', [], { seq: 1, userId: 'alice', k: 1 })).toThrow(/key/);
  });
});

describe('the published Python reimplementation (docs/ledger-and-fairness.md)', () => {
  const python = spawnSync('python3', ['--version']).status === 0;
  it.runIf(python)('gives the test vector, non-ASCII seeds included (run from the page itself)', () => {
    const readme = fs.readFileSync(path.resolve(__dirname, '../../docs/ledger-and-fairness.md'), 'utf8');
    const code = /```python\n([\s\S]*?)```/.exec(readme)![1]!;
    const check = `${code}
import sys
out = []
for seeds, user, k in ((['alice', 'bob'], 'alice', 1), (['alice', 'bob'], 'alice', 2), (['alice', 'ünïcödé — 骰子'], '300000000000000001', 1)):
    out.append(' '.join(str(die('${SEED}', 'testgame01', seeds, user, k, i)) for i in range(12)))
print('|'.join(out))
`;
    const r = spawnSync('python3', ['-c', check], { encoding: 'utf8', env: { ...process.env, PYTHONIOENCODING: 'utf-8' } });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(`${PLAYER_VECTOR.alice1.join(' ')}|${PLAYER_VECTOR.alice2.join(' ')}|${PLAYER_VECTOR.unicode.roll1.join(' ')}`);
    expect(VECTOR.unicode.roll1.map((_, i) => seededDie(SEED, 'testgame01', VECTOR.unicode.seeds, 1, i, 6))).toEqual(VECTOR.unicode.roll1);
  });
  it.skipIf(python)('SKIPPED LOUDLY: python3 is not on this machine, so the README Python was not run', () => {
    console.warn('python3 missing: the published Python check did not run');
  });
});
