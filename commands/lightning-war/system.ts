import { EVERYONE } from '../../src/core/access.js';
import { defineSubcommand } from '../../src/core/command.js';
import { readScope } from '../../src/core/games.js';
import { chanceOptions, labelsOf, oddsAnswer } from '../../src/core/odds-entry.js';
import { choice, integer } from '../../src/core/options.js';
import { defineSystem } from '../../src/core/system.js';
import { refuse } from '../../src/core/user-error.js';
import { moraleHeader } from '../../src/render/lightning-war.js';
import { LW_STATES, MORALE_LEVELS, MORALE_TABLE, RALLIED, RALLY_FAILED, SURRENDER, UNIT_TYPES } from '../../src/rules/lightning-war/morale-table.js';
import { MORALE_ORDER, moraleDistribution } from '../../src/rules/lightning-war/morale.js';
import morale from './morale.js';
import * as moraleInput from './morale-input.js';
import { option } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';

const STRENGTH_MAX = 100_000;

/** Lightning War: 3d6 morale checks and rallies. */
export default defineSystem({
  id: 'lightning-war',
  commands: [morale],
  units: {
    label: 'Lightning War',
    fields: {
      morale: choice({ description: 'Base morale', choices: MORALE_LEVELS }),
      original: integer({ description: 'Original strength', min: 1, max: STRENGTH_MAX }),
      casualties: integer({ description: 'Casualties so far', min: 0, max: STRENGTH_MAX }),
      unit_type: choice({ description: 'Unit type', choices: UNIT_TYPES }),
      // What the last check left it doing (a rally takes it from here).
      state: choice({ description: 'Steady, retreating or routing', choices: LW_STATES }),
    },
    required: ['morale', 'original'],
    defaults: () => ({ casualties: 0, unit_type: 'infantry', state: 'steady' }),
    check: (f) =>
      Number(f.casualties) > Number(f.original)
        ? refuse('moreThanOriginal', { fields: option('fields'), what: 'casualties', n: String(f.casualties), original: String(f.original) })
        : f,
    summary: (f) =>
      say('roster.lw', {
        morale: say('lw.r.morale', { level: String(f.morale) }),
        type: say('lw.r.unitType', { type: String(f.unit_type) }),
        casualties: String(f.casualties),
        original: String(f.original),
        state: String(f.state ?? 'steady'),
      }),
  },
  hooks: {},
  odds: {
    morale: defineSubcommand({
      description: 'Lightning War morale check or rally',
      access: EVERYONE,
      options: chanceOptions(moraleInput.options),
      check: moraleInput.check,
      async run(ctx, given) {
        const o = (await moraleInput.prepare(await readScope(ctx, 'lightning-war'), ctx, given, 'read')).options;
        const input = moraleInput.toInput(o);
        return oddsAnswer(
          moraleHeader(o.unit, input),
          moraleDistribution(input),
          MORALE_ORDER,
          [],
          labelsOf(...MORALE_TABLE, SURRENDER, RALLIED, RALLY_FAILED),
        );
      },
    }),
  },
});
