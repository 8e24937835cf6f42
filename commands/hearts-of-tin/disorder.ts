import { EVERYONE } from '../../src/core/access.js';
import { STRENGTH_MAX } from './limits.js';
import { defineCommand, type Context, type Reply } from '../../src/core/command.js';
import { refuse } from '../../src/core/user-error.js';
import { record } from '../../src/core/record.js';
import { resultMessage } from '../../src/core/replies.js';
import { gameNote } from '../../src/core/games.js';
import { unitOfWork, type TxScope } from '../../src/core/unit-of-work.js';
import { choice, integer, requiredMessage, type ParsedOptions } from '../../src/core/options.js';
import { preferGiven, trackedUnit, writeBack, type Tracked } from '../../src/core/roster-unit.js';
import { lapseInstead, routStands } from './pending-rout.js';
import { unitChoicesFor, unitOption } from '../../src/core/unit-option.js';
import { findingEmbed } from '../../src/render/hearts-of-tin.js';
import { disorderGained, MELEE_RESULTS } from '../../src/rules/hearts-of-tin/disorder.js';
import { disorderRosterChange } from '../../src/rules/hearts-of-tin/roster.js';
import { option } from '../../src/i18n/said.js';
import { userText } from '../../src/render/embed.js';
import { say } from '../../src/i18n/reader.js';

const options = {
  strength: integer({ description: 'Strength at the start of this turn (a roster unit: its own)', min: 1, max: STRENGTH_MAX }),
  lost: integer({ description: 'Strength lost in this report (a roster unit: reports in one turn add up)', min: 0, max: STRENGTH_MAX, required: true }),
  melee: choice({ description: 'Melee this turn: defeated, or pursued after winning (default none)', choices: MELEE_RESULTS, default: 'none' }),
  unit: unitOption(),
};

/** What a Hearts of Tin roster unit keeps, including this turn's losses. */
type HotFields = {
  original: number;
  strength: number;
  disorder: number;
  /** The turn the next three describe; another turn starts afresh. */
  turn_of?: number | null;
  turn_strength?: number;
  turn_lost?: number;
  turn_marked?: boolean;
};

type Given = ParsedOptions<typeof options>;

/** The refusals a tracked unit's state makes: what it has left bounds what it can lose. */
function checkAgainstRoster(given: Given, tracked: Tracked, f: HotFields): void {
  if (f.strength <= 0) refuse('noStrengthLeft', { unit: userText(tracked.unit.name) });
  if (given.strength !== undefined && given.strength > f.original) {
    refuse('strengthOverOriginal', { strength: option('strength'), n: given.strength, unit: userText(tracked.unit.name), of: f.original });
  }
  if (given.lost > f.strength) refuse('lostOverLeft', { lost: option('lost'), n: given.lost, unit: userText(tracked.unit.name), of: f.strength });
}

/** The ruling, recorded with what it does to a tracked unit, in the command's unit of work. */
async function rule(at: TxScope, ctx: Context, given: Given, tracked: Tracked | undefined) {
  const f = tracked?.unit.fields as HotFields | undefined;
  if (tracked && f) checkAgainstRoster(given, tracked, f);
  // This turn's start and what was lost in it so far: reports in one turn add up.
  const sameTurn = tracked && f && f.turn_of === tracked.game.turn && f.turn_strength !== undefined;
  const start = sameTurn ? f!.turn_strength! : f?.strength;
  const o = preferGiven(ctx, given, start !== undefined ? { strength: start } : {});
  if (o.strength === undefined) refuse(requiredMessage('strength', options.strength));
  const lostEarlier = sameTurn ? (f!.turn_lost ?? 0) : 0;
  if (!tracked && o.lost > o.strength) refuse('lostOverStrength', { lost: option('lost'), n: o.lost, strength: option('strength'), of: o.strength });
  const input = {
    ...o,
    strength: o.strength,
    ...(tracked ? { lostEarlier, markedForLosses: Boolean(sameTurn && f!.turn_marked), markersBefore: f!.disorder } : {}),
  };
  const outcome = disorderGained(input);
  const step = outcome.steps[0]!;
  const row = await record(at.tx, ctx, { command: 'disorder', kind: 'check', unit: o.unit, input }, outcome, [], at);
  const change =
    tracked &&
    f &&
    disorderRosterChange(f, step, { lost: o.lost, turn: tracked.game.turn, turnStrength: o.strength, lostEarlier, sameTurn: Boolean(sameTurn) });
  if (tracked && change) await writeBack(at.tx, ctx, tracked, change, row.id, 'disorder');
  return { row, outcome, input, o, lostEarlier, scope: at };
}

type Ruled = Awaited<ReturnType<typeof rule>>;

export default defineCommand({
  name: 'disorder',
  access: EVERYONE,
  description: 'Hearts of Tin: how many disorder markers a unit gains this turn',
  system: 'hearts-of-tin',
  example: '/disorder strength:4 lost:1 melee:defeated',
  options,
  async run(ctx, given) {
    const done = await unitOfWork(ctx, 'hearts-of-tin', async (at): Promise<{ lapsed: Reply } | { ruled: Ruled }> => {
      const tracked = await trackedUnit(at, ctx, given.unit);
      // A pending rout lapses at the unit's next ruling too: the unit has fled, so nothing more is judged.
      const lapsed = await lapseInstead(at.tx, ctx, tracked);
      if (lapsed !== undefined) return { lapsed: routStands(tracked!.unit.name, lapsed) };
      return { ruled: await rule(at, ctx, given, tracked) };
    });
    if ('lapsed' in done) return done.lapsed;
    const { row, outcome, input, o, lostEarlier, scope } = done.ruled;
    const turnLoss = lostEarlier ? say('hot.r.thisTurn', { n: String(lostEarlier + o.lost) }) : '';
    const embed = findingEmbed({
      title: say('hot.r.disorder'),
      name: o.unit,
      userName: ctx.actor.userName,
      description: [
        say('hot.r.disorderSituation', { strength: String(input.strength), lost: String(o.lost), turnLoss, melee: o.melee }),
        gameNote(scope, 'hearts-of-tin'),
      ]
        .filter(Boolean)
        .join('\n'),
      outcome,
      row,
    });
    return resultMessage({ row, outcome }, embed);
  },
  autocomplete: unitChoicesFor('hearts-of-tin'),
});
