import { EVERYONE } from '../../src/core/access.js';
import { defineCommand } from '../../src/core/command.js';
import { refuse } from '../../src/core/user-error.js';
import { record } from '../../src/core/record.js';
import { resultMessage } from '../../src/core/replies.js';
import { gameNote } from '../../src/core/games.js';
import { unitOfWork } from '../../src/core/unit-of-work.js';
import { integer, requiredMessage, text } from '../../src/core/options.js';
import { assertMayChange, writeBack } from '../../src/core/roster-unit.js';
import { UNIT_NAME_MAX } from '../../src/core/unit-option.js';
import { brigadeUnits, lossesOf, markedShaken } from './brigades.js';
import { findingEmbed } from '../../src/render/hearts-of-tin.js';
import { brigadeMorale } from '../../src/rules/hearts-of-tin/disorder.js';
import { STRENGTH_MAX } from './limits.js';
import { option, said } from '../../src/i18n/said.js';
import { userText } from '../../src/render/embed.js';
import { say } from '../../src/i18n/reader.js';

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
    const { row, outcome, input, o, ever, totals, scope } = await unitOfWork(ctx, 'hearts-of-tin', async (at) => {
      // A brigade named on the roster: its units' original and current strengths stand in for the numbers.
      const { ever, live } = at.game && given.brigade ? await brigadeUnits(at.reads, at.game, given.brigade) : { ever: [], live: [] };
      const typed = given.original !== undefined || given.lost !== undefined;
      const fromRoster = ever.length > 0 && !typed;
      const totals = fromRoster ? lossesOf(ever) : undefined;
      const o = { ...given, ...(totals ? { original: totals.original, lost: totals.lost } : {}) };
      if (o.original === undefined || o.lost === undefined) {
        refuse(requiredMessage(o.original === undefined ? 'original' : 'lost', o.original === undefined ? options.original : options.lost));
      }
      if (o.lost > o.original) refuse('lostOverOriginal', { lost: option('lost'), n: o.lost, original: option('original'), of: o.original });
      const input = { ...o, original: o.original, lost: o.lost };
      const outcome = brigadeMorale({ ...input, alreadyShaken: fromRoster && markedShaken(ever) });
      const marking = outcome.result === 'shaken' && fromRoster ? live.filter((u) => !u.fields.brigade_shaken) : [];
      // Marking the brigade's units shaken writes to each of them: their owners or a GM only.
      for (const unit of marking) assertMayChange(ctx, { game: at.game!, unit }, { verb: said('markShaken', { unit: userText(unit.name) }) });
      const row = await record(at.tx, ctx, { command: 'brigade', kind: 'check', unit: o.brigade, input }, outcome, [], at);
      const why = `${o.brigade} is shaken: a disorder marker at the end of every turn`;
      for (const unit of marking) await writeBack(at.tx, ctx, { game: at.game!, unit }, { fields: { brigade_shaken: true }, why }, row.id, 'brigade');
      return { row, outcome, input, o, ever, totals, scope: at };
    });
    const source = !totals
      ? ''
      : totals.gone
        ? say('hot.r.brigadeSourceGone', { n: ever.length, gone: String(totals.gone) })
        : say('hot.r.brigadeSource', { n: ever.length });
    const embed = findingEmbed({
      title: say('hot.r.brigade'),
      name: o.brigade,
      userName: ctx.actor.userName,
      description: [say('hot.r.brigadeSituation', { original: String(input.original), lost: String(input.lost), source }), gameNote(scope, 'hearts-of-tin')]
        .filter(Boolean)
        .join('\n'),
      outcome,
      row,
    });
    return resultMessage({ row, outcome, scope }, embed);
  },
});
