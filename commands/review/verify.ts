import { EVERYONE } from '../../src/core/access.js';
import { message } from '../../src/core/adjudicate.js';
import { defineCommand } from '../../src/core/command.js';
import { text } from '../../src/core/options.js';
import { findRoll } from '../../src/core/review.js';
import { noticeEmbed } from '../../src/render/embed.js';

export default defineCommand({
  name: 'verify',
  access: EVERYONE,
  description: "Recompute this server's hash chain (up to a roll) and report whether it holds",
  example: '/verify',
  options: { id: text({ description: 'Check the chain up to this roll', maxLength: 20 }) },
  run(ctx, o) {
    const { ledger } = ctx.services;
    const row = o.id ? findRoll(ctx, o.id) : undefined;
    const report = ledger.verify(ctx.actor.guildId, row?.guild_seq);
    if (report.ok) {
      return message(
        noticeEmbed(
          'Ledger intact',
          `Intact: ${report.count} row${report.count === 1 ? '' : 's'}${o.id ? ` up to ${o.id}` : ''}, head hash \`${report.headHash}\`.`,
          'good',
        ),
      );
    }
    const b = report.broken;
    return message(
      noticeEmbed(
        'Ledger broken',
        `The chain breaks at row ${b.id} (position ${b.guildSeq}): ${b.reason}. The ${report.count} row${report.count === 1 ? '' : 's'} before it hold.`,
        'bad',
      ),
    );
  },
});
