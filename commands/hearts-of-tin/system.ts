import { EVERYONE } from '../../src/core/access.js';
import { defineSubcommand } from '../../src/core/command.js';
import { readScope } from '../../src/core/games.js';
import { chanceOptions, labelsOf, oddsAnswer } from '../../src/core/odds-entry.js';
import { RALLY_CHART, ROUT_COMMANDER_LOST } from '../../src/rules/hearts-of-tin/rally-chart.js';
import { boolean, choice, integer, text } from '../../src/core/options.js';
import { defineSystem } from '../../src/core/system.js';
import { refuse } from '../../src/core/user-error.js';
import { userText } from '../../src/render/embed.js';
import { rallyHeader } from '../../src/render/hearts-of-tin.js';
import { MAX_DISORDER, QUALITIES, RALLY_ORDER, rallyDistribution } from '../../src/rules/hearts-of-tin/rally.js';
import brigade from './brigade.js';
import disorder from './disorder.js';
import { lapseAllRouts } from './pending-rout.js';
import rally from './rally.js';
import * as rallyInput from './rally-input.js';
import { heartsOfTinTurnEnd } from './turn-end.js';
import { option } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';

const STRENGTH_MAX = 100_000;

/** Hearts of Tin: rallies with the commander re-roll, disorder, brigade morale. */
export default defineSystem({
  id: 'hearts-of-tin',
  commands: [rally, disorder, brigade],
  units: {
    label: 'Hearts of Tin',
    fields: {
      quality: choice({ description: 'Quality', choices: QUALITIES }),
      band: boolean({ description: 'Joined by a band' }),
      brigade: text({ description: 'Its brigade', maxLength: 60 }),
      original: integer({ description: 'Original strength', min: 1, max: STRENGTH_MAX }),
      strength: integer({ description: 'Current strength', min: 0, max: STRENGTH_MAX }),
      disorder: integer({ description: 'Disorder markers', min: 0, max: MAX_DISORDER }),
    },
    required: ['original'],
    defaults: (f) => ({ quality: 'regular', band: false, brigade: null, disorder: 0, strength: f.original }),
    check: (f) =>
      Number(f.strength) > Number(f.original)
        ? refuse('moreThanOriginal', { fields: option('fields'), what: 'strength', n: String(f.strength), original: String(f.original) })
        : f,
    summary: (f) =>
      say('roster.hot', {
        quality: String(f.quality),
        band: f.band ? 'yes' : 'no',
        strength: String(f.strength),
        original: String(f.original),
        disorder: String(f.disorder),
        brigade: f.brigade ? ` · ${userText(String(f.brigade))}` : '',
        shaken: f.brigade_shaken ? 'yes' : 'no',
      }),
  },
  hooks: {
    turnEnd: heartsOfTinTurnEnd,
    // Offers still open at the end lapse with it (the commander re-roll), inside the game.
    gameEnd: (tx, ctx, game) => lapseAllRouts(tx, ctx, game, 'The game ended'),
  },
  odds: {
    rally: defineSubcommand({
      description: 'Hearts of Tin rally; with commander_near, the re-roll is taken on a failure',
      access: EVERYONE,
      options: chanceOptions(rallyInput.options),
      async run(ctx, given) {
        const o = (await rallyInput.prepare(await readScope(ctx, 'hearts-of-tin'), ctx, given, 'read')).options;
        const input = rallyInput.toInput(o);
        const header = rallyHeader(o.unit, input);
        return oddsAnswer(
          { ...header, situation: `${header.situation} · ${say('odds.hot.how', { near: input.commanderNear ? 'yes' : 'no' })}` },
          rallyDistribution(input, true),
          RALLY_ORDER,
          [],
          labelsOf(...RALLY_CHART, ROUT_COMMANDER_LOST),
        );
      },
    }),
  },
});
