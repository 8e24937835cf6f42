import { defineCommand } from '../src/core/command.js';
import { errorReply, gameFor, record, resultMessage } from '../src/core/adjudicate.js';
import { integer, requiredMessage, text } from '../src/core/options.js';
import { preferGiven, writeBack } from '../src/core/roster-unit.js';
import { UNIT_NAME_MAX } from '../src/core/unit-option.js';
import { findingEmbed } from '../src/render/hearts-of-tin.js';
import { brigadeMorale } from '../src/rules/hearts-of-tin/disorder.js';
import { STRENGTH_MAX } from './disorder.js';

const options = {
  original: integer({ description: "The brigade's original strength (a roster brigade: its units' total)", min: 1, max: STRENGTH_MAX }),
  lost: integer({ description: 'Strength lost so far (a roster brigade: from its units)', min: 0, max: STRENGTH_MAX }),
  brigade: text({ description: 'Name of the brigade, kept with the ruling', maxLength: UNIT_NAME_MAX }),
};

export default defineCommand({
  name: 'brigade',
  description: 'Hearts of Tin: is the brigade shaken (half or more of its original strength lost)?',
  system: 'hearts-of-tin',
  example: '/brigade original:24 lost:12',
  options,

  run(ctx, given) {
    // A brigade named on the roster: its units' original and current strengths stand in for the numbers.
    const game = given.brigade ? gameFor(ctx, 'hearts-of-tin') : undefined;
    const { roster } = ctx.services.ledger;
    const units = game ? roster.units(game.id, 10_000, 0).filter((u) => String(u.fields.brigade ?? '').toLowerCase() === given.brigade!.toLowerCase()) : [];
    const sum = (f: (x: Record<string, any>) => number) => units.reduce((a, u) => a + f(u.fields), 0);
    const o = preferGiven(ctx, given, units.length ? { original: sum((f) => f.original), lost: sum((f) => f.original - f.strength) } : {});
    if (o.original === undefined || o.lost === undefined) {
      return errorReply(requiredMessage(o.original === undefined ? 'original' : 'lost', o.original === undefined ? options.original : options.lost));
    }
    if (o.lost > o.original) return errorReply(`\`lost\` (${o.lost}) cannot be more than \`original\` (${o.original}).`);
    const input = { ...o, original: o.original, lost: o.lost };
    const outcome = brigadeMorale(input);
    const row = ctx.services.ledger.transaction(() => {
      const r = record(ctx, { command: 'brigade', kind: 'check', unit: o.brigade, input }, outcome);
      if (outcome.result === 'shaken') {
        for (const unit of units.filter((u) => !u.fields.brigade_shaken)) {
          writeBack(ctx, { game: game!, unit }, { fields: { brigade_shaken: true }, why: `${o.brigade} is shaken: a disorder marker at the end of every turn` }, r.id, 'brigade');
        }
      }
      return r;
    });
    const embed = findingEmbed({ title: 'Brigade morale', name: o.brigade, userName: ctx.actor.userName, description: `original strength ${input.original} · lost ${input.lost}${units.length ? ` (from ${units.length} roster unit${units.length === 1 ? '' : 's'})` : ''}`, outcome, row });
    return resultMessage({ row, outcome }, embed);
  },
});
