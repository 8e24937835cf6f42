import { articleOf } from '../../src/util/text.js';
import { message } from '../../src/core/replies.js';
import { record } from '../../src/core/record.js';
import { unitOfWork } from '../../src/core/unit-of-work.js';
import { refuse } from '../../src/core/user-error.js';
import type { Context, Reply } from '../../src/core/command.js';
import { changeOutcome } from '../../src/core/roster-unit.js';
import { findRoll } from '../../src/core/review.js';
import { noticeEmbed, userText } from '../../src/render/embed.js';
import { said } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';

/** A GM's note on a roll: a new ledger row pointing at it; the roll itself never changes. */
export async function gmMark(ctx: Context, id: string, kind: 'void' | 'annotation', words: string): Promise<Reply> {
  const { row, mark } = await unitOfWork(ctx, null, async (at) => {
    const row = await findRoll(at.reads, ctx, id);
    if (kind === 'void' && row.kind !== 'roll' && row.kind !== 'reroll' && row.kind !== 'check')
      refuse('notARollToVoid', { id: row.id, article: articleOf(row.kind), kind: row.kind });
    const finding = changeOutcome(row.system ?? 'unknown', kind === 'void' ? 'voided' : 'annotated', kind === 'void' ? 'Voided' : 'Annotated', words);
    const mark = await record(
      at.tx,
      ctx,
      {
        command: kind === 'void' ? 'void' : 'annotate',
        kind,
        unit: row.unit ?? undefined,
        input: kind === 'void' ? { reason: words } : { note: words },
        parentId: row.id,
        ...(kind === 'void' ? { onceKey: `void:${row.id}`, onceTaken: said('alreadyVoid', { id: row.id }) } : {}),
      },
      finding,
    );
    return { row, mark };
  });
  const what = say(kind === 'void' ? 'mark.void' : 'mark.note', { id: row.id, words: userText(words) });
  const recorded = say('mark.recorded', { mark: mark.id, struck: kind === 'void' ? 'yes' : 'no' });
  return message(noticeEmbed(say(kind === 'void' ? 'mark.voidTitle' : 'mark.noteTitle'), `${what}\n${recorded}`));
}
