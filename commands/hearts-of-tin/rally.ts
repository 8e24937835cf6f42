import { recordedOptions } from '../../src/core/record.js';
import { assertOwnerOrGm, EVERYONE } from '../../src/core/access.js';
import { customId, defineCommand, type Context, type Reply } from '../../src/core/command.js';
import { refuse } from '../../src/core/user-error.js';
import { buttonParent } from '../../src/core/review.js';
import { rollAndRecord, type RosterEffect } from '../../src/core/roll.js';
import { rollMessage, summarise } from '../../src/core/replies.js';
import type { TxScope } from '../../src/core/unit-of-work.js';
import { parseOptions } from '../../src/core/options.js';
import { trackedUnit, type Tracked } from '../../src/core/roster-unit.js';
import { rallyRosterChange } from '../../src/rules/hearts-of-tin/roster.js';
import { lapseInstead, pendingRoutOf, rerollLapsed, routStands } from './pending-rout.js';
import { unitChoicesFor } from '../../src/core/unit-option.js';
import type { LedgerRow } from '../../src/ledger/rows.js';
import { oddsOf } from '../../src/rules/odds.js';
import { rallyEmbed } from '../../src/render/hearts-of-tin.js';
import { options, prepare, toInput, type Settled } from './rally-input.js';
import {
  commanderMayRejoin,
  commanderReroll,
  rally,
  RALLY_ORDER,
  rallyDistribution,
  rerollDistribution,
  type RallyInput,
  type RallyOutcome,
} from '../../src/rules/hearts-of-tin/rally.js';
import { said } from '../../src/i18n/said.js';
import { userText } from '../../src/render/embed.js';
import { say } from '../../src/i18n/reader.js';

/** A rally's roster change (the rules decide it), for the roll's transaction. */
function rallyEffects(tracked: Tracked | undefined, outcome: RallyOutcome, pendingAs: string | undefined): RosterEffect[] {
  const change = tracked && rallyRosterChange(outcome.result, pendingAs, pendingRoutOf(tracked) !== undefined);
  return tracked && change ? [{ tracked, change }] : [];
}

const REROLL = 'reroll';

/** The rally a commander re-roll button names, read in the re-roll's transaction; what forbids the re-roll is refused. */
async function rerollable(at: TxScope, ctx: Context, rollId: string): Promise<{ first: LedgerRow; input: RallyInput }> {
  const parent = await buttonParent(at.reads, ctx, rollId);
  const first = parent?.roll;
  if (first?.command !== 'rally' || first.kind !== 'roll') refuse('rallyNotOnRecord');
  assertOwnerOrGm(ctx, first.user_id, said('onlyRollerCommander', { user: userText(first.user_name) }));
  // The rally's linked rows say whether it was voided, re-rolled, or its rout already stood.
  const { children, voided } = parent!;
  if (voided !== undefined) refuse(voided ? said('voidedNoRerollWhy', { id: first.id, why: userText(voided) }) : said('voidedNoReroll', { id: first.id }));
  // The button carries only the roll id: the unit's situation is re-read from the ledger.
  const stored = parseOptions('rally', options, recordedOptions(first));
  if (!stored.ok || stored.value.disorder === undefined) refuse('rerollInvalid');
  const input = toInput(stored.value as Settled);
  if (!commanderMayRejoin(input, first.result ?? '')) refuse('noReroll');
  // Checked before rolling so a spent button draws no dice; the ledger's once-key settles races.
  const earlier = children.find((r) => r.kind === 'reroll');
  if (earlier) refuse('commanderJoined', { id: earlier.id });
  const lapsed = await rerollLapsed(at.reads, first, children);
  if (lapsed) refuse('rerollLapsed', { id: first.id, why: lapsed });
  return { first, input };
}

async function commanderRejoins(ctx: Context, rollId: string): Promise<Reply> {
  let parent: { first: LedgerRow; input: RallyInput } | undefined;
  const reroll = await rollAndRecord(ctx, 'hearts-of-tin', async (at) => {
    parent = await rerollable(at, ctx, rollId);
    const { first, input } = parent;
    const tracked = await trackedUnit(at, ctx, first.unit ?? undefined);
    return {
      meta: {
        command: 'rally',
        kind: 'reroll',
        unit: first.unit ?? undefined,
        input: recordedOptions(first),
        parentId: first.id,
        onceKey: `${REROLL}:${first.id}`,
        onceTaken: said('commanderJoinedOnce'),
      },
      rules: (dice) => commanderReroll(input, first.result ?? '', dice),
      odds: (o) => oddsOf(rerollDistribution(input, first.result ?? ''), RALLY_ORDER, o.result),
      effects: (out) => rallyEffects(tracked, out, undefined),
    };
  });
  const { first, input } = parent!;
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

/** A stored rally as its message: the first roll, the re-roll if taken, and the button if still open. */
async function storedRally(ctx: Context, row: LedgerRow, fresh = false) {
  const stored = row.input as Settled;
  const input = toInput(stored);
  // A roll just made has no re-roll, void or lapse yet: no need to look.
  const children = fresh ? [] : await ctx.services.ledger.children(row.guild_id, row.id);
  const reroll = children.find((r) => r.kind === 'reroll');
  const open = !reroll && commanderMayRejoin(input, row.result ?? '');
  // A voided or lapsed offer shows no button (the button itself refuses them too).
  const offered = open && (fresh || (!children.some((r) => r.kind === 'void') && !(await rerollLapsed(ctx.services.ledger, row, children))));
  const embed = rallyEmbed({
    unit: row.unit ?? undefined,
    userName: row.user_name,
    input,
    first: { row, outcome: row.outcome as RallyOutcome },
    rerollOffered: offered,
    ...(reroll ? { reroll: { row: reroll, outcome: reroll.outcome as RallyOutcome, userName: reroll.user_name } } : {}),
  });
  const buttons = offered ? [{ custom_id: customId(REROLL, row.id), label: say('hot.r.rerollButton'), style: 'primary' as const }] : [];
  return { embed, buttons };
}

export default defineCommand({
  name: 'rally',
  access: EVERYONE,
  description: 'Hearts of Tin: rally a disordered unit (1d6 on the rally chart)',
  system: 'hearts-of-tin',
  example: '/rally disorder:2 quality:militia commander_near:true unit:"1st Foot"',
  options,
  async run(ctx, given) {
    const done = await rollAndRecord<RallyOutcome, Reply>(ctx, 'hearts-of-tin', async (at) => {
      const { options: o, tracked } = await prepare(at, ctx, given);
      // A pending rout lapses at the unit's next roll, in this same unit of work: nothing is rolled.
      const lapsed = await lapseInstead(at.tx, ctx, tracked);
      if (lapsed !== undefined) return { instead: routStands(tracked!.unit.name, lapsed) };
      const input = toInput(o);
      return {
        meta: { command: 'rally', kind: 'roll', unit: o.unit, input: o, sealed: o.sealed },
        rules: (dice) => rally(input, dice),
        odds: (out) => oddsOf(rallyDistribution(input), RALLY_ORDER, out.result),
        effects: (out, rollId) => rallyEffects(tracked, out, commanderMayRejoin(input, out.result) ? rollId : undefined),
      };
    });
    if ('instead' in done) return done.instead;
    const { embed, buttons } = await storedRally(ctx, done.row, true);
    return await rollMessage(ctx, given.sealed, done, embed, buttons);
  },
  buttons: { [REROLL]: commanderRejoins },
  autocomplete: unitChoicesFor('hearts-of-tin'),
  renderStored: (ctx, row) => storedRally(ctx, row),
});
