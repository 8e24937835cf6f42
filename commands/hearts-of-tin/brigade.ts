import { EVERYONE } from '../../src/core/access.js';
import { defineCommand } from '../../src/core/command.js';
import { refuse } from '../../src/core/user-error.js';
import { gameFor, gameNote, record, resultMessage } from '../../src/core/adjudicate.js';
import { integer, requiredMessage, text } from '../../src/core/options.js';
import { assertMayChange, writeBack } from '../../src/core/roster-unit.js';
import { UNIT_NAME_MAX } from '../../src/core/unit-option.js';
import { brigadeUnits, lossesOf, markedShaken } from '../../src/core/brigades.js';
import { findingEmbed } from '../../src/render/hearts-of-tin.js';
import { brigadeMorale } from '../../src/rules/hearts-of-tin/disorder.js';
import { STRENGTH_MAX } from './limits.js';

const options = {
  original: integer({ description: "The brigade's original strength (a roster brigade: its units' total)", min: 1, max: STRENGTH_MAX }),
  lost: integer({ description: 'Strength lost so far (a roster brigade: from its units)', min: 0, max: STRENGTH_MAX }),
  brigade: text({ description: 'Name of the brigade, kept with the ruling', maxLength: UNIT_NAME_MAX }),
};

export default defineCommand({
  name: 'brigade',
  access: EVERYONE,
  description: 'Hearts of Tin: is the brigade shaken (half or more of its original strength lost)?',
  system: 'hearts-of-tin',
  example: '/brigade original:24 lost:12',
  options,

  async run(ctx, given) {
    // A brigade named on the roster: its units' original and current strengths stand in for the numbers.
    const game = given.brigade ? await gameFor(ctx, 'hearts-of-tin') : undefined;
    const { ever, live } = game ? await brigadeUnits(ctx, game, given.brigade!) : { ever: [], live: [] };
    const typed = given.original !== undefined || given.lost !== undefined;
    const fromRoster = ever.length > 0 && !typed;
    const totals = fromRoster ? lossesOf(ever) : undefined;
    const o = { ...given, ...(totals ? { original: totals.original, lost: totals.lost } : {}) };
    if (o.original === undefined || o.lost === undefined) {
      refuse(requiredMessage(o.original === undefined ? 'original' : 'lost', o.original === undefined ? options.original : options.lost));
    }
    if (o.lost > o.original) refuse(`\`lost\` (${o.lost}) cannot be more than \`original\` (${o.original}).`);
    const input = { ...o, original: o.original, lost: o.lost };
    const outcome = brigadeMorale({ ...input, alreadyShaken: fromRoster && markedShaken(ever) });
    const marking = outcome.result === 'shaken' && fromRoster ? live.filter((u) => !u.fields.brigade_shaken) : [];
    // Marking the brigade's units shaken writes to each of them: their owners or a GM only.
    for (const unit of marking) assertMayChange(ctx, { game: game!, unit }, { verb: `mark ${unit.name} shaken` });
    const row = await ctx.services.ledger.transaction(async (tx) => {
      const r = await record(tx, ctx, { command: 'brigade', kind: 'check', unit: o.brigade, input }, outcome);
      for (const unit of marking) {
        await writeBack(
          tx,
          ctx,
          { game: game!, unit },
          { fields: { brigade_shaken: true }, why: `${o.brigade} is shaken: a disorder marker at the end of every turn` },
          r.id,
          'brigade',
        );
      }
      return r;
    }, ctx.actor.guildId);
    const source = totals
      ? ` (from its ${ever.length} roster unit${ever.length === 1 ? '' : 's'}${totals.gone ? `, ${totals.gone} of them gone from the field and counted as wholly lost` : ''})`
      : '';
    const embed = findingEmbed({
      title: 'Brigade morale',
      name: o.brigade,
      userName: ctx.actor.userName,
      description: [`original strength ${input.original} · lost ${input.lost}${source}`, await gameNote(ctx, 'hearts-of-tin')].filter(Boolean).join('\n'),
      outcome,
      row,
    });
    return resultMessage({ row, outcome }, embed);
  },
});
