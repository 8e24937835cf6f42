import type { Actor } from '../../src/core/command.js';
import type { Router } from '../../src/core/router.js';
import { loadPack, type Pack } from '../../src/rules/packs/load.js';
import { gm } from './app.js';

/** Commands a test pack must not be named after. */
export const BUILT_IN = ['rally', 'mc', 'morale', 'roll', 'pack'];

/**
 * A sound pack, as a plain object, that tests change one thing in: a 2d6 roll-under nerve test
 * with pins, a leader choice, cover, natural-double specials and a follow-up panic table.
 */
export function nervePack() {
  return {
    pack: 'nerve-test',
    version: 1,
    name: 'Nerve test',
    description: 'A unit under fire tests its nerve',
    source: 'House rules, p. 3',
    unit_fields: [
      { name: 'nerve', type: 'integer', min: 2, max: 12 },
      { name: 'pins', type: 'integer', min: 0, max: 12, default: 0 },
    ],
    options: [
      { name: 'nerve', type: 'integer', min: 2, max: 12, from_unit: 'nerve', description: "the unit's nerve" },
      { name: 'pins', type: 'integer', min: 0, max: 12, default: 0, from_unit: 'pins' },
      { name: 'leader', type: 'choice', choices: ['none', 'nco', { value: 'officer', label: 'Officer' }], default: 'none' },
      { name: 'in_cover', type: 'boolean', default: false },
    ],
    modifiers: [
      { label: 'each pin marker', per: 'pins', value: -1, to: 'target' },
      { label: 'NCO nearby', when: { leader: 'nco' }, value: 1, to: 'target' },
      { label: 'officer nearby', when: { leader: 'officer' }, value: 2, to: 'target' },
      { label: 'in cover', when: { in_cover: true }, value: 1, tests: ['panic'] },
    ],
    tests: {
      check: {
        dice: '2d6',
        target: 'nerve',
        compare: 'at_most',
        clamp_target: { min: 2, max: 11 },
        specials: [
          { faces: [6, 6], result: 'panic' },
          { faces: [1, 1], result: 'steady' },
        ],
        results: {
          steady: { label: 'Steady', tone: 'good', effect: 'Remove one pin.', unit: { add: { pins: -1 } } },
          pass: { label: 'Holds', tone: 'good', effect: 'The unit carries out its order.' },
          fail: { label: 'Goes to ground', tone: 'bad', effect: 'The unit takes one more pin.', unit: { add: { pins: 1 } } },
          panic: { label: 'Panic', tone: 'bad', effect: 'Roll on the panic table.', then: 'panic' },
        },
      },
      panic: {
        dice: '1d6',
        bands: [
          { from: 5, label: 'Holds on', tone: 'neutral', effect: 'Stays where it is, pinned.' },
          { from: 3, to: 4, label: 'Falls back', tone: 'bad', effect: 'One move away from the enemy.' },
          { to: 2, label: 'Routs', tone: 'bad', effect: 'The unit is removed.', unit: { remove: true } },
        ],
      },
    },
  };
}

export type PackObject = ReturnType<typeof nervePack>;

/** The pack loaded (JSON is YAML), or the test fails with its problems. */
export function loaded(pack: unknown = nervePack()): Pack {
  const r = loadPack(JSON.stringify(pack), BUILT_IN);
  if (!r.ok) throw new Error(r.problems.join('\n'));
  return r.pack;
}

/** The problems of a pack file's text, or of a pack object written as JSON. */
export function problemsOf(pack: unknown): string[] {
  const r = loadPack(typeof pack === 'string' ? pack : JSON.stringify(pack), BUILT_IN);
  return r.ok ? [] : r.problems;
}

/** A pack installed through the router as a GM attaches its file (JSON is YAML). */
export function installThrough(router: Router, pack: unknown, actor: Actor = gm) {
  const text = JSON.stringify(pack);
  return router.handle({
    type: 'command',
    name: 'pack',
    subcommand: 'install',
    options: { file: 'f' },
    actor,
    files: { f: { name: 'pack.yaml', size: Buffer.byteLength(text), text } },
  });
}
