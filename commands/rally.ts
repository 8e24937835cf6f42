import { customId, defineCommand, type Context, type Reply } from '../src/core/command.js';
import { errorReply, resultMessage, rollAndRecord, summarise } from '../src/core/adjudicate.js';
import { boolean, choice, integer, parseOptions, type ParsedOptions } from '../src/core/options.js';
import { recentUnitChoices, unitOption } from '../src/core/unit-option.js';
import { AlreadyRecordedError } from '../src/ledger/ledger.js';
import { oddsOf } from '../src/rules/odds.js';
import { rallyEmbed } from '../src/render/hearts-of-tin.js';
import {
  commanderMayRejoin,
  commanderReroll,
  MAX_DISORDER,
  MIN_DISORDER,
  QUALITIES,
  rally,
  RALLY_ORDER,
  rallyDistribution,
  rerollDistribution,
  type RallyInput,
  type RallyOutcome,
} from '../src/rules/hearts-of-tin/rally.js';

export const options = {
  disorder: integer({
    description: 'Disorder markers on the unit (1–10)',
    min: MIN_DISORDER,
    max: MAX_DISORDER,
    required: true,
    explain: (v) => (v === 0 ? 'a unit with no disorder does not need to rally' : undefined),
  }),
  quality: choice({ description: 'Troop quality (default regular)', choices: QUALITIES, default: 'regular' }),
  band: boolean({ description: 'A band has joined the unit (+1; not on top of elite)', default: false }),
  enemy_in_sight: boolean({
    description: 'An enemy is visible within 24" (default true; false gives +1)',
    default: true,
  }),
  commander_near: boolean({
    description: 'A commander within 12" could join and re-roll if the rally fails',
    default: false,
  }),
  unit: unitOption(),
};

type RallyOptions = ParsedOptions<typeof options>;

export const toInput = (o: RallyOptions): RallyInput => ({
  disorder: o.disorder,
  quality: o.quality,
  band: o.band,
  enemyInSight: o.enemy_in_sight,
  commanderNear: o.commander_near,
});

const REROLL = 'reroll';

function commanderRejoins(ctx: Context, rollId: string): Reply {
  const { ledger } = ctx.services;
  const first = ledger.get(ctx.actor.guildId, rollId);
  if (!first || first.command !== 'rally' || first.kind !== 'roll') {
    return errorReply('That rally is not on record in this server.');
  }
  if (first.user_id !== ctx.actor.userId && !ctx.actor.isGm) {
    return errorReply(`Only ${first.user_name}, who rolled this rally, or a GM can call the commander in.`);
  }
  // The button carries only the roll id: the unit's situation is re-read from the ledger.
  const stored = parseOptions('rally', options, first.input as Record<string, unknown>);
  if (!stored.ok) return errorReply('That rally cannot be re-rolled: its recorded options no longer validate.');
  const input = toInput(stored.value);
  if (!commanderMayRejoin(input, first.result ?? '')) {
    return errorReply('The rules give no commander re-roll for that rally.');
  }
  const done = () => ledger.children(ctx.actor.guildId, first.id).find((r) => r.kind === 'reroll');
  const used = (id?: string) => errorReply(`The commander has already joined this unit${id ? ` (re-roll ${id})` : ''}: one re-roll per rally.`);
  // Checked before rolling so a spent button draws no dice; the ledger's once-key settles races.
  const earlier = done();
  if (earlier) return used(earlier.id);
  let reroll;
  try {
    reroll = rollAndRecord(
      ctx,
      { command: 'rally', kind: 'reroll', unit: first.unit ?? undefined, input: first.input, parentId: first.id, onceKey: `${REROLL}:${first.id}` },
      (dice) => commanderReroll(input, first.result ?? '', dice),
      (o) => oddsOf(rerollDistribution(input, first.result ?? ''), RALLY_ORDER, o.result),
    );
  } catch (err) {
    if (!(err instanceof AlreadyRecordedError)) throw err;
    return used(done()?.id);
  }
  return {
    type: 'update',
    embed: rallyEmbed({
      unit: first.unit ?? undefined,
      userName: first.user_name,
      input,
      first: { row: first, outcome: first.outcome as RallyOutcome },
      rerollOffered: false,
      reroll: { ...reroll, userName: ctx.actor.userName },
    }),
    buttons: [],
    record: summarise(reroll.row, reroll.outcome),
  };
}

export default defineCommand({
  name: 'rally',
  description: 'Hearts of Tin: rally a disordered unit (1d6 on the rally chart)',
  system: 'hearts-of-tin',
  example: '/rally disorder:2 quality:militia commander_near:true unit:"1st Foot"',
  options,
  run(ctx, o) {
    const input = toInput(o);
    const first = rollAndRecord(
      ctx,
      { command: 'rally', kind: 'roll', unit: o.unit, input: o },
      (dice) => rally(input, dice),
      (out) => oddsOf(rallyDistribution(input), RALLY_ORDER, out.result),
    );
    const offered = commanderMayRejoin(input, first.outcome.result);
    const embed = rallyEmbed({ unit: o.unit, userName: ctx.actor.userName, input, first, rerollOffered: offered });
    const buttons = offered ? [{ custom_id: customId(REROLL, first.row.id), label: 'Commander joins — re-roll', style: 'primary' as const }] : [];
    return resultMessage(first, embed, buttons);
  },
  buttons: { [REROLL]: commanderRejoins },
  autocomplete: recentUnitChoices,
});
