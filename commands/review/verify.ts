import { EVERYONE } from '../../src/core/access.js';
import { message } from '../../src/core/replies.js';
import { defineCommand } from '../../src/core/command.js';
import { boolean, text } from '../../src/core/options.js';
import { findRoll } from '../../src/core/review.js';
import { noticeEmbed } from '../../src/render/embed.js';
import { verifyLedger } from '../../src/core/verify-ledger.js';
import { expiryReports } from '../../src/verify/beacon-expiries.js';
import type { Context } from '../../src/core/command.js';
import { discordTime } from '../../src/render/embed.js';
import { say } from '../../src/i18n/reader.js';
import { command } from '../../src/i18n/said.js';

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
    // responder can defer this reply past Discord's 3 s.
    const verdict = await verifyLedger(ledger, ctx.actor.guildId, row?.guild_seq);
    const report = verdict.chain;
    const tallies = verdict.tallies ?? { ok: true, lines: [], counted: 0 };
    if (report.ok && !(verdict.promises.ok && verdict.payloads.ok && tallies.ok)) {
      // The lines that failed, as both verifiers word them (the passing ones are left out).
      const problems = [...verdict.promises.lines.filter((l) => l.includes('FAILED')), ...verdict.payloads.lines, ...tallies.lines];
      return message(
        noticeEmbed(say('verify.brokenTitle'), say('verify.promisesBroken', { n: report.count, problems: problems.map((p) => `• ${p}`).join('\n') }), 'bad'),
      );
    }
    if (report.ok) {
      const games = verdict.promises.games.filter((g) => !g.scripted);
      const scripted = verdict.promises.games.length - games.length;
      const aggregates = verdict.tallies ? say('verify.aggregates', { n: tallies.counted }) : '';
      const packs = verdict.packRolls ? say('verify.packs', { n: verdict.packRolls }) : '';
      const parts = [
        verdict.reveals ? say('verify.reveals', { n: verdict.reveals }) : '',
        games.length ? say('verify.games', { n: games.length }) : '',
        scripted ? say('verify.scripted', { n: scripted }) : '',
      ].filter(Boolean);
      const checked =
        parts.length || packs || aggregates ? say('verify.checked', { parts: parts.join(', ') || say('verify.nothingYet'), packs, aggregates }) : '';
      const anchor = o.publish ? `\n${say('verify.anchor', { head: report.headHash })}` : '';
      const intact = say('verify.intact', { n: report.count, upTo: o.id ? say('verify.upTo', { id: o.id }) : '', head: report.headHash });
      // Rolls that expired unrolled hold the chain, but the table must see them (every verifier says them).
      const expired = expiryReports(verdict.promises.lines)
        .map((l) => `\n• ${l}`)
        .join('');
      // Rows whose person values were erased still hold: the reader is told how many.
      const erased = report.erased ? say('verify.erased', { n: report.erased }) : '';
      return message(noticeEmbed(say(o.publish ? 'verify.pinTitle' : 'verify.intactTitle'), `${intact}${erased} ${checked}${expired}${anchor}`, 'good'));
    }
    const b = report.broken;
    return message(
      noticeEmbed(say('verify.brokenTitle'), say('verify.breaks', { id: b.id, seq: String(b.guildSeq), reason: b.reason, n: report.count }), 'bad'),
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
  if (!current) return message(noticeEmbed(say('verify.noKeyTitle'), say('verify.noKey'), 'bad'), true);
  const earlier = keys.filter((k) => k !== current);
  const lines = [
    say('verify.keyInUse', { fingerprint: current.fingerprint, since: discordTime(current.valid_from) }),
    say('verify.publicKey', { key: current.public_key }),
    ...(earlier.length
      ? [
          say('verify.earlierKeys'),
          ...earlier.map((k) =>
            say('verify.earlierKey', { fingerprint: k.fingerprint, key: k.public_key, from: k.valid_from, until: k.valid_until ?? say('verify.now') }),
          ),
        ]
      : []),
    '',
    say('verify.keyHow', { receipt: command('roll receipt'), export: command('export') }),
  ];
  return message(noticeEmbed(say('verify.keyTitle'), lines.join('\n'), 'neutral'));
}
