import { assertOwnerOrGm } from '../../src/core/access.js';
import { record, summarise } from '../../src/core/adjudicate.js';
import { refuse } from '../../src/core/user-error.js';
import { viewFor } from '../../src/core/review.js';
import { isSealed } from '../../src/render/review.js';
import { customId, type Button, type Context, type Reply } from '../../src/core/command.js';
import { writeBack } from '../../src/core/roster-unit.js';
import { storedAslEmbed, type AslStep } from '../../src/render/asl.js';
import type { Finding, Outcome } from '../../src/rules/types.js';

export const REFUSE = 'refuse_bh';
export const REFUSE_LABEL = 'Refuse battle hardening';

/** The refuse button, when the roll's Heat of Battle result includes a battle hardening that may be refused. */
export function refuseButtons(found: { row: { id: string }; outcome: { steps: { kind: string; refusable?: true }[] } }): Button[] {
  const refusable = found.outcome.steps.some((s) => s.kind === 'hob' && s.refusable);
  return refusable ? [{ custom_id: customId(REFUSE, found.row.id), label: REFUSE_LABEL, style: 'secondary' }] : [];
}

const refusal = (by: string): Finding => ({
  kind: 'decision',
  result: 'hardening_refused',
  label: 'Battle hardening refused',
  effect: `${by} refused the battle hardening: the unit stays as it was (any hero or Fanatic effect of the same DR aside).`,
  tone: 'neutral',
  ref: 'A15.3',
});

/** The owner (the roller) or a GM refuses a Battle Hardening result, once; a ledger row linked to the roll. */
export async function refuseHardening(ctx: Context, rollId: string): Promise<Reply> {
  const { ledger } = ctx.services;
  // A sealed roll is read as revealed (its choices are offered only then); unrevealed it is not on record here.
  const stored = await ledger.get(ctx.actor.guildId, rollId);
  const view = stored && (await viewFor(ctx, stored));
  const roll = view && !view.hidden && (!isSealed(view.row) || view.revealed) ? view.row : undefined;
  const steps = (roll?.outcome as { steps?: AslStep[] } | undefined)?.steps ?? [];
  const hob = steps.find((s): s is Extract<AslStep, { kind: 'hob' }> => s.kind === 'hob');
  if (roll?.kind !== 'roll' || !hob) refuse('That Heat of Battle roll is not on record in this server.');
  if (!hob.refusable) refuse('That Heat of Battle result has no battle hardening to refuse.');
  assertOwnerOrGm(ctx, roll.user_id, `Only ${roll.user_name}, who rolled it, or a GM can refuse the battle hardening.`);
  const finding = refusal(ctx.actor.userName);
  const outcome: Outcome = { system: 'asl', steps: [finding], result: finding.result, tone: finding.tone };
  const row = await ctx.services.ledger.transaction(async (tx) => {
    const r = await record(
      tx,
      ctx,
      {
        command: roll.command,
        kind: 'decision',
        unit: roll.unit ?? undefined,
        input: { decision: 'refuse_battle_hardening' },
        parentId: roll.id,
        onceKey: `${REFUSE}:${roll.id}`,
        onceTaken: 'That battle hardening was already refused.',
      },
      outcome,
    );
    // A tracked unit goes back to what it was before the hardening, broken or pinned included (A15.3).
    const game = await tx.roster.activeGame(ctx.actor.guildId, ctx.actor.channelId);
    const unit = game?.system === 'asl' && roll.unit ? await tx.roster.unitByName(game.id, roll.unit) : undefined;
    const f = unit?.fields as { counter?: string; fanatic?: boolean } | undefined;
    const written = (await tx.children(ctx.actor.guildId, roll.id)).find((c) => c.kind === 'unit');
    const undo = (written?.input as { undo?: Record<string, unknown> } | undefined)?.undo;
    const stillHardened = (hob.unit_after && f?.counter === hob.unit_after) || (hob.fanatic && f?.fanatic);
    if (game && unit && undo && stillHardened)
      await writeBack(tx, ctx, { game, unit }, { fields: undo, why: 'Battle hardening refused: back as it was' }, r.id, roll.command);
    return r;
  }, ctx.actor.guildId);
  return {
    type: 'update',
    embed: storedAslEmbed(roll, [{ finding, rollId: row.id }]),
    buttons: [],
    record: summarise(row, outcome),
  };
}
