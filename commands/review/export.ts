import { gmOnly } from '../../src/core/access.js';
import { gameChoices } from '../../src/core/choices.js';
import { attachmentData, defineCommand } from '../../src/core/command.js';
import { verifyPage } from '../../src/core/verify-page.js';
import { exportLedger } from '../../src/core/export-files.js';
import { filterOptions, toFilter } from '../../src/core/filters.js';
import { refuse } from '../../src/core/user-error.js';
import { noticeEmbed } from '../../src/render/embed.js';
import { said } from '../../src/i18n/said.js';
import { command } from '../../src/i18n/said.js';
import { say } from '../../src/i18n/reader.js';

const megabytes = (bytes: number) => Math.round((bytes / (1024 * 1024)) * 10) / 10;

export default defineCommand({
  name: 'export',
  access: gmOnly(said('gmExport')),
  description: "GM: this server's ledger as CSV and JSON Lines, every field and hash",
  example: '/export since:7d',
  // Reads the whole ledger: a full bucket's worth.
  cost: 10,
  options: filterOptions,
  autocomplete: (ctx, option, value) => (option === 'game' ? gameChoices(ctx, value) : []),
  async run(ctx, o) {
    const filter = { ...(await toFilter(ctx, o, true)), kinds: 'all' as const, erasures: true };
    // verify.html goes beside the files: what the export may take is what the page leaves.
    const page = verifyPage();
    const limit = ctx.attachmentLimit - (page ? attachmentData(page).length : 0);
    const stamp = ctx.services.ledger.timestamp().slice(0, 10);
    // Every row (rolls, rulings, decisions, voids, notes, reveals, game, roster and setting changes),
    // read in chunks by a worker thread and written to temporary files as it goes; refused as soon
    // as the files pass Discord's limit for this reply.
    const keys = await ctx.services.ledger.keys.list();
    const result = await exportLedger(ctx.services.ledger, { filter, limit, stamp, keys }, { log: ctx.services.log });
    if (!result.ok) {
      refuse('exportTooBig', { mb: megabytes(ctx.attachmentLimit), rows: result.rows, export: command('export') });
    }
    const filtered = Object.values(o).some((v) => v !== undefined);
    const note = filtered ? say('export.filtered') : `${page ? say('export.page') : ''}${say('export.cli')}`;
    return {
      type: 'message',
      ephemeral: true,
      embed: noticeEmbed(say('export.title'), say('export.rows', { n: result.rows, note })),
      buttons: [],
      files: page ? [...result.files, page] : result.files,
    };
  },
});
