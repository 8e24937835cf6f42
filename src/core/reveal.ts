import { sealCommitment } from '../ledger/chain.js';
import { checkCommitted, saltIdsIn } from '../ledger/people.js';
import type { LedgerRow } from '../ledger/rows.js';
import type { Context } from './command.js';
import { record } from './record.js';
import type { PendingEffect } from './roll.js';
import { changeOutcome, writeBack } from './roster-unit.js';
import type { TxScope } from './unit-of-work.js';
import { refuse } from './user-error.js';
import { command, said } from '../i18n/said.js';

/** A kept payload against its committed form, under the salts the ledger still keeps (read beside the unit of work: they only ever go). */
async function payloadMatches(ctx: Context, payload: unknown, committed: unknown): Promise<boolean> {
  const ids = [...saltIdsIn(committed)];
  const salts = ids.length ? await ctx.services.ledger.history.saltsOf(ids) : new Map<string, string>();
  return checkCommitted(payload, committed, salts).ok;
}

/**
 * Publishes a sealed roll in the caller's unit of work: its payload is checked against the
 * commitment the chained row holds before anything is published or applied (an edited payload is
 * refused), then the reveal row publishes the salt and payload, and the roster changes
 * the result makes take effect (authorised when the roll was made). Returns the reveal row and
 * what it published.
 */
export async function revealIn(at: TxScope, ctx: Context, row: LedgerRow) {
  const sealed = (await at.tx.sealedPayloads(ctx.actor.guildId, [row.id])).get(row.id);
  if (!sealed) refuse('sealedBeforeCommitments', { id: row.id, show: command('roll show') });
  const { salt, payload } = sealed;
  // A roll sealed with people committed (people.ts) opens by that form, which its reveal's chain holds.
  const opens = sealed.committed ?? payload;
  // The plain payload must be what the committed form commits to: opened by the salts kept, blank where erased.
  const matches = sealed.committed === undefined || (await payloadMatches(ctx, payload, sealed.committed));
  if (!matches || (row.outcome as { commitment?: string }).commitment !== sealCommitment(salt, opens)) {
    refuse('revealTampered', { id: row.id, verify: command('verify') });
  }
  const mark = await record(
    at.tx,
    ctx,
    {
      command: 'reveal',
      kind: 'reveal',
      unit: row.unit ?? undefined,
      input: { roll: row.id, salt, payload },
      // Its chain holds the payload as the sealed roll committed to it: opened by the same salts, or erased with them
      // (a roll sealed before person fields were committed: as it was, names and all, as its commitment covers them).
      chainedInput: { payload: sealed.committed ?? payload },
      named: [{ userId: row.user_id, values: [row.user_name, row.unit ?? ''] }],
      parentId: row.id,
      onceKey: `reveal:${row.id}`,
      onceTaken: said('alreadyRevealed', { id: row.id }),
    },
    changeOutcome(row.system ?? 'unknown', 'revealed', 'Revealed', `${ctx.actor.userName} revealed roll ${row.id}.`),
  );
  for (const e of payload.effects as PendingEffect[]) {
    const unit = await at.tx.roster.unit(e.unit_id);
    const game = unit && !unit.removed_at ? await at.tx.roster.game(ctx.actor.guildId, unit.game_id) : undefined;
    if (unit && game && !game.ended_at) await writeBack(at.tx, ctx, { game, unit }, e.change, mark.id, e.command, { authorised: true });
  }
  return { mark, payload };
}
