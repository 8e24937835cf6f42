import { assertOwnerOrGm } from './access.js';
import type { Context, Reply } from './command.js';
import { turnLapse } from './offer-lapse.js';
import { installedPackOfRow, type InstalledPack } from './packs.js';
import { summarise } from './replies.js';
import { buttonParent } from './review.js';
import { rollAndRecord } from './roll.js';
import { trackedUnit } from './roster-unit.js';
import { refuse } from './user-error.js';
import { packEffects, packEmbedOf, withTally, type PackRollInput, type PackRollOutcome } from './pack-command.js';
import type { LedgerRow } from '../ledger/rows.js';
import { userText } from '../render/embed.js';
import { oddsOf } from '../rules/odds.js';
import type { UnitValues } from '../rules/packs/input.js';
import { orderFrom, packDistribution } from '../rules/packs/odds.js';
import { rerollOffer, type RerollOffer } from '../rules/packs/reroll.js';
import { rollPack } from '../rules/packs/roll.js';
import { packSystem } from '../rules/systems.js';
import { said } from '../i18n/said.js';

/**
 * A pack's re-roll, on the rails of the built-in commander re-roll: a button under the roll, for
 * its owner only (or a GM, when the pack says `by: owner_or_gm`), once; recorded as a roll linked
 * to the one it replaces, with its own odds, and re-adjudicated by the verifiers from its pack row.
 */

type Parent = { first: LedgerRow; installed: InstalledPack; offer: RerollOffer };

/** The roll a re-roll button names, and what may forbid it (read again in the re-roll's own transaction). */
async function rerollable(
  reads: Parameters<typeof buttonParent>[0] & Parameters<typeof turnLapse>[0],
  ctx: Context,
  rollId: string,
  gameNow?: string | null,
): Promise<Parent> {
  const parent = await buttonParent(reads, ctx, rollId);
  const first = parent?.roll;
  if (first?.kind !== 'roll' || !first.system?.startsWith('pack:')) refuse('packRerollNotOffered');
  const input = first.input as PackRollInput;
  const installed = await installedPackOfRow(ctx, input.pack.row);
  const offer = installed && rerollOffer(installed.pack, first.outcome as PackRollOutcome, input.options);
  if (!installed || !offer) refuse('packRerollNotOffered');
  if (offer.reroll.by === 'owner_or_gm') assertOwnerOrGm(ctx, first.user_id, said('packRerollOwner', { user: userText(first.user_name) }));
  else if (ctx.actor.userId !== first.user_id) refuse('packRerollOwner', { user: userText(first.user_name) });
  const { children, voided } = parent!;
  if (voided !== undefined) refuse('packRerollNotOffered');
  // As the built-in commander re-roll: the offer lapses when the game ends or its turn is over.
  const lapsed = await turnLapse(reads, first, 'lapsedGameOver', gameNow);
  if (lapsed) refuse('packRerollLapsed', { label: userText(offer.reroll.label), id: first.id, why: lapsed });
  // Checked before rolling so a spent button draws no dice; the ledger's once-key settles races.
  const earlier = children.find((r) => r.kind === 'reroll');
  if (earlier) refuse('packRerollTaken', { id: earlier.id });
  return { first, installed, offer };
}

export async function packReroll(ctx: Context, rollId: string): Promise<Reply> {
  const before = await rerollable(ctx.services.ledger, ctx, rollId);
  const system = packSystem(before.installed.pack.pack);
  let parent = before;
  const rolled = await rollAndRecord(ctx, system, async (at) => {
    // The re-roll is tagged with the channel's game now: it must be the roll's own.
    parent = await rerollable(at.reads, ctx, rollId, at.game?.id ?? null);
    const { first, installed, offer } = parent;
    const { pack } = installed;
    const input = first.input as PackRollInput;
    const tracked = await trackedUnit(at, ctx, first.unit ?? undefined);
    const unit = tracked?.unit.fields as UnitValues | undefined;
    const from = { ...(unit ? { unit } : {}), start: offer.start };
    const meta: PackRollInput = { ...input, ...(unit ? { unit_values: { ...unit } } : {}), reroll: { of: first.id, test: offer.start } };
    return {
      meta: {
        command: pack.pack,
        kind: 'reroll',
        unit: first.unit ?? undefined,
        input: meta,
        parentId: first.id,
        onceKey: `pack_reroll:${first.id}`,
        onceTaken: said('packRerollTaken', { id: first.id }),
      },
      rules: (dice): PackRollOutcome => withTally(pack, input.options, rollPack(pack, input.options, dice, from)),
      odds: (out) => oddsOf(packDistribution(pack, input.options, from), orderFrom(pack, offer.start).order, out.result),
      effects: (out) => packEffects(pack, tracked, out),
    };
  });
  const { first, installed, offer } = parent;
  const reroll = { label: offer.reroll.label, userName: ctx.actor.userName, row: rolled.row, outcome: rolled.outcome };
  return { type: 'update', embed: packEmbedOf(installed, first, reroll), buttons: [], record: summarise(rolled.row, rolled.outcome) };
}
