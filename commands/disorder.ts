import { defineCommand } from '../src/core/command.js';
import { errorReply, record, resultMessage } from '../src/core/adjudicate.js';
import { choice, integer, requiredMessage } from '../src/core/options.js';
import { preferGiven, trackedUnit, writeBack } from '../src/core/roster-unit.js';
import { recentUnitChoices, unitOption } from '../src/core/unit-option.js';
import { findingEmbed } from '../src/render/hearts-of-tin.js';
import { disorderGained, MELEE_RESULTS } from '../src/rules/hearts-of-tin/disorder.js';

export const STRENGTH_MAX = 100_000;

const options = {
  strength: integer({ description: 'Strength at the start of this turn (a roster unit: its own)', min: 1, max: STRENGTH_MAX }),
  lost: integer({ description: 'Strength lost this turn', min: 0, max: STRENGTH_MAX, required: true }),
  melee: choice({ description: 'Melee this turn: defeated, or pursued after winning (default none)', choices: MELEE_RESULTS, default: 'none' }),
  unit: unitOption(),
};

export default defineCommand({
  name: 'disorder',
  description: 'Hearts of Tin: how many disorder markers a unit gains this turn',
  system: 'hearts-of-tin',
  example: '/disorder strength:4 lost:1 melee:defeated',
  options,
  run(ctx, given) {
    const tracked = trackedUnit(ctx, 'hearts-of-tin', given.unit);
    const f = tracked?.unit.fields as { strength: number; disorder: number } | undefined;
    const o = preferGiven(ctx, given, f ? { strength: f.strength } : {});
    if (o.strength === undefined) return errorReply(requiredMessage('strength', options.strength));
    if (o.lost > o.strength) return errorReply(`\`lost\` (${o.lost}) cannot be more than \`strength\` (${o.strength}).`);
    const input = { ...o, strength: o.strength };
    const outcome = disorderGained(input);
    const markers = outcome.steps[0]!.markers;
    const row = ctx.services.ledger.transaction(() => {
      const r = record(ctx, { command: 'disorder', kind: 'check', unit: o.unit, input }, outcome);
      if (tracked && f && (markers || o.lost)) {
        writeBack(ctx, tracked, { fields: { disorder: Math.min(10, f.disorder + markers), strength: input.strength - o.lost }, why: `${markers} disorder marker${markers === 1 ? '' : 's'} gained, ${o.lost} lost` }, r.id, 'disorder');
      }
      return r;
    });
    const embed = findingEmbed({ title: 'Disorder', name: o.unit, userName: ctx.actor.userName, description: `strength ${input.strength} at the start of the turn · lost ${o.lost} · melee: ${o.melee}`, outcome, row });
    return resultMessage({ row, outcome }, embed);
  },
  autocomplete: recentUnitChoices,
});
