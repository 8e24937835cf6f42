import type { ButtonHandler } from '../../src/core/command.js';
import { record } from '../../src/core/record.js';
import { message } from '../../src/core/replies.js';
import { findRoll } from '../../src/core/review.js';
import { changeOutcome } from '../../src/core/roster-unit.js';
import { unitOfWork } from '../../src/core/unit-of-work.js';
import { refuse } from '../../src/core/user-error.js';
import { noticeEmbed, userText } from '../../src/render/embed.js';
import { said } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';

/** The button on a tournament game's results: custom_id `v1:ack:<roll id>`. */
export const ACKNOWLEDGE = 'ack';

/**
 * An opponent's Acknowledge on a result: a row pointing at the roll. Pressed in HTTP
 * mode, Discord's signed request carries the message the button sits on, so the row's evidence is
 * Discord's own copy of what the bot showed; verifiers check that copy names the roll.
 */
export const acknowledge: ButtonHandler = async (ctx, rollId) => {
  const row = await unitOfWork(ctx, null, async (at) => {
    const roll = await findRoll(at.reads, ctx, rollId);
    if (roll.user_id === ctx.actor.userId) refuse('ackOwnRoll');
    if (!ctx.evidence) refuse('ackNeedsHttp');
    const finding = changeOutcome(roll.system ?? 'unknown', 'acknowledged', 'Acknowledged', `${ctx.actor.userName} acknowledged the result as shown.`);
    await record(
      at.tx,
      ctx,
      {
        command: 'acknowledge',
        kind: 'annotation',
        unit: roll.unit ?? undefined,
        input: { note: 'acknowledged as shown' },
        parentId: roll.id,
        onceKey: `ack:${roll.id}:${ctx.actor.userId}`,
        onceTaken: said('ackTwice', { id: roll.id }),
      },
      finding,
    );
    return roll;
  });
  return message(noticeEmbed(say('mark.ackTitle'), say('mark.ack', { user: userText(ctx.actor.userName), id: row.id })), true);
};
