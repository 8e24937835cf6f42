import { defineCommand } from '../src/core/command.js';
import { record, resultMessage } from '../src/core/adjudicate.js';
import { choice, integer } from '../src/core/options.js';
import { recentUnitChoices, unitOption } from '../src/core/unit-option.js';
import { findingEmbed } from '../src/render/hearts-of-tin.js';
import { disorderGained, MELEE_RESULTS } from '../src/rules/hearts-of-tin/disorder.js';

export const STRENGTH_MAX = 100_000;

export default defineCommand({
  name: 'disorder',
  description: 'Hearts of Tin: how many disorder markers a unit gains this turn',
  system: 'hearts-of-tin',
  example: '/disorder strength:4 lost:1 melee:defeated',
  options: {
    strength: integer({ description: 'Strength at the start of this turn', min: 1, max: STRENGTH_MAX, required: true }),
    lost: integer({ description: 'Strength lost this turn', min: 0, max: STRENGTH_MAX, required: true }),
    melee: choice({ description: 'Melee this turn: defeated, or pursued after winning (default none)', choices: MELEE_RESULTS, default: 'none' }),
    unit: unitOption(),
  },
  check: (o) => (o.lost > o.strength ? `\`lost\` (${o.lost}) cannot be more than \`strength\` (${o.strength}).` : undefined),
  run(ctx, o) {
    const outcome = disorderGained(o);
    const row = record(ctx, { command: 'disorder', kind: 'check', unit: o.unit, input: o }, outcome);
    const embed = findingEmbed({ title: 'Disorder', name: o.unit, userName: ctx.actor.userName, description: `strength ${o.strength} at the start of the turn · lost ${o.lost} · melee: ${o.melee}`, outcome, row });
    return resultMessage({ row, outcome }, embed);
  },
  autocomplete: recentUnitChoices,
});
