import { recordingRoller, type Roller } from '../dice/roller.js';
import type { LedgerRow } from '../ledger/ledger.js';
import type { Outcome } from '../rules/types.js';
import type { Context, Reply, RecordSummary } from './command.js';

export type RollMeta = {
  command: string;
  kind: 'roll' | 'reroll';
  unit?: string | undefined;
  /** The validated options, exactly as they will be re-read from the ledger. */
  input: unknown;
  parentId?: string;
  onceKey?: string;
};

/**
 * The one path of a roll: the rules roll their dice (each die recorded as it is drawn), then the
 * outcome is committed to the ledger. Nothing is returned, and so nothing can be shown, unless
 * the commit succeeded.
 */
export function rollAndRecord<O extends Outcome>(
  ctx: Context,
  meta: RollMeta,
  rules: (roller: Roller) => O,
): { row: LedgerRow; outcome: O } {
  const dice = recordingRoller(ctx.services.roller);
  const outcome = rules(dice);
  const row = ctx.services.ledger.append({
    guildId: ctx.actor.guildId,
    channelId: ctx.actor.channelId,
    userId: ctx.actor.userId,
    userName: ctx.actor.userName,
    command: meta.command,
    system: outcome.system,
    kind: meta.kind,
    unit: meta.unit ?? null,
    input: meta.input,
    dice: dice.faces,
    outcome,
    result: outcome.result,
    parentId: meta.parentId ?? null,
    onceKey: meta.onceKey ?? null,
  });
  return { row, outcome };
}

export function summarise(row: LedgerRow, outcome: Outcome): RecordSummary {
  return {
    command: row.command,
    system: row.system,
    roll_id: row.id,
    ...(row.parent_id ? { parent_roll_id: row.parent_id } : {}),
    steps: outcome.steps,
    result: outcome.result,
  };
}

export const errorReply = (message: string): Reply => ({ type: 'error', message });
