import { gmOnly } from '../../src/core/access.js';
import { message } from '../../src/core/replies.js';
import { record } from '../../src/core/record.js';
import { defineSubcommand, type CommandGroup, type Context } from '../../src/core/command.js';
import { channel, integer, role } from '../../src/core/options.js';
import { refuse } from '../../src/core/user-error.js';
import { changeOutcome } from '../../src/core/roster-unit.js';
import { noticeEmbed } from '../../src/render/embed.js';
import type { LedgerTx } from '../../src/ledger/transaction.js';
import { command, said, type Said } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';
import { DEFAULT_RETENTION_DAYS, MAX_RETENTION_DAYS } from '../../src/core/retention-days.js';

/** Changes one setting and records it, together. */
async function setting(ctx: Context, name: string, value: string, apply: (tx: LedgerTx) => Promise<void>, shown: string) {
  await ctx.services.ledger.transaction(async (tx) => {
    await apply(tx);
    await record(
      tx,
      ctx,
      { command: 'config', kind: 'config', input: { [name]: value } },
      changeOutcome('unknown', 'config_set', 'Setting changed', `${name} set to ${value}`),
    );
  }, ctx.actor.guildId);
  return message(noticeEmbed(say('config.title'), shown, 'good'), true);
}

/** A channel the bot can post in, as the transport sees it; else the refusal says what is missing. */
function postable(ctx: Context, id: string, need: Said): void {
  const facts = ctx.channel(id);
  if (facts && !facts.text) refuse('notTextChannel', { id, need });
  if (facts?.botMissing?.length) refuse('botCannotPost', { id, missing: facts.botMissing.join(', ') });
}

/** How long this server's data outlives the bot's departure, and whose setting that is. */
async function retentionShown(ctx: Context) {
  const own = await ctx.services.ledger.retention.retentionDays(ctx.actor.guildId);
  const host = ctx.services.retentionDays ?? DEFAULT_RETENTION_DAYS;
  const text =
    own === null
      ? say('config.retentionHost', { after: said('config.retentionAfter', { days: host }), config: command('config retention') })
      : say('config.retentionOwn', { after: said('config.retentionAfter', { days: own }), host });
  return message(noticeEmbed(say('config.title'), text), true);
}

export default {
  name: 'config',
  description: 'GM settings for this server: the GM role, where sealed rolls go, the roll log, data retention',
  example: '/config gm-role role:@Referee',
  subcommands: {
    'gm-role': defineSubcommand({
      description: 'Members with this role are GMs (as well as those with Manage Server)',
      access: gmOnly(said('gmChangeSettings')),
      options: { role: role({ description: 'The GM role', required: true }) },
      run: (ctx, o) => {
        // Discord gives @everyone the server's own id: as the GM role it would make every member a GM.
        if (o.role === ctx.actor.guildId) refuse('everyoneNotGm');
        return setting(ctx, 'gm_role', o.role!, (tx) => tx.settings.setGmRole(ctx.actor.guildId, o.role!), say('config.gmRole', { role: o.role! }));
      },
    }),
    'gm-channel': defineSubcommand({
      description: 'Where the results of sealed rolls are posted for the GMs',
      access: gmOnly(said('gmChangeSettings')),
      options: { channel: channel({ description: 'A text channel only GMs can read, where the bot may post', required: true }) },
      run: (ctx, o) => {
        const id = o.channel!;
        // Checked now so that a sealed roll never finds out later that its result has nowhere to go.
        postable(ctx, id, said('sealedNeedText'));
        return setting(ctx, 'gm_channel', id, (tx) => tx.settings.setGmChannel(ctx.actor.guildId, id), say('config.gmChannel', { channel: id }));
      },
    }),
    'log-channel': defineSubcommand({
      description: 'A channel for a one-line copy of every public result (leave out to stop)',
      access: gmOnly(said('gmChangeSettings')),
      options: { channel: channel({ description: 'A text channel where the bot may post; none: no roll log' }) },
      run: (ctx, o) => {
        const id = o.channel ?? null;
        if (id) postable(ctx, id, said('logNeedText'));
        const shown = id ? say('config.logChannel', { channel: id }) : say('config.noLog');
        return setting(ctx, 'log_channel', id ?? 'none', (tx) => tx.settings.setLogChannel(ctx.actor.guildId, id), shown);
      },
    }),
    retention: defineSubcommand({
      description: "How long this server's data is kept once the bot leaves it (leave out days to see it)",
      access: gmOnly(said('gmChangeSettings')),
      options: {
        days: integer({ description: 'Days from the bot leaving to the deletion, 0 to 365 (0: within the hour)', min: 0, max: MAX_RETENTION_DAYS }),
      },
      run: (ctx, o) => {
        const days = o.days;
        if (days === undefined) return retentionShown(ctx);
        const shown = say('config.retentionSet', { after: said('config.retentionAfter', { days }) });
        return setting(ctx, 'retention_days', String(days), (tx) => tx.retention.setRetentionDays(ctx.actor.guildId, days), shown);
      },
    }),
  },
} satisfies CommandGroup;
