import { defineCommand } from '../src/core/command.js';
import { record, resultMessage } from '../src/core/adjudicate.js';
import { integer, text } from '../src/core/options.js';
import { UNIT_NAME_MAX } from '../src/core/unit-option.js';
import { findingEmbed } from '../src/render/hearts-of-tin.js';
import { brigadeMorale } from '../src/rules/hearts-of-tin/disorder.js';
import { STRENGTH_MAX } from './disorder.js';

export default defineCommand({
  name: 'brigade',
  description: 'Hearts of Tin: is the brigade shaken (half or more of its original strength lost)?',
  system: 'hearts-of-tin',
  example: '/brigade original:24 lost:12',
  options: {
    original: integer({ description: "The brigade's original strength", min: 1, max: STRENGTH_MAX, required: true }),
    lost: integer({ description: 'Strength lost so far', min: 0, max: STRENGTH_MAX, required: true }),
    brigade: text({ description: 'Name of the brigade, kept with the ruling', maxLength: UNIT_NAME_MAX }),
  },
  check: (o) => (o.lost > o.original ? `\`lost\` (${o.lost}) cannot be more than \`original\` (${o.original}).` : undefined),
  run(ctx, o) {
    const outcome = brigadeMorale(o);
    const row = record(ctx, { command: 'brigade', kind: 'check', unit: o.brigade, input: o }, outcome);
    const embed = findingEmbed({ title: 'Brigade morale', name: o.brigade, userName: ctx.actor.userName, description: `original strength ${o.original} · lost ${o.lost}`, outcome, row });
    return resultMessage({ row, outcome }, embed);
  },
});
