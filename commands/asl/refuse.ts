import { assertOwnerOrGm } from '../../src/core/access.js';
import { record } from '../../src/core/record.js';
import { summarise } from '../../src/core/replies.js';
import { refuse } from '../../src/core/user-error.js';
import { buttonParent } from '../../src/core/review.js';
import { unitOfWork, type TxScope } from '../../src/core/unit-of-work.js';
import type { LedgerRow } from '../../src/ledger/rows.js';
import { customId, type Context, type Reply } from '../../src/core/command.js';
import type { Button } from '../../src/render/embed.js';
import { writeBack } from '../../src/core/roster-unit.js';
import { storedAslEmbed, type AslStep } from '../../src/render/asl.js';
import type { Finding, Outcome } from '../../src/rules/types.js';
import { said } from '../../src/i18n/said.js';
import { userText } from '../../src/render/embed.js';
import { say } from '../../src/i18n/reader.js';
import { worded } from '../../src/rules/words.js';

export const REFUSE = 'refuse_bh';

/** The refuse button, when the roll's Heat of Battle result includes a battle hardening that may be refused. */
export function refuseButtons(found: { row: { id: string }; outcome: { steps: { kind: string; refusable?: true }[] } }): Button[] {
  const refusable = found.outcome.steps.some((s) => s.kind === 'hob' && s.refusable);
  return refusable ? [{ custom_id: customId(REFUSE, found.row.id), label: say('asl.refuse.button'), style: 'secondary' }] : [];
}

const refusal = (by: string): Finding => ({
  kind: 'decision',
  result: 'hardening_refused',
  ...worded(said('asl.refuse.label'), said('asl.refuse.effect', { by })),
  tone: 'neutral',
  ref: 'A15.3',
});

/** A tracked unit goes back to what it was before the hardening, broken or pinned included (A15.3), if it is still hardened. */
async function undoHardening(at: TxScope, ctx: Context, roll: LedgerRow, hob: Extract<AslStep, { kind: 'hob' }>, children: LedgerRow[], refusalId: string) {
  const { game, reads } = at;
  const unit = game && roll.unit ? await reads.roster.unitByName(game.id, roll.unit) : undefined;
  const f = unit?.fields as { counter?: string; fanatic?: boolean } | undefined;
  const undo = (children.find((c) => c.kind === 'unit')?.input as { undo?: Record<string, unknown> } | undefined)?.undo;
  const stillHardened = (hob.unit_after && f?.counter === hob.unit_after) || (hob.fanatic && f?.fanatic);
  if (game && unit && undo && stillHardened)
    await writeBack(at.tx, ctx, { game, unit }, { fields: undo, why: 'Battle hardening refused: back as it was' }, refusalId, roll.command);
}

/**
 * The owner (the roller) or a GM refuses a Battle Hardening result, once; a ledger row linked to
 * the roll. The roll, its linked rows and the unit are read in the refusal's transaction.
 */
export async function refuseHardening(ctx: Context, rollId: string): Promise<Reply> {
  const finding = refusal(userText(ctx.actor.userName));
  const outcome: Outcome = { system: 'asl', steps: [finding], result: finding.result, tone: finding.tone };
  const { roll, row } = await unitOfWork(ctx, 'asl', async (at) => {
    const parent = await buttonParent(at.reads, ctx, rollId);
    const roll = parent?.roll;
    const hob = ((roll?.outcome as { steps?: AslStep[] } | undefined)?.steps ?? []).find((s): s is Extract<AslStep, { kind: 'hob' }> => s.kind === 'hob');
    if (roll?.kind !== 'roll' || !hob) refuse('hobNotOnRecord');
    if (!hob.refusable) refuse('nothingToRefuse');
    if (parent!.voided !== undefined)
      refuse(parent!.voided ? said('voidedNoChoiceWhy', { id: roll.id, why: userText(parent!.voided) }) : said('voidedNoChoice', { id: roll.id }));
    assertOwnerOrGm(ctx, roll.user_id, said('onlyRollerRefuses', { user: userText(roll.user_name) }));
    const row = await record(
      at.tx,
      ctx,
      {
        command: roll.command,
        kind: 'decision',
        unit: roll.unit ?? undefined,
        input: { decision: 'refuse_battle_hardening' },
        parentId: roll.id,
        onceKey: `${REFUSE}:${roll.id}`,
        onceTaken: said('hardeningRefused'),
      },
      outcome,
      [],
      at,
    );
    await undoHardening(at, ctx, roll, hob, parent!.children, row.id);
    return { roll, row };
  });
  return {
    type: 'update',
    embed: storedAslEmbed(roll, [{ finding, rollId: row.id }]),
    buttons: [],
    record: summarise(row, outcome),
  };
}
