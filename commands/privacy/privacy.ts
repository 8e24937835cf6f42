import { EVERYONE } from '../../src/core/access.js';
import { customId, defineSubcommand, type ButtonHandler, type CommandGroup, type Context } from '../../src/core/command.js';
import { erasedList, erasePerson, isEmpty, keptLines, personalFile } from '../../src/core/privacy.js';
import { refuse } from '../../src/core/user-error.js';
import { noticeEmbed } from '../../src/render/embed.js';
import { command, list, said } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';

/** The erase button: custom_id `v1:privacy_erase:<user id>`; it erases only the one who presses it, and only if it is theirs. */
export const PRIVACY_ERASE = 'privacy_erase';

/** What is kept about the actor, in this server and in all, as the lines /privacy show and erase list. */
async function kept(ctx: Context) {
  const summary = await ctx.services.ledger.personal.summary(ctx.actor.userId);
  const here = summary.byGuild.find((g) => g.guildId === ctx.actor.guildId)?.counts;
  return { summary, lines: keptLines(summary.total, here) };
}

const erase: ButtonHandler = async (ctx, target) => {
  // Only the member the confirmation was shown to: the button never names whose data it erases.
  if (target !== ctx.actor.userId) refuse('privacyNotYours', { erase: command('privacy erase') });
  const report = await erasePerson(ctx.services.ledger, ctx.actor.userId);
  const body = report.guilds
    ? say('privacy.erasedBody', { servers: report.guilds, list: erasedList(report), legacy: report.rowsKept })
    : say('privacy.nothingKept');
  return { type: 'update', embed: noticeEmbed(say('privacy.erasedTitle'), body, 'good'), buttons: [] };
};

export default {
  name: 'privacy',
  description: 'Your own data: what this bot keeps about you, all of it as a file, or erase it',
  example: '/privacy show',
  // Each reads what is kept about one person in every server: a heavy read.
  cost: 5,
  buttons: { [PRIVACY_ERASE]: erase },
  subcommands: {
    show: defineSubcommand({
      description: 'What this bot keeps about you, and where (only you see the answer)',
      access: EVERYONE,
      options: {},
      async run(ctx) {
        const { summary, lines } = await kept(ctx);
        const body = isEmpty(summary)
          ? say('privacy.nothingKept')
          : say('privacy.showBody', {
              servers: summary.byGuild.length,
              list: list(lines, 'lines'),
              legacy: summary.total.legacyRows,
              export: command('privacy export'),
              erase: command('privacy erase'),
            });
        return { type: 'message', ephemeral: true, embed: noticeEmbed(say('privacy.showTitle'), body), buttons: [] };
      },
    }),
    export: defineSubcommand({
      description: 'Everything this bot keeps about you, as one JSON file (only you see it)',
      access: EVERYONE,
      options: {},
      async run(ctx) {
        const at = ctx.services.ledger.timestamp();
        const { file, rows, side } = await personalFile(ctx.services.ledger, ctx.actor.userId, at, ctx.attachmentLimit);
        const embed = noticeEmbed(say('privacy.exportTitle'), say('privacy.exportBody', { rows, side }));
        return { type: 'message', ephemeral: true, embed, buttons: [], files: [file] };
      },
    }),
    erase: defineSubcommand({
      description: 'Erase what this bot keeps about you, in every server (asks you to confirm)',
      access: EVERYONE,
      options: {},
      async run(ctx) {
        const { summary } = await kept(ctx);
        if (isEmpty(summary))
          return { type: 'message', ephemeral: true, embed: noticeEmbed(say('privacy.eraseTitle'), say('privacy.nothingKept')), buttons: [] };
        // The chained rows are not erased: only what lies beside them is listed as going.
        const beside = keptLines({ ...summary.total, rows: 0 });
        const going = beside.length ? list(beside, 'lines') : said('privacy.eraseOnlyRows');
        const body = say('privacy.eraseBody', { servers: summary.byGuild.length, list: going, legacy: summary.total.legacyRows });
        const button = { custom_id: customId(PRIVACY_ERASE, ctx.actor.userId), label: say('privacy.eraseButton'), style: 'danger' as const };
        return { type: 'message', ephemeral: true, embed: noticeEmbed(say('privacy.eraseTitle'), body, 'bad'), buttons: [button] };
      },
    }),
  },
} satisfies CommandGroup;
