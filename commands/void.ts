import { errorReply, message, record } from '../src/core/adjudicate.js';
import { defineCommand, type Context, type Reply } from '../src/core/command.js';
import { text } from '../src/core/options.js';
import { changeOutcome } from '../src/core/roster-unit.js';
import { findRoll, GM_ONLY } from '../src/core/review.js';
import { AlreadyRecordedError } from '../src/ledger/ledger.js';
import { noticeEmbed } from '../src/render/embed.js';

/** A GM's note on a roll: a new ledger row pointing at it; the roll itself never changes. */
export function gmMark(ctx: Context, id: string, kind: 'void' | 'annotation', words: string): Reply {
  if (!ctx.actor.isGm) return errorReply(GM_ONLY(kind === 'void' ? 'void a roll' : 'annotate a roll'));
  const row = findRoll(ctx, id);
  if ('type' in row) return row;
  if (kind === 'void' && row.kind !== 'roll' && row.kind !== 'reroll' && row.kind !== 'check')
    return errorReply(`${row.id} is a ${row.kind} row, not a roll: only rolls and rulings can be voided.`);
  const finding = changeOutcome(row.system ?? 'unknown', kind === 'void' ? 'voided' : 'annotated', kind === 'void' ? 'Voided' : 'Annotated', words);
  try {
    const mark = record(
      ctx,
      {
        command: kind === 'void' ? 'void' : 'annotate',
        kind,
        unit: row.unit ?? undefined,
        input: kind === 'void' ? { reason: words } : { note: words },
        parentId: row.id,
        ...(kind === 'void' ? { onceKey: `void:${row.id}` } : {}),
      },
      finding,
    );
    const what = kind === 'void' ? `Roll ${row.id} is void: ${words}` : `Note on roll ${row.id}: ${words}`;
    return message(
      noticeEmbed(
        kind === 'void' ? 'Roll voided' : 'Roll annotated',
        `${what}\nRecorded as ${mark.id}; the roll itself is unchanged and stays listed${kind === 'void' ? ', struck through' : ''}.`,
      ),
    );
  } catch (err) {
    if (err instanceof AlreadyRecordedError) return errorReply(`Roll ${row.id} is already void.`);
    throw err;
  }
}

export default defineCommand({
  name: 'void',
  description: 'GM: mark a roll void, with the reason (nothing is changed or deleted)',
  example: '/void id:k3x9q2m7pd reason:"rolled for the wrong unit"',
  options: {
    id: text({ description: 'The roll id', maxLength: 20, required: true }),
    reason: text({ description: 'Why it is void', maxLength: 200, required: true }),
  },
  run: (ctx, o) => gmMark(ctx, o.id, 'void', o.reason),
});
