import { EVERYONE } from '../../src/core/access.js';
import { message } from '../../src/core/replies.js';
import { defineCommand } from '../../src/core/command.js';
import { boolean, text } from '../../src/core/options.js';
import { findRoll } from '../../src/core/review.js';
import { noticeEmbed } from '../../src/render/embed.js';
import { verifyLedger } from '../../src/core/verify-ledger.js';
import type { Context } from '../../src/core/command.js';
import { discordTime } from '../../src/render/embed.js';

export default defineCommand({
  name: 'verify',
  access: EVERYONE,
  description: "Recompute this server's hash chain (up to a roll) and report whether it holds",
  example: '/verify',
  cost: 5,
  options: {
    id: text({ description: 'Check the chain up to this roll', maxLength: 20 }),
    publish: boolean({ description: 'Post the head hash for players to pin: later exports must extend it', default: false }),
    key: boolean({ description: "Show the bot's receipt key (its public half and fingerprint), to check /roll receipt", default: false }),
  },
  async run(ctx, o) {
    const { ledger } = ctx.services;
    if (o.key) return keyReply(ctx);
    const row = o.id ? await findRoll(ledger, ctx, o.id) : undefined;
    // In chunks: a long chain gives the event loop back, so other servers are served and the
    // responder can defer this reply past Discord's 3 s (issue 14).
    const verdict = await verifyLedger(ledger, ctx.actor.guildId, row?.guild_seq);
    const report = verdict.chain;
    const tallies = verdict.tallies ?? { ok: true, lines: [], counted: 0 };
    if (report.ok && !(verdict.promises.ok && verdict.payloads.ok && tallies.ok)) {
      // The lines that failed, as both verifiers word them (the passing ones are left out).
      const problems = [...verdict.promises.lines.filter((l) => l.includes('FAILED')), ...verdict.payloads.lines, ...tallies.lines];
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
      const aggregates = verdict.tallies ? `; the dice report's totals match the ${tallies.counted} roll${tallies.counted === 1 ? '' : 's'} it counts` : '';
      const packs = verdict.packRolls ? `, ${verdict.packRolls} rule pack roll${verdict.packRolls === 1 ? '' : 's'} ruled again from their pack` : '';
      const parts = [
        verdict.reveals ? `${verdict.reveals} sealed roll${verdict.reveals === 1 ? '' : 's'} revealed exactly as sealed` : '',
        games.length ? `every die of ${games.length} ended game${games.length === 1 ? '' : 's'} recomputed from its seeds` : '',
      ].filter(Boolean);
      const checked =
        parts.length || packs || aggregates ? `Also checked: ${parts.join(', ') || 'no sealed roll or ended game yet'}${packs}${aggregates}.` : '';
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

/**
 * The receipt keys: the one in use (public half and fingerprint, to paste into verify.html or give
 * `npm run verify -- --key`), and the earlier ones with when they were in use. Public, for pinning.
 */
async function keyReply(ctx: Context) {
  const keys = await ctx.services.ledger.keys.list();
  const current = keys.find((k) => k.valid_until === null && k.fingerprint === ctx.services.signer?.fingerprint) ?? keys.find((k) => !k.valid_until);
  if (!current) return message(noticeEmbed('No receipt key', 'This bot has no receipt key yet: it makes one when it starts.', 'bad'), true);
  const earlier = keys.filter((k) => k !== current);
  const lines = [
    `Key in use: \`${current.fingerprint}\`, since ${discordTime(current.valid_from)}.`,
    `Public key: \`${current.public_key}\``,
    ...(earlier.length
      ? [
          'Earlier keys (receipts they signed still verify):',
          ...earlier.map((k) => `• \`${k.fingerprint}\` \`${k.public_key}\`, ${k.valid_from} to ${k.valid_until ?? 'now'}`),
        ]
      : []),
    '',
    'Check a receipt from `/roll receipt`: open verify.html (attached to every /export) and paste this public key, or run `npm run verify -- --receipt receipt.txt --key <public key>`. Every export lists these keys too.',
  ];
  return message(noticeEmbed('Receipt key', lines.join('\n'), 'neutral'));
}
