import { EVERYONE } from '../../src/core/access.js';
import { message } from '../../src/core/replies.js';
import { defineCommand } from '../../src/core/command.js';
import { boolean, text } from '../../src/core/options.js';
import { findRoll } from '../../src/core/review.js';
import { noticeEmbed } from '../../src/render/embed.js';
import { verifyLedger } from '../../src/core/verify-ledger.js';

export default defineCommand({
  name: 'verify',
  access: EVERYONE,
  description: "Recompute this server's hash chain (up to a roll) and report whether it holds",
  example: '/verify',
  cost: 5,
  options: {
    id: text({ description: 'Check the chain up to this roll', maxLength: 20 }),
    publish: boolean({ description: 'Post the head hash for players to pin: later exports must extend it', default: false }),
  },
  async run(ctx, o) {
    const { ledger } = ctx.services;
    const row = o.id ? await findRoll(ledger, ctx, o.id) : undefined;
    // In chunks: a long chain gives the event loop back, so other servers are served and the
    // responder can defer this reply past Discord's 3 s (issue 14).
    const verdict = await verifyLedger(ledger, ctx.actor.guildId, row?.guild_seq);
    const report = verdict.chain;
    if (report.ok && !(verdict.promises.ok && verdict.payloads.ok)) {
      // The lines that failed, as both verifiers word them (the passing ones are left out).
      const problems = [...verdict.promises.lines.filter((l) => l.includes('FAILED')), ...verdict.payloads.lines];
      return message(
        noticeEmbed(
          'Ledger broken',
          `The chain holds (${report.count} rows), but what it promises does not:\n${problems.map((p) => `• ${p}`).join('\n')}`,
          'bad',
        ),
      );
    }
    if (report.ok) {
      const { games } = verdict.promises;
      const checked = `Checked too: ${verdict.reveals} reveal${verdict.reveals === 1 ? '' : 's'} against their commitments, ${games.length} ended game${games.length === 1 ? '' : 's'} with every die recomputed.`;
      const anchor = o.publish
        ? `\n**Pin this message.** It is an anchor outside the bot: \`npm run verify -- export.jsonl --head ${report.headHash}\` proves a later export still contains this head unchanged, so no row up to here was rewritten or cut.`
        : '';
      return message(
        noticeEmbed(
          o.publish ? 'Ledger head, for pinning' : 'Ledger intact',
          `Intact: ${report.count} row${report.count === 1 ? '' : 's'}${o.id ? ` up to ${o.id}` : ''}, head hash \`${report.headHash}\`. ${checked}${anchor}`,
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
